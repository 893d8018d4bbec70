"""The graph on both stores (issue 12): the demo's multi-hop question, with the real
embedding model, returns both Lumen Labs memories in its top 3 with the path explained."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem import GraphMem, Settings
from graphmem.cli.demo import NOW, demo_candidates
from tests.contract.conftest import StoreFactory

QUESTION = "Where does Maya's sister work and what does that company build?"
LUMEN = {
    "Priya Raman started working at Lumen Labs as a data engineer.",
    "Lumen Labs builds wildfire detection software.",
}


@pytest.fixture
def demo(store_factory: StoreFactory, ns: str) -> Iterator[GraphMem]:
    # its own store handle on the test's database (the ``store`` fixture empties ``ns``)
    with GraphMem(Settings(), store=store_factory(), clock=lambda: NOW) as memory:
        memory.remember(ns, demo_candidates())
        yield memory


def test_demo_multi_hop_question_follows_the_relations(demo: GraphMem, ns: str) -> None:
    result = demo.recall(ns, QUESTION, k=5, record_access=False)
    top3 = [h.memory.content for h in result.hits[:3]]
    assert set(top3) >= LUMEN, top3
    assert result.plan == "relational"
    assert result.linked_entities == ("Maya's sister (Priya Raman)",)
    details = [h.explanation.retrievers["graph"].detail or "" for h in result.hits[:3]]
    assert any("Maya —SISTER_OF→ Priya Raman —WORKS_AT→ Lumen Labs" in d for d in details)
    assert all("hop" in d and "weakest link" in d and "question match" in d for d in details)


def test_without_the_relation_the_possessive_links_the_owner(demo: GraphMem, ns: str) -> None:
    """No stored relation named like the noun: "Maya's dentist" links Maya, plan unchanged."""
    result = demo.recall(ns, "Who is Maya's dentist?", k=5, record_access=False)
    assert result.linked_entities == ("Maya",)
    assert result.plan != "relational"
