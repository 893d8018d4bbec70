"""Question-guided traversal (issue 12): SPEC §3's hop score × weakest link, times the
product of the edges' question match; paths never enter another query entity."""

from __future__ import annotations

import pytest

from graphmem.language.predicates import predicate_match, role_match
from graphmem.language.words import stem
from graphmem.scoring import PathStep, guided_traversal, traversal_scores

HOPS = (1.0, 0.6, 0.35)  # SPEC §3


def step(a: str, p: str, b: str, conf: float, rel: float = 1.0) -> PathStep:
    return PathStep(a, p, b, conf, rel, f"m-{a}-{b}")


def test_reduces_to_spec_with_every_edge_fully_relevant() -> None:
    edges = [step("maya", "SISTER_OF", "priya", 0.9), step("priya", "WORKS_AT", "lumen", 0.7)]
    guided = guided_traversal(edges, ["maya"], max_hops=3, hop_scores=HOPS)
    classic = traversal_scores(
        [(e.source, e.target, e.confidence) for e in edges], ["maya"], max_hops=3, hop_scores=HOPS
    )
    assert {e: round(r.score, 12) for e, r in guided.items()} == {
        e: round(s, 12) for e, (s, _) in classic.items()
    }
    assert guided["lumen"].score == pytest.approx(0.6 * 0.7)  # 2 hops × weakest link


def test_question_match_multiplies_and_steers() -> None:
    edges = [
        step("maya", "SISTER_OF", "priya", 0.8, rel=1.0),
        step("priya", "WORKS_AT", "lumen", 0.9, rel=1.0),
        step("maya", "OWNS", "biscuit", 0.9, rel=0.2),
    ]
    reached = guided_traversal(edges, ["maya"], max_hops=3, hop_scores=HOPS)
    assert reached["biscuit"].score == pytest.approx(1.0 * 0.9 * 0.2)
    lumen = reached["lumen"]
    assert lumen.score == pytest.approx(0.6 * 0.8 * 1.0 * 1.0)
    assert lumen.score > reached["biscuit"].score  # two matching hops beat one off topic
    assert [s.predicate for s in lumen.steps] == ["SISTER_OF", "WORKS_AT"]
    assert (lumen.hop_score, lumen.path_confidence, lumen.path_relevance) == (0.6, 0.8, 1.0)


def test_walks_both_ways_and_avoids() -> None:
    edges = [step("priya", "SISTER_OF", "maya", 0.8), step("maya", "WORKS_AT", "acme", 0.9)]
    reached = guided_traversal(edges, ["maya"], max_hops=2, hop_scores=HOPS)
    assert reached["priya"].steps[0].forward is False  # walked against the relation
    avoided = guided_traversal(edges, ["priya"], max_hops=2, hop_scores=HOPS, avoid=["maya"])
    assert avoided == {}  # maya is the only way on, and no path enters it


def test_paths_never_pass_through_another_seed() -> None:
    edges = [step("a", "R", "b", 1.0), step("b", "R", "c", 1.0)]
    reached = guided_traversal(edges, ["a", "b"], max_hops=3, hop_scores=HOPS)
    assert reached["c"].steps[0].source == "b"  # one hop from b, not two through b from a


def test_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match="relevance"):
        guided_traversal([step("a", "R", "b", 0.5, rel=1.5)], ["a"], max_hops=1, hop_scores=HOPS)


def test_predicate_match_by_stem() -> None:
    assert stem("works") == stem("working") == stem("work")
    assert stem("lives") == stem("live")
    assert predicate_match("WORKS_AT", {stem("work")}) == 1.0
    assert predicate_match("SISTER_OF", {stem("sister")}) == 1.0
    assert predicate_match("CO_OCCURS_WITH", {stem("occurs")}) == 0.0  # says nothing
    assert predicate_match("LIVES_IN", {stem("work")}) == 0.0


def test_role_match_names_the_relation_of_a_possessive_noun() -> None:
    """ "Dana's sister" walks SISTER_OF; "Marcus's coworker" walks WORK_WITH ("works
    with" is what a co-worker does) or COWORKER_OF, never WORK_AT (the employer)."""
    assert role_match("SISTER_OF", "sister")
    assert role_match("COWORKER_OF", "coworker")
    assert role_match("WORK_WITH", "coworker")
    assert role_match("WORK_WITH", "co-worker")
    assert not role_match("WORK_AT", "coworker")
    assert not role_match("BROTHER_OF", "sister")
    # the ner extractor's vocabulary types role nouns (docs/extraction.md)
    assert role_match("PARENT_OF", "mother")
    assert role_match("MANAGER_OF", "boss")
    assert role_match("MARRIED_TO", "wife")
    assert role_match("OWNS", "cat")
    assert not role_match("PARENT_OF", "sister")
    assert not role_match("CO_OCCURS_WITH", "cousin")
