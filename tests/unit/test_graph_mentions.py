"""The relation walk's mention queries (graphmem.retrieval.retrievers.graph, docs/performance.md
"Recall at scale"): batches of 1, 4, 16, ... reached entities, taken in order until k
memories are found; a batch is asked for only when the ones before it fell short."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.entities import EntityLink
from graphmem.retrieval.retrievers import RetrievalContext
from graphmem.retrieval.retrievers.graph import GraphRetriever
from graphmem.settings import Settings
from graphmem.store.base import EntityHit, Vector


class _MentionStore:
    """entity_search: one memory per entity asked for ("m-<entity>"), at most k; keeps
    each call's entities."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def entity_search(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[EntityHit]:
        self.calls.append(list(entity_ids))
        return [EntityHit(f"m-{e}", (e,), ("mention",), 0.5) for e in entity_ids][:k]


def _context(k: int) -> RetrievalContext:
    return RetrievalContext(
        namespace="n",
        text="Who works with Ada?",
        embedding=np.asarray([1.0, 0.0], dtype=np.float32),
        links=(EntityLink("ada", "Ada", 1.0),),
        window=None,
        k=k,
        include_history=False,
        settings=Settings(neo4j_uri=None),
    )


def test_the_batches_are_taken_in_order_until_k_are_found() -> None:
    store = _MentionStore()
    retriever = GraphRetriever()
    entities = [f"e{i}" for i in range(6)]  # batches e0 | e1-e4 | e5
    rows = retriever._mentions(store, _context(k=50), entities)  # type: ignore[arg-type]
    retriever.close()
    assert [r.memory_id for r in rows] == [f"m-e{i}" for i in range(6)]
    assert store.calls == [["e0"], ["e1", "e2", "e3", "e4"], ["e5"]]


def test_no_batch_is_asked_for_once_k_memories_are_found() -> None:
    store = _MentionStore()
    retriever = GraphRetriever()
    rows = retriever._mentions(store, _context(k=3), [f"e{i}" for i in range(6)])  # type: ignore[arg-type]
    retriever.close()
    # e0 gives 1 memory, e1-e4 give 3 more (cut to k = 3): 4 >= 3, so e5 is never asked for
    assert [r.memory_id for r in rows] == ["m-e0", "m-e1", "m-e2", "m-e3"]
    assert store.calls == [["e0"], ["e1", "e2", "e3", "e4"]]


def test_a_first_batch_that_fills_k_is_the_only_query() -> None:
    store = _MentionStore()
    retriever = GraphRetriever()
    rows = retriever._mentions(store, _context(k=1), [f"e{i}" for i in range(6)])  # type: ignore[arg-type]
    retriever.close()
    assert [r.memory_id for r in rows] == ["m-e0"]
    assert store.calls == [["e0"]]
