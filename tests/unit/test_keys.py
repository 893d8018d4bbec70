"""Contextual keys (graphmem.write.keys, issue 15) and their place in the write path."""

from __future__ import annotations

from datetime import UTC, datetime

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
