"""Scoring functions against SPEC.md values and properties (SPEC §2–§4, §9).

Expected numbers are typed from SPEC / the seeds (or worked by hand in the
comments), never computed with the code under test. Constants come from the
shipped ``Settings()`` defaults.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.scoring import (
    access_boost,
    apply_grounding,
    composite_relevance,
    confidence,
    confidence_gate,
    confirmed,
    decayed_salience,
    extractor_confidence,
    final_weight,
    freshness,
    hop_score,
    is_retrievable,
    merged_confidence,
    mmr,
    path_confidence,
    renderable,
    repetition_boost,
    retrievability_threshold,
    salience_on_access,
    source_strength,
    spaced_rep_factor,
    specificity,
    traversal_scores,
    type_prior,
    updated_stability,
    weighted_rrf,
)
from graphmem.scoring.ranking import RankScore, rank_order, rank_score
from graphmem.settings import Settings

S = Settings()
W = S.write.confidence_weights
unit = st.floats(min_value=0.0, max_value=1.0)
days = st.floats(min_value=0.0, max_value=10_000.0)
# SPEC §3's retriever weights (the shipped defaults are calibrated; see settings.py).
SPEC_WEIGHTS = {"semantic": 1.0, "bm25": 1.0, "entity": 1.0, "temporal": 1.0, "graph": 0.8}
SPEC_RRF_K = 60  # SPEC §3; the default is calibrated (Settings.rrf_k)


def extractor(name: str | None, logprobs: list[float] | None = None) -> float:
    return extractor_confidence(
        name,
        logprobs,
        table=S.write.extractor_table,
        unknown=S.write.extractor_unknown,
        verbatim=S.write.extractor_verbatim,
    )


def grounded(conf: float, verdict: str) -> float:
    return apply_grounding(
        conf,
        verdict,
        floor=S.write.grounding_floor,
        partial_penalty=S.write.grounding_penalty_partial,
        unknown_penalty=S.write.grounding_penalty_unknown,
    )


def stability_after(stability: float, days_since: float, boost: float) -> float:
    return updated_stability(
        stability,
        days_since,
        boost=boost,
        interval_days=S.dynamics.spaced_rep_interval_days,
        max_factor=S.dynamics.spaced_rep_max,
    )


# --- SPEC §9.2 r(n) and the worked examples --------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, 0.0),
        (1, 0.4094),
        (2, 0.5235),
        (3, 0.5809),
        (5, 0.6418),
        (10, 0.7057),
        (100, 0.8219),
        (1000, 0.8736),
    ],
)
def test_repetition_boost_matches_spec_9_2(n: int, expected: float) -> None:
    assert repetition_boost(n) == pytest.approx(expected, abs=5e-5)


def test_seed_001_appendix_c_end_to_end() -> None:
    s = source_strength(["direct"], levels=S.write.source_levels, hearsay_cap=S.write.hearsay_cap)
    e = extractor("claude-3-haiku-20240307")
    t, uncertain = type_prior(
        "Preference", priors=S.write.type_priors, uncertain=S.write.type_prior_uncertain
    )
    assert (s, e, t, uncertain) == (0.95, 0.80, 0.75, False)
    conf = confidence(s, 3, e, t, weights=W)
    assert conf == pytest.approx(0.8187, abs=1e-4)

    fresh = freshness(
        90.0, S.read.ranking.half_life_days["Preference"], 0.0, floor=S.read.ranking.freshness_floor
    )
    assert fresh == pytest.approx(0.5, abs=1e-12)
    boost = access_boost(4)
    assert boost == pytest.approx(2.609, abs=5e-4)
    fused = dict(
        weighted_rrf({"semantic": ["x", "y", "m"], "bm25": ["m"]}, SPEC_WEIGHTS, k=SPEC_RRF_K)
    )
    assert fused["m"] == pytest.approx(0.03226, abs=1e-5)
    assert final_weight(fused["m"], fresh, boost) == pytest.approx(0.0421, abs=1e-4)


def test_rank_score_modes_against_seed_001_appendix_c() -> None:
    """SPEC §3's weight (RRF × freshness × access boost) in "weight" mode, and RRF alone
    with both factors as tie-breaks (graphmem's default, §9.12), on App. C's numbers."""
    # App. C: m is 3rd in semantic and 1st in BM25 (k = 60); 90 days at τ = 90; 4 accesses
    rrf, fresh, boost = 1 / 63 + 1 / 61, 0.5, 1 + math.log(5)
    spec = rank_score(rrf, fresh, boost, freshness_mode="weight", access_mode="weight")
    assert spec.weight == pytest.approx(0.0421, abs=1e-4)
    default = rank_score(rrf, fresh, boost, freshness_mode="tiebreak", access_mode="tiebreak")
    assert default.weight == pytest.approx(0.03226, abs=1e-5)
    assert (default.freshness, default.access_boost) == (fresh, boost)
    only_fresh = rank_score(rrf, fresh, boost, freshness_mode="weight", access_mode="tiebreak")
    assert only_fresh.weight == pytest.approx(0.01613, abs=1e-5)
    with pytest.raises(ValueError, match="freshness_mode"):
        rank_score(rrf, fresh, boost, freshness_mode="multiply", access_mode="weight")


def test_rank_order_breaks_ties_by_freshness_boost_confidence_then_id() -> None:
    scores = {
        "e": RankScore(0.02, 0.9, 1.0),
        "d": RankScore(0.03, 0.1, 1.0),
        "c": RankScore(0.02, 0.9, 2.0),
        "b": RankScore(0.02, 0.9, 1.0),
        "a": RankScore(0.02, 0.5, 3.0),
    }
    confidences = {"a": 0.9, "b": 0.7, "c": 0.5, "d": 0.5, "e": 0.8}
    # d: best weight; c: more access boost; e before b: more confident; a: less fresh
    assert rank_order(scores, confidences) == ["d", "c", "e", "b", "a"]
    assert rank_order(scores, confidences | {"e": 0.7}) == ["d", "c", "b", "e", "a"]  # by id


def test_seed_000_spam_ceiling_stays_below_min_confidence() -> None:
    conf = confidence(0.20, 1000, 0.50, 0.50, weights=W)
    assert conf == pytest.approx(0.440, abs=1e-3)
    assert conf < S.read.ranking.min_confidence


def test_seed_001_first_mention_maximum_without_r_term() -> None:
    # 0.45·0.95 + 0.25·0.90 + 0.10·0.90 = 0.4275 + 0.225 + 0.090
    assert confidence(0.95, 0, 0.90, 0.90, weights=W) == pytest.approx(0.7425, abs=1e-9)


def test_seed_003_stability_worked_example() -> None:
    assert stability_after(0.3, 10.0, S.dynamics.stability_direct_boost) == pytest.approx(
        0.443, abs=1e-3
    )
    assert stability_after(0.3, 10.0, S.dynamics.stability_associative_boost) == pytest.approx(
        0.343, abs=1e-3
    )


@pytest.mark.parametrize(
    ("days_since", "expected"), [(0.0, 0.0), (1.0, 0.14), (3.0, 0.43), (7.0, 1.0), (30.0, 2.0)]
)
def test_seed_003_spaced_rep_table(days_since: float, expected: float) -> None:
    factor = spaced_rep_factor(
        days_since,
        interval_days=S.dynamics.spaced_rep_interval_days,
        max_factor=S.dynamics.spaced_rep_max,
    )
    assert factor == pytest.approx(expected, abs=5e-3)


def test_spec_9_5_retrievability_examples() -> None:
    tau = S.read.ranking.half_life_days["Preference"]
    factor = S.dynamics.retrievability_factor
    assert retrievability_threshold(0.85, factor=factor) == pytest.approx(0.225)
    fresh_90 = freshness(90.0, tau, 0.0, floor=S.read.ranking.freshness_floor)
    assert fresh_90 == pytest.approx(0.5)
    assert is_retrievable(fresh_90, 0.85, factor=factor)

    assert retrievability_threshold(0.45, factor=factor) == pytest.approx(0.825)
    fresh_45 = freshness(45.0, tau, 0.0, floor=S.read.ranking.freshness_floor)
    assert fresh_45 == pytest.approx(0.7071, abs=1e-4)  # 2^-0.5
    assert not is_retrievable(fresh_45, 0.45, factor=factor)
    assert retrievability_threshold(0.0, factor=factor) == 1.0


# --- §2 write-time pieces --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("claude-3-5-sonnet-20241022", 0.90),
        ("Claude-3-Opus", 0.90),
        ("gpt-4o", 0.85),
        ("GPT4-turbo", 0.85),
        ("claude-3-haiku", 0.80),
        ("gpt-3.5-turbo", 0.65),
        ("llama-3", 0.65),
        (None, 0.65),
        ("verbatim", 1.0),
    ],
)
def test_extractor_table(name: str | None, expected: float) -> None:
    assert extractor(name) == pytest.approx(expected)


def test_extractor_logprobs_and_precedence() -> None:
    assert extractor("gpt-4o", [-0.1, -0.2]) == pytest.approx(math.exp(-0.15))
    assert extractor(None, [0.0]) == 1.0
    assert extractor("verbatim", [-5.0]) == 1.0  # verbatim has no extraction error (§9.8)
    for bad in ([], [0.1], [float("nan")], [-math.inf]):
        with pytest.raises(ValueError, match="logprobs"):
            extractor("gpt-4o", bad)
    with pytest.raises(ValueError, match="table"):
        extractor_confidence("x", table={"(": 0.5}, unknown=0.65, verbatim=1.0)


def test_source_strength_max_and_hearsay() -> None:
    levels, cap = S.write.source_levels, S.write.hearsay_cap
    assert (
        source_strength(
            ["weak_inference", "confirmed", "confirmed"], levels=levels, hearsay_cap=cap
        )
        == 0.80
    )
    assert source_strength(["direct"], levels=levels, hearsay=True, hearsay_cap=cap) == 0.50
    assert source_strength(["speculation"], levels=levels, hearsay=True, hearsay_cap=cap) == 0.30
    with pytest.raises(ValueError, match="levels_observed"):
        source_strength(["rumour"], levels=levels, hearsay_cap=cap)
    with pytest.raises(ValueError, match="levels_observed"):
        source_strength([], levels=levels, hearsay_cap=cap)


def test_type_prior_known_and_unknown() -> None:
    def prior(name: str | None) -> tuple[float, bool]:
        return type_prior(name, priors=S.write.type_priors, uncertain=S.write.type_prior_uncertain)

    assert prior("Entity") == (0.90, False)
    assert prior("Relation") == (0.70, False)
    assert prior("Opinion") == (0.75, True)
    assert prior(None) == (0.75, True)


def test_grounding() -> None:
    assert grounded(0.8, "supported") == 0.8
    assert grounded(0.8, "partial") == pytest.approx(0.65)
    assert grounded(0.8, "unknown") == pytest.approx(0.70)
    assert grounded(0.35, "unknown") == pytest.approx(0.3)  # floored (§9.3), kept
    assert grounded(0.35, "partial") == pytest.approx(0.3)
    assert grounded(0.25, "partial") == 0.25  # a penalty never raises confidence
    with pytest.raises(ValueError, match="unsupported"):
        grounded(0.9, "unsupported")
    with pytest.raises(ValueError, match="grounding"):
        grounded(0.9, "maybe")


def test_merge_never_lowers_and_confirmation() -> None:
    assert merged_confidence(0.82, 0.60, 0.79) == 0.82
    assert merged_confidence(0.50, 0.60, 0.79) == 0.79
    s, n, conf = confirmed(
        0.50,
        2,
        0.80,
        0.75,
        weights=W,
        confirmation_source=S.write.confirmation_source,
        cap=S.write.confirmation_cap,
    )
    # 0.45·0.80 + 0.20·r(3) + 0.25·0.80 + 0.10·0.75 = 0.36 + 0.11619 + 0.2 + 0.075
    assert (s, n) == (0.80, 3)
    assert conf == pytest.approx(0.7512, abs=1e-4)
    # with weights summing past 1 the raw value exceeds the cap: clamped at 0.99, not 1.0.
    s, n, conf = confirmed(
        0.9, 5, 1.0, 1.0, weights=(0.5, 0.5, 0.5, 0.5), confirmation_source=0.8, cap=0.99
    )
    assert (s, n, conf) == (0.9, 6, 0.99)


@pytest.mark.parametrize(
    "call",
    [
        lambda: repetition_boost(-1),
        lambda: confidence(1.1, 1, 0.5, 0.5, weights=W),
        lambda: confidence(0.5, 1, float("nan"), 0.5, weights=W),
        lambda: confidence(0.5, 1, 0.5, 0.5, weights=(0.5, 0.5, 0.5)),  # type: ignore[arg-type]
        lambda: freshness(float("nan"), 90.0, 0.0, floor=0.1),
        lambda: freshness(1.0, 0.0, 0.0, floor=0.1),
        lambda: freshness(1.0, 90.0, 1.5, floor=0.1),
        lambda: access_boost(-1),
        lambda: final_weight(0.1, 0.5, 0.9),
        lambda: weighted_rrf({"bm25": ["a"]}, {"bm25": -1.0}, k=60),
        lambda: hop_score(0, hop_scores=S.read.graph.hop_scores),
        lambda: path_confidence([]),
        lambda: path_confidence([0.5, 1.2]),
        lambda: traversal_scores(
            [("a", "b", 0.5)], ["a"], max_hops=0, hop_scores=S.read.graph.hop_scores
        ),
        lambda: mmr({"a": -1.0}, {}, k=1, lam=0.7),
        lambda: mmr({"a": 1.0}, {}, k=1, lam=1.5),
        lambda: salience_on_access(1.2, step=0.1),
        lambda: composite_relevance(1.5, 0.5, 0.5, weights=S.read.ranking.composite_weights),
    ],
)
def test_invalid_inputs_raise_value_error(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


# --- §3 read-side pieces ---------------------------------------------------


def test_freshness_floor_clock_skew_and_stability() -> None:
    tau = S.read.ranking.half_life_days["Event"]
    assert freshness(-3.0, tau, 0.0, floor=S.read.ranking.freshness_floor) == 1.0
    assert (
        freshness(3650.0, tau, 0.0, floor=S.read.ranking.freshness_floor)
        == S.read.ranking.freshness_floor
    )
    assert freshness(60.0, tau, 1.0, floor=0.0) == pytest.approx(0.5)  # τ_eff = 2τ


def test_confidence_gate_and_render_gate() -> None:
    gate = S.read.ranking.min_confidence
    assert confidence_gate({"a": 0.9, "b": 0.5, "c": 0.49}, min_confidence=gate) == {"a", "b"}
    assert confidence_gate({"a": 0.3, "b": 0.45}, min_confidence=gate) == {"a", "b"}
    assert confidence_gate({}, min_confidence=gate) == set()
    assert renderable(0.4, render_gate=S.read.ranking.render_gate)
    assert not renderable(0.39, render_gate=S.read.ranking.render_gate)


def test_weighted_rrf_weights_and_ties() -> None:
    # a: 1/61 + 1/62, b: 1/62 + 1/61 -> equal, broken by id.
    fused = weighted_rrf(
        {"semantic": ["b", "a"], "bm25": ["a", "b"]}, {"semantic": 1.0, "bm25": 1.0}, k=60
    )
    assert [i for i, _ in fused] == ["a", "b"]
    assert fused[0][1] == fused[1][1]
    # graph weight 0.8: c at rank 1 of graph = 0.8/61 = 0.013115 < d at rank 1 of bm25 = 1/61.
    fused = weighted_rrf({"graph": ["c"], "bm25": ["d"]}, SPEC_WEIGHTS, k=60)
    assert fused == [("d", pytest.approx(1 / 61)), ("c", pytest.approx(0.8 / 61))]
    # missing or zero weight: no contribution, and no candidate from it.
    assert weighted_rrf({"other": ["e"], "bm25": ["f"]}, {"bm25": 1.0}, k=60) == [
        ("f", pytest.approx(1 / 61))
    ]
    # a duplicate counts once, at its best rank; positions of others are unchanged.
    assert dict(weighted_rrf({"bm25": ["g", "h", "g"]}, {"bm25": 1.0}, k=10)) == {
        "g": pytest.approx(1 / 11),
        "h": pytest.approx(1 / 12),
    }


def test_traversal_hand_built_graph() -> None:
    edges = [("A", "B", 0.9), ("B", "C", 0.5), ("A", "C", 0.4), ("C", "D", 0.8), ("C", "D", 0.2)]
    scores = traversal_scores(edges, ["A"], max_hops=3, hop_scores=S.read.graph.hop_scores)
    # B: 1.0·0.9 (1 hop). C: max(1.0·0.4, 0.6·min(0.9, 0.5) = 0.3) = 0.4 (1 hop).
    # D: max(0.6·min(0.4, 0.8) = 0.24, 0.35·min(0.9, 0.5, 0.8) = 0.175) = 0.24 (2 hops).
    assert scores.keys() == {"B", "C", "D"}
    assert scores["B"] == (pytest.approx(0.9), 1)
    assert scores["C"] == (pytest.approx(0.4), 1)
    assert scores["D"] == (pytest.approx(0.24), 2)
    # max_hops limits the reach; directed edges are followed one way only.
    assert traversal_scores(
        edges, ["A"], max_hops=1, hop_scores=S.read.graph.hop_scores
    ).keys() == {"B", "C"}
    assert (
        traversal_scores(
            edges, ["D"], max_hops=3, hop_scores=S.read.graph.hop_scores, directed=True
        )
        == {}
    )
    # a second seed is excluded, and reaching C from it is better than from A.
    both = traversal_scores(edges, ["A", "B"], max_hops=3, hop_scores=S.read.graph.hop_scores)
    assert both.keys() == {"C", "D"}
    assert both["C"] == (pytest.approx(0.5), 1)


def test_traversal_ties_prefer_fewer_hops() -> None:
    # X-Y 0.6 gives 1.0·0.6; X-Z-Y via 1.0 edges gives 0.6·1.0 at 2 hops: same score.
    edges = [("X", "Y", 0.6), ("X", "Z", 1.0), ("Z", "Y", 1.0)]
    assert traversal_scores(edges, ["X"], max_hops=2, hop_scores=S.read.graph.hop_scores)["Y"] == (
        pytest.approx(0.6),
        1,
    )


def test_hop_score_and_path_confidence() -> None:
    assert [hop_score(h, hop_scores=S.read.graph.hop_scores) for h in (1, 2, 3, 7)] == [
        1.0,
        0.6,
        0.35,
        0.35,
    ]
    assert path_confidence([0.8, 0.8, 0.8]) == 0.8  # min, not 0.512
    assert path_confidence([0.9, 0.3, 0.7]) == 0.3


def test_specificity_weights_and_clipping() -> None:
    ws = S.read.planning.specificity_weights
    # 0.35·0.5 + 0.25·0.7 + 0.25·0.4 + 0.15·1.0 = 0.175 + 0.175 + 0.1 + 0.15
    assert specificity(0.5, 0.7, 0.4, 1.0, weights=ws) == pytest.approx(0.6)
    assert specificity(3.0, 1.0, 1.2, -1.0, weights=ws) == pytest.approx(0.85)


def test_mmr_prefers_diverse_second_item() -> None:
    relevance = {"a": 1.0, "a_dup": 0.95, "b": 0.8}
    embeddings = {
        "a": np.array([1.0, 0.0]),
        "a_dup": np.array([0.999, 0.045]),
        "b": np.array([0.0, 1.0]),
    }
    # a_dup: 0.7·0.95 − 0.3·0.999 ≈ 0.365; b: 0.7·0.8 − 0.3·0 = 0.56.
    assert mmr(relevance, embeddings, k=3, lam=S.read.ranking.mmr_lambda) == ["a", "b", "a_dup"]
    assert mmr(relevance, embeddings, k=3, lam=1.0) == ["a", "a_dup", "b"]
    assert mmr(relevance, embeddings, k=0, lam=0.7) == []


def test_mmr_ties_by_id_and_missing_embeddings() -> None:
    assert mmr({"b": 1.0, "a": 1.0, "c": 1.0}, {}, k=2, lam=0.7) == ["a", "b"]
    assert mmr({"z": 0.0, "y": 0.0}, {"y": np.zeros(3)}, k=5, lam=0.5) == ["y", "z"]
    with pytest.raises(ValueError, match="embeddings"):
        mmr({"a": 1.0, "b": 1.0}, {"a": np.ones(2), "b": np.ones(3)}, k=2, lam=0.7)


# --- §4 dynamics -----------------------------------------------------------


def test_salience_access_decay_and_composite() -> None:
    assert salience_on_access(0.5, step=S.dynamics.salience_access_step) == pytest.approx(0.55)
    # e^(−0.05·(1 − 0.5·0.4)·10) = e^(−0.4) = 0.67032
    decayed = decayed_salience(
        1.0,
        10.0,
        decay_rate=0.05,
        stability=0.4,
        stability_scaling=S.dynamics.salience_stability_scaling,
    )
    assert decayed == pytest.approx(0.67032, abs=1e-5)
    # 0.6·0.8 + 0.2·0.5 + 0.2·0.9 = 0.48 + 0.1 + 0.18
    assert composite_relevance(
        0.8, 0.5, 0.9, weights=S.read.ranking.composite_weights
    ) == pytest.approx(0.76)


# --- properties ------------------------------------------------------------

counts = st.integers(min_value=0, max_value=10**6)


@given(unit, counts, unit, unit, unit, counts, unit, unit)
def test_confidence_bounded_and_monotone(
    s: float, n: int, e: float, t: float, s2: float, n2: int, e2: float, t2: float
) -> None:
    low = confidence(min(s, s2), min(n, n2), min(e, e2), min(t, t2), weights=W)
    high = confidence(max(s, s2), max(n, n2), max(e, e2), max(t, t2), weights=W)
    assert 0.0 <= low <= high <= 1.0
    for varied in (
        confidence(max(s, s2), min(n, n2), min(e, e2), min(t, t2), weights=W),
        confidence(min(s, s2), max(n, n2), min(e, e2), min(t, t2), weights=W),
        confidence(min(s, s2), min(n, n2), max(e, e2), min(t, t2), weights=W),
        confidence(min(s, s2), min(n, n2), min(e, e2), max(t, t2), weights=W),
    ):
        assert low <= varied <= high


@given(counts)
def test_repetition_boost_strictly_increasing_below_one(n: int) -> None:
    assert 0.0 <= repetition_boost(n) < repetition_boost(n + 1) < 1.0


@given(days, days, unit, unit, st.sampled_from(sorted(S.read.ranking.half_life_days.values())))
def test_freshness_bounded_and_monotone(
    age: float, age2: float, stab: float, stab2: float, tau: float
) -> None:
    floor = S.read.ranking.freshness_floor
    young, old = sorted((age, age2))
    weak, strong = sorted((stab, stab2))
    value = freshness(young, tau, weak, floor=floor)
    assert floor <= value <= 1.0
    assert freshness(old, tau, weak, floor=floor) <= value
    assert freshness(young, tau, strong, floor=floor) >= value


@given(
    unit,
    days,
    st.sampled_from(
        [S.dynamics.stability_direct_boost, S.dynamics.stability_associative_boost, 1.0]
    ),
)
def test_stability_stays_in_unit_interval(
    stability: float, days_since: float, boost: float
) -> None:
    assert stability <= stability_after(stability, days_since, boost) <= 1.0


@given(unit, unit, days, unit)
def test_salience_stays_in_unit_interval(
    salience: float, step: float, elapsed: float, stab: float
) -> None:
    raised = salience_on_access(salience, step=step)
    assert salience <= raised <= 1.0
    decayed = decayed_salience(
        raised, elapsed, decay_rate=0.1, stability=stab, stability_scaling=0.5
    )
    assert 0.0 <= decayed <= raised


ids = st.sampled_from([f"m{i}" for i in range(12)])


@given(
    st.dictionaries(
        st.sampled_from(list(S.read.fusion.retriever_weights)),
        st.lists(ids, max_size=10),
        min_size=1,
    ),
    ids,
    st.sampled_from(list(S.read.fusion.retriever_weights)),
    st.integers(min_value=0, max_value=10),
)
def test_rrf_never_decreases_when_added_to_a_ranking(
    rankings: dict[str, list[str]], memory: str, retriever: str, position: int
) -> None:
    before = dict(
        weighted_rrf(rankings, S.read.fusion.retriever_weights, k=S.read.fusion.rrf_k)
    ).get(memory, 0.0)
    extended = dict(rankings)
    current = list(extended.get(retriever, []))
    if memory in current:
        return
    current.insert(min(position, len(current)), memory)
    extended[retriever] = current
    after = dict(
        weighted_rrf(extended, S.read.fusion.retriever_weights, k=S.read.fusion.rrf_k)
    ).get(memory, 0.0)
    assert after >= before
    scores = [
        score
        for _, score in weighted_rrf(
            extended, S.read.fusion.retriever_weights, k=S.read.fusion.rrf_k
        )
    ]
    assert scores == sorted(scores, reverse=True)
