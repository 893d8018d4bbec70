"""Session support (graphmem.retrieval.rescoring.support): who lends, who gains, how much."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.retrieval.rescoring.support import session_support

SCORES = {"a": 0.30, "b": 0.20, "c": 0.10, "d": 0.05, "e": 0.01}
SESSIONS = {"a": ["s1"], "b": ["s1", "s2"], "c": ["s2"], "d": ["s3"], "e": ["s1"]}


def test_a_memory_gains_its_sessions_mass_among_the_best_fused() -> None:
    got = session_support(SCORES, SESSIONS, weight=0.2, depth=4)
    assert got["a"] == pytest.approx(0.2 * (0.30 + 0.20))  # s1's lenders: a, b
    assert got["b"] == pytest.approx(0.2 * (0.30 + 0.20 + 0.10))  # s1 and s2: a, b, c once
    assert got["c"] == pytest.approx(0.2 * (0.20 + 0.10))
    assert got["d"] == pytest.approx(0.2 * 0.05)
    assert got["e"] == pytest.approx(got["a"])  # not a lender, same session: same gain


def test_only_the_top_depth_lend_support() -> None:
    got = session_support(SCORES, SESSIONS, weight=0.2, depth=1)
    assert got == {
        "a": pytest.approx(0.06),
        "b": pytest.approx(0.06),
        "e": pytest.approx(0.06),
    }


def test_one_session_keeps_the_order() -> None:
    scores = {"x": 0.5, "y": 0.4, "z": 0.1}
    got = session_support(scores, dict.fromkeys(scores, ("s",)), weight=0.3, depth=2)
    lifted = {m: scores[m] + got[m] for m in scores}
    assert sorted(lifted, key=lifted.__getitem__, reverse=True) == ["x", "y", "z"]
    assert len(set(got.values())) == 1


def test_off_and_unknown_sessions_give_nothing() -> None:
    assert session_support(SCORES, SESSIONS, weight=0.0, depth=10) == {}
    assert session_support(SCORES, {}, weight=0.5, depth=10) == {}
    assert session_support({}, SESSIONS, weight=0.5, depth=10) == {}


@given(
    st.dictionaries(st.sampled_from("abcdefgh"), st.floats(0.0, 1.0), max_size=8),
    st.dictionaries(
        st.sampled_from("abcdefgh"), st.lists(st.sampled_from(["s1", "s2", "s3"]), max_size=2)
    ),
    st.floats(0.0, 1.0),
    st.integers(1, 10),
)
def test_support_is_bounded_by_the_lenders_total(
    scores: dict[str, float], sessions: dict[str, list[str]], weight: float, depth: int
) -> None:
    got = session_support(scores, sessions, weight=weight, depth=depth)
    lenders = sorted(scores, key=lambda m: (-scores[m], m))[:depth]
    total = sum(scores[m] for m in lenders)
    assert set(got) <= set(scores)
    for value in got.values():
        assert 0.0 < value <= weight * total * (1 + 1e-9)


def test_above_chance_a_session_lends_only_its_excess_over_its_share() -> None:
    # depth 4: lenders a, b, c, d, mass 0.65; candidates per session: s1 3, s2 2, s3 1 of 5
    # s1 lends 0.30 + 0.20 - 3/5 × 0.65 = 0.11; s2 0.20 + 0.10 - 2/5 × 0.65 = 0.04;
    # s3 0.05 - 1/5 × 0.65 < 0: nothing. A memory in several sessions takes the best.
    # Finite population: 4 lenders of 5 candidates say little, × (5 - 4) / (5 - 1).
    got = session_support(SCORES, SESSIONS, weight=0.2, depth=4, above_chance=True)
    assert got == {
        "a": pytest.approx(0.2 * 0.11 / 4),
        "b": pytest.approx(0.2 * 0.11 / 4),
        "c": pytest.approx(0.2 * 0.04 / 4),
        "e": pytest.approx(0.2 * 0.11 / 4),
    }


def test_above_chance_an_excess_within_the_noise_lends_nothing() -> None:
    # 20 candidates in 4 sessions of 5; the 10 best hold 4 of s1 (2.5 expected by chance,
    # sd sqrt(10 × 0.25 × 0.75 × 10/19) = 0.99), each worth 1: excess 1.5 lenders
    scores = {f"m{i}": (1.0 if i < 10 else 0.5) for i in range(20)}
    sessions = {f"m{i}": [f"s{(i % 4) + 1}"] for i in range(20)}
    for m in ("m4", "m8"):  # two more of the best in s1 (m0 ... m9 held 3 of s1)
        sessions[m] = ["s1"]
    sessions["m5"], sessions["m9"] = ["s2"], ["s2"]
    held = sum(1 for i in range(10) if sessions[f"m{i}"] == ["s1"])
    members = sum(1 for m in sessions.values() if m == ["s1"])
    expected = 10 * members / 20
    sd = (10 * (members / 20) * (1 - members / 20) * 10 / 19) ** 0.5
    finite = 10 / 19
    plain = session_support(scores, sessions, weight=1.0, depth=10, above_chance=True)
    assert plain["m0"] == pytest.approx((held - expected) * finite)
    within = session_support(
        scores,
        sessions,
        weight=1.0,
        depth=10,
        above_chance=True,
        noise=(held - expected) / sd + 0.01,
    )
    assert "m0" not in within
    half = session_support(scores, sessions, weight=1.0, depth=10, above_chance=True, noise=0.5)
    assert half["m0"] == pytest.approx((held - expected - 0.5 * sd) * finite)


def test_above_chance_a_session_holding_everything_lends_nothing() -> None:
    # one person's first conversation holding all candidates is no evidence for any of them
    scores = {"x": 0.5, "y": 0.4, "z": 0.1}
    got = session_support(
        scores, dict.fromkeys(scores, ("s",)), weight=0.3, depth=2, above_chance=True
    )
    assert got == {}
