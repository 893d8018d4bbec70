"""The process that test_crash_embedded.py kills: bulk-writes batches to an embedded
store until it is killed.

    python -m tests.reliability._crash_writer STORE_DIR NAMESPACE

It continues after the last whole batch in the store (the number of sessions),
and prints, flushed, ``begin B`` before ``remember``, ``tx B`` when the store's
write transaction starts and ``done B`` after it returned.

Batch ``b`` (session ``b<b>``) holds BATCH candidates: facts ``(b, i)`` for
``i`` in 0..BATCH-2 — new memories — and, from batch 1 on, fact ``(b - 1, 0)``
again: a merge into the previous batch's memory (n 1 → 2), so a batch both
creates and updates (batch 0 has one more new fact instead). After ``k`` whole
batches the namespace holds ``(BATCH - 1) * k + 1`` memories.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem import GraphMem, Settings
from graphmem.store.base import WriteBatch
from graphmem.store.embedded import EmbeddedStore
from tests.fakes import HashEmbedder

BATCH = 150
DIM = 384
T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
PEOPLE = ("Alice Moreau", "Bob Lindqvist", "Chen Wei", "Dara Okafor", "Emil Sato")


def fact(b: int, i: int) -> str:
    return f"batch{b} item{i} {PEOPLE[(b + i) % len(PEOPLE)]} note{b}x{i} token{b * BATCH + i}"


def candidates(b: int) -> list[dict[str, Any]]:
    session = f"b{b}"
    when = T0 + timedelta(days=b)
    picks = [(b, i) for i in range(BATCH - 1)]
    picks.append((b - 1, 0) if b else (0, BATCH - 1))
    out = []
    for turn, (fb, fi) in enumerate(picks):
        person = PEOPLE[(fb + fi) % len(PEOPLE)]
        out.append(
            {
                "content": fact(fb, fi),
                "extractor": "verbatim",
                "session_id": session,
                "turn_id": f"{session}:{turn}",
                "observed_at": (when + timedelta(seconds=turn)).isoformat(),
                "entities": [{"name": person, "kind": "Person"}],
            }
        )
    return out


class _AnnouncingStore(EmbeddedStore):
    """Prints ``tx B`` as each write transaction starts."""

    batch = -1

    def write(self, namespace: str, batch: WriteBatch) -> None:
        print(f"tx {self.batch}", flush=True)
        super().write(namespace, batch)


def main(path: str, namespace: str) -> None:
    settings = Settings()
    store = _AnnouncingStore(
        path, dim=DIM, bm25_k1=settings.read.fusion.bm25_k1, bm25_b=settings.read.fusion.bm25_b
    )
    gm = GraphMem(settings, store=store, embedder=HashEmbedder(DIM), clock=lambda: T0)
    gm.open()
    b = store.stats(namespace)["sessions"]
    while True:
        print(f"begin {b}", flush=True)
        store.batch = b
        gm.remember(namespace, candidates(b))
        print(f"done {b}", flush=True)
        b += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
