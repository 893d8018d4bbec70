"""The concept walk's seed memories (setting ``graph_concept_seed_source``): by default
the semantic list as the recall ranks it (name-masked cosine), the relation walk run
beside the other retrievers and the concept walk after that list."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from graphmem.models import RecallQuery
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.retrieval.retrievers.graph import GraphRetriever, RelationWalk

NOW = datetime(2025, 1, 1, tzinfo=UTC)
TOPICS = ["pottery", "kayaking", "chess", "gardening", "astronomy", "baking"]


def _memory(**overrides: Any) -> GraphMem:
    settings = Settings(
        data_dir=Path(tempfile.mkdtemp()),
        neo4j_uri=None,
        graph_concept_min_memories=10,
        graph_concept_max_df=0.6,
        **overrides,
    )
    memory = GraphMem(settings, clock=lambda: NOW)
    memory.__enter__()
    memory.remember(
        "c",
        [
            {
                "content": f"Caroline: we talked about {TOPICS[i % 6]} and the "
                f"{TOPICS[(i + 1) % 6]} club on day {i}.",
                "type": "Event",
                "entities": [{"name": "Caroline", "kind": "Person"}],
            }
            for i in range(36)
        ],
    )
    return memory


def _seeds_seen(
    memory: GraphMem, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Sequence[str] | None], dict[str, list[Hit]]]:
    seen: list[Sequence[str] | None] = []
    real = GraphRetriever.with_concepts

    def spy(
        self: GraphRetriever,
        store: Any,
        ctx: RetrievalContext,
        walk: RelationWalk,
        seeds: Sequence[str] | None,
    ) -> list[Hit]:
        seen.append(None if seeds is None else list(seeds))
        return real(self, store, ctx, walk, seeds)

    monkeypatch.setattr(GraphRetriever, "with_concepts", spy)
    reader = memory.recall_pipeline
    timings: dict[str, float] = {}
    query = RecallQuery(text="What did Caroline say about the pottery club?", record_access=False)
    ctx, _, _ = reader.prepare("c", query, timings)
    hits = reader.retrieve(ctx, ["semantic", "bm25", "graph"], timings)
    assert "retriever.graph" in timings
    return seen, hits


def test_the_concept_walk_is_seeded_by_the_semantic_list_as_ranked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory = _memory()
    try:
        seen, hits = _seeds_seen(memory, monkeypatch)
    finally:
        memory.__exit__(None, None, None)
    assert seen == [[h.memory_id for h in hits["semantic"]]]
    assert list(hits) == ["semantic", "bm25", "graph"]  # the order asked for
    assert any("concept walk" in (h.detail or "") for h in hits["graph"])


def test_nearest_seeds_the_walk_by_raw_cosine_in_one_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory = _memory(graph_concept_seed_source="nearest")
    try:
        seen, hits = _seeds_seen(memory, monkeypatch)
    finally:
        memory.__exit__(None, None, None)
    assert seen == [None]
    assert any("concept walk" in (h.detail or "") for h in hits["graph"])


def test_explicit_seeds_steer_the_walk() -> None:
    """with_concepts walks from the seeds it is given (those in the index), not from a
    vector search of its own."""
    memory = _memory()
    try:
        store = memory.store
        reader = memory.recall_pipeline
        query = RecallQuery(text="What about the club?", record_access=False)
        ctx, _, _ = reader.prepare("c", query, {})
        retriever = GraphRetriever()
        walk = retriever.relation_walk(store, ctx)
        ids = [m.id for m in store.get_memories("c", _all_ids(memory))]
        chess = [m.id for m in store.get_memories("c", ids) if "about chess" in m.content]
        baking = [m.id for m in store.get_memories("c", ids) if "about baking" in m.content]
        by_chess = retriever.with_concepts(store, ctx, walk, chess)
        by_baking = retriever.with_concepts(store, ctx, walk, baking)
    finally:
        memory.__exit__(None, None, None)
    assert [h.memory_id for h in by_chess[:3]] != [h.memory_id for h in by_baking[:3]]
    assert set(chess[:5]) & {h.memory_id for h in by_chess[:5]}
    assert set(baking[:5]) & {h.memory_id for h in by_baking[:5]}


def _all_ids(memory: GraphMem) -> list[str]:
    from graphmem.store.base import memory_pages

    return [m.id for page in memory_pages(memory.store, "c", 100) for m in page]
