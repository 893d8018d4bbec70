"""The namespace's user narrows nothing (docs/spec.md §9.14, docs/updates.md "At
recall"): a question that links only them is neither entity-centric nor exploratory;
and the attribute rule leaves multi-valued attributes to relevance."""

from __future__ import annotations

from graphmem import Settings
from graphmem.entities import EntityLink
from graphmem.retrieval.planning.planner import choose_plan
from graphmem.retrieval.ranking.attribute_rank import attribute_window
from graphmem.store import TermStats

STATS = TermStats(n_docs=20, df={"truck": 2, "driving": 3})


def test_a_question_about_the_user_alone_is_hybrid() -> None:
    user = EntityLink("u", "I", 0.95, is_user=True)
    plan = choose_plan("Which truck am I driving now?", (user,), None, STATS, Settings(), k=10)
    assert plan.name == "hybrid"
    assert plan.weights["entity"] == Settings().read.fusion.retriever_weights["entity"]


def test_the_same_link_to_someone_else_is_entity_centric() -> None:
    other = EntityLink("m", "Marek", 0.95)
    plan = choose_plan("Which truck is Marek driving now?", (other,), None, STATS, Settings(), k=10)
    assert plan.name == "entity-centric"


def test_the_attribute_rule_leaves_multi_valued_attributes_to_relevance() -> None:
    settings = Settings()
    assert attribute_window("What pets does Melanie have?", settings) == 0
    assert attribute_window("What are Caroline's hobbies?", settings) == 0
    assert (
        attribute_window("Where does Melanie live now?", settings)
        == settings.read.rescoring.attribute_window
    )
