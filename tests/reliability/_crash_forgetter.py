"""The process test_forget_faults.py kills in the middle of a forget: it forgets an
entity of an embedded store and, inside the forget's transaction — relations deleted,
memories deleted and rewritten, nothing committed — prints ``mid-forget`` (flushed)
and waits to be killed.

    python -m tests.reliability._crash_forgetter STORE_DIR NAMESPACE ENTITY
"""

from __future__ import annotations

import sqlite3
import sys
import time

from graphmem import GraphMem, Settings
from graphmem.store.embedded import EmbeddedStore
from graphmem.store.embedded import _forget as _embedded_forget
from graphmem.store.records import WriteBatch
from tests.fakes import HashEmbedder

_apply_batch = _embedded_forget.apply_batch


def _stalling_apply(conn: sqlite3.Connection, ns: str, batch: WriteBatch, *, query: str) -> None:
    _apply_batch(conn, ns, batch, query=query)
    print("mid-forget", flush=True)
    time.sleep(60)  # killed here


def main(path: str, namespace: str, entity: str) -> None:
    settings = Settings()
    store = EmbeddedStore(
        path, dim=384, bm25_k1=settings.read.fusion.bm25_k1, bm25_b=settings.read.fusion.bm25_b
    )
    _embedded_forget.apply_batch = _stalling_apply  # type: ignore[assignment]
    with GraphMem(settings, store=store, embedder=HashEmbedder()) as gm:
        gm.forget_entity(namespace, entity)
    print("finished", flush=True)  # never reached: the test kills it first


if __name__ == "__main__":
    main(*sys.argv[1:4])
