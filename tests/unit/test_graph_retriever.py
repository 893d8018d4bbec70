"""The graph retriever asks for reached entities in score order and stops at k memories.

A hand-built star: the seed ``hub`` relates to ``a`` (confidence 0.9), ``b`` (0.6) and
``c`` (0.3); with SPEC's hop scores every neighbour is one hop away, so its traversal score
is its edge confidence (seed 001: 1.0 × weakest link).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.entities import EntityLink
from graphmem.models import Relation
from graphmem.retrieval.retrievers.base import RetrievalContext
from graphmem.retrieval.retrievers.graph import GraphRetriever
from graphmem.settings import Settings
from graphmem.store.base import EntityHit

EDGES = {"a": 0.9, "b": 0.6, "c": 0.3}


class StarStore:
    """Relations of the star; ``mentions`` says which memories mention which entity."""

    def __init__(self, mentions: dict[str, list[str]]) -> None:
        self.mentions = mentions
        self.asked: list[list[str]] = []

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        return [
            Relation(
                id=f"r-{target}",
                namespace=namespace,
                source_id="hub",
                target_id=target,
                predicate="RELATED_TO",
                confidence=conf,
                memory_id=f"m-{target}",
            )
            for target, conf in EDGES.items()
        ]

    def entity_search(
        self, namespace: str, entity_ids: Sequence[str], k: int, **_: Any
    ) -> list[EntityHit]:
        self.asked.append(list(entity_ids))
        hits = [
            EntityHit(memory_id=m, entity_ids=(e,), roles=("mention",), similarity=0.0)
            for e in entity_ids
            for m in self.mentions.get(e, [])
        ]
        return hits[:k]


def context(k: int, **overrides: Any) -> RetrievalContext:
    return RetrievalContext(
        namespace="ns",
        text="what about the hub?",
        embedding=np.zeros(4, dtype=np.float32),
        links=(EntityLink(entity_id="hub", surface="hub", confidence=1.0),),
        window=None,
        k=k,
        include_history=False,
        # SPEC §3's scoring alone; the relation walk only (no concept index in this store)
        settings=Settings(graph_traversal="classic", graph_concepts=False, **overrides),
    )


def test_best_entity_alone_fills_k_and_the_later_batches_are_not_used() -> None:
    # the batches (1, then 4) are asked for at once, on the retriever's pool; the first
    # fills k, so nothing of the second is taken (each batch is one query of <= k rows)
    store = StarStore({"a": ["a1", "a2", "a3"], "b": ["b1"], "c": ["c1"]})
    hits = GraphRetriever().retrieve(store, context(k=2))  # type: ignore[arg-type]
    assert ["a"] in store.asked and all(len(batch) <= 4 for batch in store.asked)
    assert [h.memory_id for h in hits] == ["a1", "a2"]
    assert all(abs(h.score - 0.9) < 1e-9 for h in hits)


def test_lower_scored_entities_follow_in_score_order() -> None:
    store = StarStore({"a": ["a1"], "b": ["b1"], "c": ["c1"]})
    hits = GraphRetriever().retrieve(store, context(k=10))  # type: ignore[arg-type]
    assert sorted(store.asked) == [["a"], ["b", "c"]]  # batches of 1, then 4 (two are left)
    assert [(h.memory_id, round(h.score, 6)) for h in hits] == [
        ("a1", 0.9),
        ("b1", 0.6),
        ("c1", 0.3),
    ]


def test_memory_mentioning_two_reached_entities_takes_the_better_score() -> None:
    store = StarStore({"a": [], "b": ["shared"], "c": ["shared", "c1"]})
    hits = GraphRetriever().retrieve(store, context(k=10))  # type: ignore[arg-type]
    assert [(h.memory_id, round(h.score, 6)) for h in hits] == [("shared", 0.6), ("c1", 0.3)]


def test_the_walk_keeps_graph_max_reached_entities() -> None:
    # the cap on reached entities is a setting (read.graph.graph_max_reached): at 2, the
    # weakest neighbour c (0.3) is cut before its memories are asked for
    store = StarStore({"a": ["a1"], "b": ["b1"], "c": ["c1"]})
    hits = GraphRetriever().retrieve(store, context(k=10, graph_max_reached=2))  # type: ignore[arg-type]
    assert [(h.memory_id, round(h.score, 6)) for h in hits] == [("a1", 0.9), ("b1", 0.6)]
    assert all("c" not in batch for batch in store.asked)
