"""Crash safety of the embedded store (issue 6 §5): a process bulk-writing to the
store is SIGKILLed at random points, several times, each run continuing where the
last whole batch ended (``tests/reliability/_crash_writer.py``).

After every kill the store must open, pass SQLite's integrity check and hold
only whole memories: each row's JSON parses; its indexed columns, its
``mentions`` rows and its ``memory_sessions`` rows agree with the JSON; it has
an embedding of the store's dimension; no link row points at a missing memory;
and the memory count is that of a whole number of batches, with every merge of
those batches applied (n = 2 exactly where the next batch was committed).

Kills land at random moments after a batch began (anywhere in the pipeline or
the transaction) or a few milliseconds after its write transaction started.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from graphmem import GraphMem, Settings
from graphmem.models import Memory
from graphmem.store.embedded import EmbeddedStore
from tests.fakes import HashEmbedder
from tests.reliability import _crash_writer as writer
from tests.reliability.conftest import add_figure, record_figure

KILLS = int(os.environ.get("GRAPHMEM_RELIABILITY_KILLS", "6"))
NS = "crash"
REPO = Path(__file__).resolve().parents[2]


def _store(path: Path) -> EmbeddedStore:
    settings = Settings()
    return EmbeddedStore(
        path,
        dim=writer.DIM,
        bm25_k1=settings.read.fusion.bm25_k1,
        bm25_b=settings.read.fusion.bm25_b,
    )


def _kill_one_run(path: Path, rng: random.Random) -> tuple[str, set[int]]:
    """Start the writer and SIGKILL it at a random point. Returns where it was killed
    and the numbers of whole batches the store may hold afterwards: one more than the
    last batch reported done, or than the last one begun (killed after its commit,
    before it said so)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability._crash_writer", str(path), NS],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    mid_transaction = rng.random() < 0.5
    target = rng.randint(0, 1)  # kill in the first or second batch of this run
    begun = 0
    lines: list[str] = []
    phase = "?"
    try:
        for line in proc.stdout:
            lines.append(line)
            word = line.split()[0]
            if word == "begin":
                begun += 1
                if begun - 1 == target and not mid_transaction:
                    time.sleep(rng.uniform(0.0, 0.25))
                    phase = "anywhere in a batch"
                    break
            elif word == "tx" and begun - 1 == target and mid_transaction:
                time.sleep(rng.uniform(0.0, 0.02))
                phase = "in the write transaction"
                break
        else:
            raise AssertionError(
                f"writer exited early: {proc.stderr.read() if proc.stderr else ''}"
            )
    finally:
        proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    said = [line.split() for line in [*lines, *rest.splitlines()] if line.strip()]
    done = max((int(n) for w, n in said if w == "done"), default=None)
    last = max(int(n) for w, n in said if w == "begin")
    first = int(said[0][1])  # the batch this run started at: whole batches before it
    return phase, {first if done is None else done + 1, last + 1}


def _check_store(path: Path) -> int:
    """Everything the module docstring promises; returns the number of whole batches."""
    db = path / "graphmem.sqlite"
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = conn.execute(
            "SELECT id, content, content_hash, superseded_by, tier, embedding, body"
            " FROM memories WHERE namespace = ?",
            (NS,),
        ).fetchall()
        mentions: dict[str, set[tuple[str, str]]] = {}
        for mid, entity, role in conn.execute(
            "SELECT memory_id, entity_id, role FROM mentions WHERE namespace = ?", (NS,)
        ):
            mentions.setdefault(mid, set()).add((entity, role))
        sessions: dict[str, set[str]] = {}
        for mid, session in conn.execute(
            "SELECT memory_id, session_id FROM memory_sessions WHERE namespace = ?", (NS,)
        ):
            sessions.setdefault(mid, set()).add(session)
        n_sessions = conn.execute(
            "SELECT count(DISTINCT session_id) FROM memory_sessions WHERE namespace = ?", (NS,)
        ).fetchone()[0]
    finally:
        conn.close()

    memories: dict[str, Memory] = {}
    for mid, content, chash, superseded, tier, blob, body in rows:
        m = Memory.model_validate_json(body)
        assert (m.id, m.content, m.content_hash, m.superseded_by, m.tier) == (
            mid,
            content,
            chash,
            superseded,
            tier,
        )
        assert blob is not None and len(blob) == 4 * writer.DIM, f"{mid}: embedding {blob!r:.40}"
        assert mentions.get(mid, set()) == {(x.entity_id, x.role) for x in m.mentions}, mid
        assert sessions.get(mid, set()) == set(m.session_ids), mid
        memories[m.content] = m
    assert set(mentions) <= {m.id for m in memories.values()}, "mentions of a missing memory"
    assert set(sessions) <= {m.id for m in memories.values()}, "sessions of a missing memory"

    batches = int(n_sessions)
    assert len(memories) == ((writer.BATCH - 1) * batches + 1 if batches else 0)
    for b in range(batches):
        first = memories[writer.fact(b, 0)]
        merged = b + 1 < batches
        assert first.n == (2 if merged else 1), (b, first.n, first.session_ids)
        assert first.session_ids == ((f"b{b}", f"b{b + 1}") if merged else (f"b{b}",))
        for i in range(1, writer.BATCH - 1):
            assert memories[writer.fact(b, i)].session_ids == (f"b{b}",)
    # and the library opens it and agrees
    store = _store(path)
    store.open()
    try:
        assert store.stats(NS)["memories"] == len(memories)
        assert store.stats(NS)["sessions"] == batches
    finally:
        store.close()
    return batches


def test_killed_writer_leaves_whole_memories(tmp_path: Path) -> None:
    path = tmp_path / "store"
    rng = random.Random(20240611)
    phases: dict[str, int] = {}
    batches = 0
    for _ in range(KILLS):
        phase, possible = _kill_one_run(path, rng)
        phases[phase] = phases.get(phase, 0) + 1
        now = _check_store(path)
        assert now >= batches and now in possible, (batches, now, possible)
        batches = now
    # the store is fully usable after the last crash: recall and a further write
    gm = GraphMem(Settings(), store=_store(path), embedder=HashEmbedder(writer.DIM))
    with gm:
        assert gm.recall(NS, writer.fact(0, 1)).hits
        gm.remember(NS, writer.candidates(batches))
    assert _check_store(path) == batches + 1
    add_figure("crash.embedded.sigkills", KILLS)
    record_figure("crash.embedded.kill_phases", phases)
    record_figure("crash.embedded.whole_batches_checked", batches + 1)
