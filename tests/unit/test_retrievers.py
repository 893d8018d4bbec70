"""Entity retriever ranking: how directly a memory concerns the linked entities."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from graphmem.entities import EntityLink
from graphmem.retrieval.retrievers import EntityRetriever, RetrievalContext
from graphmem.retrieval.retrievers.entity import directness
from graphmem.settings import Settings
from graphmem.store.base import EntityHit, MemoryStore, Vector


class _EntityStore:
    """Answers entity_search from fixed rows, in the store's order (count, cosine, id)."""

    def __init__(self, rows: list[EntityHit]) -> None:
        self.rows = rows
        self.asked_k = 0

    def entity_search(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[EntityHit]:
        self.asked_k = k
        ordered = sorted(self.rows, key=lambda r: (-len(r.entity_ids), -r.similarity, r.memory_id))
        return ordered[:k]


def _ctx(links: tuple[EntityLink, ...], k: int = 10, **settings: Any) -> RetrievalContext:
    return RetrievalContext(
        namespace="ns",
        text="What did Caroline study?",
        embedding=np.zeros(8, dtype=np.float32),
        links=links,
        window=None,
        k=k,
        include_history=False,
        settings=Settings(neo4j_uri=None, **settings),
    )


CAROLINE = EntityLink("caroline", "Caroline", 1.0)


def test_directness_counts_subject_fully_and_mentions_partly() -> None:
    hit = EntityHit("m", ("a", "b"), ("subject", "mention"), 0.0)
    assert directness(hit, 0.5) == 1.5
    assert directness(EntityHit("m", ("a",), ("object",), 0.0), 0.25) == 1.0
    assert directness(EntityHit("m", ("a",), ("mention",), 0.0), 0.0) == 0.0


def test_subject_memories_rank_above_mere_mentions() -> None:
    store = _EntityStore(
        [
            EntityHit("by-other", ("caroline",), ("mention",), 0.6),
            EntityHit("by-caroline", ("caroline",), ("subject",), 0.4),
            EntityHit("by-caroline-2", ("caroline",), ("subject",), 0.2),
        ]
    )
    hits = EntityRetriever().retrieve(cast(MemoryStore, store), _ctx((CAROLINE,)))
    assert [h.memory_id for h in hits] == ["by-caroline", "by-caroline-2", "by-other"]
    assert hits[0].score == 1.0 + 0.4
    assert hits[2].score == 0.5 + 0.6
    assert hits[0].detail == "subject Caroline"


def test_mention_weight_one_is_the_plain_count_then_cosine() -> None:
    store = _EntityStore(
        [
            EntityHit("a", ("caroline",), ("mention",), 0.9),
            EntityHit("b", ("caroline",), ("subject",), 0.4),
        ]
    )
    hits = EntityRetriever().retrieve(
        cast(MemoryStore, store), _ctx((CAROLINE,), entity_mention_weight=1.0)
    )
    assert [h.memory_id for h in hits] == ["a", "b"]


def test_pool_is_wider_than_k_and_result_is_k() -> None:
    # the store returns the 8 mentions first (higher cosine); k * 4 = 12 reaches the subject
    rows = [EntityHit(f"m{i:02d}", ("caroline",), ("mention",), 0.9 - i / 100) for i in range(8)]
    rows.append(EntityHit("low-subject", ("caroline",), ("subject",), 0.5))
    store = _EntityStore(rows)
    hits = EntityRetriever().retrieve(cast(MemoryStore, store), _ctx((CAROLINE,), k=3))
    assert store.asked_k == 12
    assert [h.memory_id for h in hits] == ["low-subject", "m00", "m01"]


def test_no_links_no_hits() -> None:
    store = _EntityStore([EntityHit("a", ("caroline",), ("subject",), 0.9)])
    assert EntityRetriever().retrieve(cast(MemoryStore, store), _ctx(())) == []
