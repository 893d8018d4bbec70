"""Contextual keys (graphmem.write.keys, issue 15) and their place in the write path."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.store._bm25 import BM25Index
from graphmem.text import tokenize
from graphmem.write.keys import KeyContext, KeyItem, build_key, build_keys, key_date

MAY_8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
MAY_7 = datetime(2023, 5, 7, 12, 0, tzinfo=UTC)


def test_key_date_has_no_zero_pad() -> None:
    assert key_date(MAY_7) == "7 May 2023"
    assert key_date(datetime(2024, 11, 23, tzinfo=UTC)) == "23 November 2024"


def test_no_context_key_is_the_content() -> None:
    assert build_key("Dana: we went hiking", None) == "Dana: we went hiking"
    assert build_key("Dana: we went hiking", KeyContext()) == "Dana: we went hiking"


def test_key_holds_date_neighbours_and_claim_in_order() -> None:
    context = KeyContext(
        before=("Ari: How was the pottery class?",),
        after=("Ari: Sounds lovely!",),
        observed_at=MAY_8,
    )
    key = build_key("Dana: Amazing, we went yesterday!", context)
    assert key == (
        "[8 May 2023] Ari: How was the pottery class? Dana: Amazing, we went yesterday!"
        " Ari: Sounds lovely!"
    )


def test_event_time_wins_over_observation_date() -> None:
    key = build_key("we went yesterday", KeyContext(observed_at=MAY_8, event_time=MAY_7))
    assert key.startswith("[7 May 2023] ")


def test_speaker_is_prefixed_only_when_the_claim_does_not_start_with_it() -> None:
    assert build_key("likes tea", KeyContext(speaker="Dana")) == "Dana: likes tea"
    assert build_key("Dana likes tea", KeyContext(speaker="Dana")) == "Dana likes tea"


def test_long_neighbour_is_cut_at_a_word() -> None:
    long = "word " * 100
    key = build_key("claim", KeyContext(before=(long,)), max_neighbour_chars=22)
    assert key == "word word word word … claim"


def test_build_keys_takes_neighbours_from_the_same_session_only() -> None:
    items = [
        KeyItem("A: one", "s1", None),
        KeyItem("B: two", "s2", None),
        KeyItem("A: three", "s1", None),
        KeyItem("A: four", "s1", None),
        KeyItem("C: alone", None, None),
    ]
    keys = build_keys(items, before=1, after=1)
    assert keys == [
        "A: one A: three",
        "B: two",
        "A: one A: three A: four",
        "A: three A: four",
        "C: alone",
    ]


def test_build_keys_window_sizes() -> None:
    items = [KeyItem(f"t{i}", "s", None) for i in range(5)]
    assert build_keys(items, before=2, after=0)[4] == "t2 t3 t4"
    assert build_keys(items, before=0, after=0)[2] == "t2"


def test_the_claim_is_repeated_only_beside_neighbours() -> None:
    items = [KeyItem(f"t{i}", "s", None) for i in range(3)] + [KeyItem("alone", None, MAY_8)]
    keys = build_keys(items, before=1, after=1, claim_repeats=3)
    assert keys[0] == "t0 t0 t0 t1"
    assert keys[1] == "t0 t1 t1 t1 t2"
    assert keys[3] == "[8 May 2023] alone"  # a date is no neighbour: the claim once
    assert build_key("claim", KeyContext(), claim_repeats=3) == "claim"


def test_a_repeated_claim_outranks_the_neighbours_that_quote_it() -> None:
    """The reason for the repeat (Settings.key_claim_repeats): BM25 over the keys of
    three turns, the query naming the middle turn's words."""
    items = [
        KeyItem("Ann: how was your weekend", "s", None),
        KeyItem("Ben: we went kayaking on the lake", "s", None),
        KeyItem("Ann: sounds lovely", "s", None),
    ]
    query = tokenize("kayaking on the lake")
    for repeats, expected_top in ((1, None), (3, 1)):
        keys = build_keys(items, before=1, after=1, claim_repeats=repeats)
        index = BM25Index([tokenize(k) for k in keys], k1=1.2, b=0.75)
        rows, scores = index.matches(query)
        best = [int(r) for r, s in zip(rows, scores, strict=True) if s == scores.max()]
        if expected_top is None:  # once: a neighbour's key scores at least as high
            assert best != [1]
        else:
            assert best == [expected_top]


def test_claim_repeats_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="claim_repeats"):
        build_key("claim", KeyContext(before=("x",)), claim_repeats=0)
