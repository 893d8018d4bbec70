"""BM25 needs a content term (graphmem.retrieval.planning.planner.lexical_evidence)."""

from __future__ import annotations

from graphmem.entities import EntityLink
from graphmem.retrieval.planning.planner import Plan
from graphmem.retrieval.planning.planner import lexical_evidence as _lexical_evidence
from graphmem.store.records import TermStats

PLAN = Plan("entity-centric", {"semantic": 1.0, "bm25": 1.5}, 10, False, False, 0.5)
NIA = (EntityLink("e-nia", "Nia", 1.0),)
# a namespace that says "is", has possessives ("Nia's brother") and "bread", no "hobby"
STATS = TermStats(n_docs=20, df={"nia": 20, "is": 12, "s": 3, "what": 1, "bread": 1, "brother": 1})


def test_function_words_and_a_possessive_are_no_content() -> None:
    # "What is Nia's hobby?": only "hobby" is content and no memory says it; BM25
    # would rank "Ines is Nia's brother" first on "is" and "s"
    plan = _lexical_evidence(PLAN, "What is Nia's hobby?", NIA, STATS)
    assert plan.weights["bm25"] == 0.0
    assert plan.signals["bm25_content_terms"] == 0.0


def test_a_content_term_in_the_namespace_keeps_bm25() -> None:
    plan = _lexical_evidence(PLAN, "Does Nia bake bread?", NIA, STATS)
    assert plan.weights["bm25"] == 1.5
