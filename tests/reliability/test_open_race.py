"""Processes that open one new embedded store file at the same moment (CI failure of
stop 10: two ``graphmem ingest`` processes, one answered "database is locked").

SQLite answers a racing journal-mode switch with "database is locked" without
waiting on the busy timeout, so :meth:`EmbeddedDb.open` tries a locked open again.
Each round starts PROCESSES processes on a fresh directory behind a barrier; every
open must succeed and the file must hold one schema of the asked dimension.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

from graphmem.store.embedded._db import EmbeddedDb

PROCESSES = 6
ROUNDS = 40
DIM = 8


def _open_and_close(path: str, barrier: multiprocessing.synchronize.Barrier) -> str:
    db = EmbeddedDb(Path(path), DIM)
    barrier.wait(timeout=60)
    try:
        db.open()
    except Exception as exc:  # reported to the parent, which asserts on it
        return f"{type(exc).__name__}: {exc}"
    db.close()
    return "ok"


def test_processes_opening_one_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    failures: list[str] = []
    with ctx.Manager() as manager, ctx.Pool(PROCESSES) as pool:
        for round_ in range(ROUNDS):
            path = tmp_path / f"round-{round_}"
            barrier = manager.Barrier(PROCESSES)
            results = pool.starmap(_open_and_close, [(str(path), barrier)] * PROCESSES)
            failures += [r for r in results if r != "ok"]
            with sqlite3.connect(path / "graphmem.sqlite") as conn:
                rows = conn.execute("SELECT value FROM meta WHERE key = 'dim'").fetchall()
            assert rows == [(str(DIM),)], rows
    assert failures == [], failures[:3]
