"""The clear semantic leader comes first (graphmem.retrieval.ranking.lead, docs/updates.md
"At recall"): the cases are the rule's definition, with cosines chosen by hand."""

from graphmem.retrieval.ranking.lead import semantic_lead


def test_a_memory_far_more_similar_than_those_fused_above_it_comes_first() -> None:
    # "What's the name of Lucía's horse?": the horse 0.87, fused third below two at 0.62 / 0.50
    order, lead = semantic_lead(["job", "sister", "horse", "home"],
                                {"job": 0.62, "sister": 0.50, "horse": 0.87, "home": 0.40},
                                depth=10, margin=0.15)
    assert order == ["horse", "job", "sister", "home"]
    assert lead == "horse"


def test_a_lead_under_the_margin_changes_nothing() -> None:
    order, lead = semantic_lead(["a", "b", "c"], {"a": 0.60, "b": 0.70, "c": 0.10},
                                depth=10, margin=0.15)
    assert (order, lead) == (["a", "b", "c"], None)


def test_the_leader_must_lead_every_memory_above_it_not_only_the_first() -> None:
    order, lead = semantic_lead(["a", "b", "c"], {"a": 0.20, "b": 0.70, "c": 0.80},
                                depth=10, margin=0.15)
    assert (order, lead) == (["a", "b", "c"], None)


def test_a_memory_the_semantic_list_lacks_counts_as_least_similar() -> None:
    order, lead = semantic_lead(["bm25-only", "answer"], {"answer": 0.30}, depth=10, margin=0.15)
    assert (order, lead) == (["answer", "bm25-only"], "answer")


def test_nothing_beyond_the_depth_moves_and_a_zero_margin_is_off() -> None:
    cos = {"a": 0.1, "b": 0.2, "c": 0.9}
    assert semantic_lead(["a", "b", "c"], cos, depth=2, margin=0.15) == (["a", "b", "c"], None)
    assert semantic_lead(["a", "b", "c"], cos, depth=10, margin=0.0) == (["a", "b", "c"], None)
    assert semantic_lead(["a", "b", "c"], cos, depth=10, margin=0.15) == (["c", "a", "b"], "c")
