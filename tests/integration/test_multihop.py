"""Multi-hop recall on a written world (issue 12; tests/multihop_world.py): 44 questions
whose answers take 2 or 3 relations ("Where does Alice's sister's manager work, and what
does that company build?"), scored All@5 — every memory of the answer chain in the top 5.

The graph retriever must carry it (All@5 ≥ 0.85), and the same pipeline without it shows
what it adds. Embedded store, the real embedding model (the semantic list competes as it
would for a user).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem import GraphMem, Settings
from graphmem.models import RecallQuery
from tests.multihop_world import memories, questions

NOW = datetime(2025, 4, 1, tzinfo=UTC)
NAMESPACE = "multihop"
WITHOUT_GRAPH = ("semantic", "bm25", "entity", "temporal")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphMem]:
    settings = Settings(data_dir=Path(tmp_path_factory.mktemp("multihop")), neo4j_uri=None)
    with GraphMem(settings, clock=lambda: NOW) as memory:
        memory.remember(NAMESPACE, memories())
        yield memory


def all_at_5(memory: GraphMem, hops: int | None = None, **query: object) -> float:
    asked = [q for q in questions() if hops is None or q.hops == hops]
    found = 0
    for q in asked:
        result = memory.recall(
            NAMESPACE,
            RecallQuery(text=q.text, k=5, record_access=False, **query),  # type: ignore[arg-type]
        )
        found += q.gold <= {h.memory.content for h in result.hits}
    return found / len(asked)


def test_the_world_is_as_described() -> None:
    asked = questions()
    assert len(asked) >= 40
    assert {q.hops for q in asked} == {2, 3}
    contents = {m["content"] for m in memories()}
    assert all(q.gold <= contents for q in asked)  # every gold memory is written


def test_graph_retriever_answers_multi_hop_questions(world: GraphMem) -> None:
    assert all_at_5(world) >= 0.85
    assert all_at_5(world, hops=2) >= 0.9
    assert all_at_5(world, hops=3) >= 0.7


def test_what_the_graph_adds(world: GraphMem) -> None:
    """Without the graph retriever the chains break: the sister's employer and what the
    company builds share no word with the question."""
    full = all_at_5(world)
    without = all_at_5(world, retrievers=WITHOUT_GRAPH)
    assert without <= 0.2
    assert full - without >= 0.6
