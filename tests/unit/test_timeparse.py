"""Time expressions against a fixed reference time (SPEC §3 temporal retriever, planner)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.language.timeparse import parse_time_window

REF = datetime(2023, 10, 20, 15, 30, tzinfo=UTC)  # a Friday


def d(y: int, m: int, day: int) -> datetime:
    return datetime(y, m, day, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "start", "end", "precision"),
    [
        ("What did she do on 8 May, 2023?", d(2023, 5, 8), d(2023, 5, 9), "exact"),
        ("on May 8th, 2023", d(2023, 5, 8), d(2023, 5, 9), "exact"),
        ("the 2023-07-14 meeting", d(2023, 7, 14), d(2023, 7, 15), "exact"),
        ("What happened in June 2023?", d(2023, 6, 1), d(2023, 7, 1), "exact"),
        ("December, 2022 trip", d(2022, 12, 1), d(2023, 1, 1), "exact"),
        ("What did she do in Sept 2023?", d(2023, 9, 1), d(2023, 10, 1), "exact"),
        ("on Sept 3rd, 2023", d(2023, 9, 3), d(2023, 9, 4), "exact"),
        ("last Sept", d(2023, 9, 1), d(2023, 10, 1), "relative"),
        ("What did they do in 2022?", d(2022, 1, 1), d(2023, 1, 1), "exact"),
        ("last May", d(2023, 5, 1), d(2023, 6, 1), "relative"),
        ("last November", d(2022, 11, 1), d(2022, 12, 1), "relative"),
        ("in March", d(2023, 3, 1), d(2023, 4, 1), "exact"),
        ("yesterday", d(2023, 10, 19), d(2023, 10, 20), "relative"),
        ("last week", d(2023, 10, 6), d(2023, 10, 20), "relative"),
        ("last month", d(2023, 9, 1), d(2023, 10, 1), "relative"),
        ("last year", d(2022, 1, 1), d(2023, 1, 1), "relative"),
        ("last summer", d(2023, 6, 1), d(2023, 9, 1), "relative"),
    ],
)
def test_windows(text: str, start: datetime, end: datetime, precision: str) -> None:
    window = parse_time_window(text, REF)
    assert window is not None
    assert (window.start, window.end, window.precision) == (start, end, precision)


def test_ago_is_centred_on_the_point() -> None:
    window = parse_time_window("two weeks ago", REF)
    assert window is not None and window.precision == "relative"
    assert window.center == REF - timedelta(days=14)
    assert window.end - window.start == timedelta(days=7)


def test_the_present_is_no_window() -> None:
    # "these days" / "nowadays" ask for the current state, not the last 30 days
    # (docs/updates.md): a window would rank whatever was said lately first
    assert parse_time_window("What's my role in the kitchen these days?", REF) is None
    assert parse_time_window("Where does she work nowadays?", REF) is None


def test_vague_and_none() -> None:
    vague = parse_time_window("what has he been up to recently", REF)
    assert vague is not None and vague.precision == "vague"
    assert (vague.start, vague.end) == (REF - timedelta(days=30), REF)
    assert parse_time_window("May I ask what she likes?", REF) is None
    assert parse_time_window("When did Caroline go to the support group?", REF) is None


def test_naive_reference_is_rejected() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_time_window("yesterday", datetime(2023, 1, 1))


def test_memory_event_time_from_its_own_words() -> None:
    from graphmem.write.scores import derived_event_time

    said = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert derived_event_time("I went to a support group yesterday", said) == d(
        2023, 5, 7
    ) + timedelta(hours=12)
    assert derived_event_time("We painted a sunrise last year", said) == d(2022, 7, 2) + timedelta(
        hours=12
    )
    assert derived_event_time("I've been busy recently", said) is None
    assert derived_event_time("I love painting", said) is None


def test_a_month_or_weekday_in_a_future_sentence_resolves_forward() -> None:
    from graphmem.write.scores import derived_event_time

    # Friday 15 May 2026, 10:00 (+02:00)
    said = datetime.fromisoformat("2026-05-15T10:00+02:00")
    wedding = parse_time_window("My sister Elena is getting married in June!", said)
    assert wedding is not None and (wedding.start.year, wedding.start.month) == (2026, 6)
    # said in July, the next June is a year on
    later = parse_time_window("Elena is getting married in June", said.replace(month=7))
    assert later is not None and (later.start.year, later.start.month) == (2027, 6)
    # past tense: backward, as before
    past = parse_time_window("Elena got married in June.", said)
    assert past is not None and (past.start.year, past.start.month) == (2025, 6)
    # "flying out on Friday" said on a Friday: the next one, 22 May
    friday = derived_event_time("We are flying out on Friday.", said)
    assert friday is not None and friday.date().isoformat() == "2026-05-22"
    # "last Monday" said on Friday 15 May: 11 May; "started on Monday" (past): 11 May too
    monday = parse_time_window("He was born in Osaka last Monday.", said)
    assert monday is not None and monday.start.date().isoformat() == "2026-05-11"
    started = parse_time_window("I started at Brightline on Monday.", said)
    assert started is not None and started.start.date().isoformat() == "2026-05-11"
    # the tense is the sentence's: "left ... in June" is past though the next one is not
    left = parse_time_window("I left the bank in June! I'm doing design now.", said)
    assert left is not None and (left.start.year, left.start.month) == (2025, 6)
    # a day of the month: "on the 14th" said on the 13th, in a future sentence
    day = parse_time_window("I'm flying to Ibadan on the 14th.", said.replace(day=13))
    assert day is not None and day.start.date().isoformat() == "2026-05-14"


def test_a_weekday_in_the_plural_is_a_habit_not_a_day() -> None:
    ref = datetime(2026, 3, 2, 12, tzinfo=UTC)
    assert parse_time_window("Does Peggy still play bridge on Wednesdays?", ref) is None
    assert parse_time_window("Am I free on Tuesday evenings?", ref) is None
    one = parse_time_window("What did I do on Tuesday?", ref)
    assert one is not None and one.start == datetime(2026, 2, 24, tzinfo=UTC)


def test_a_month_that_has_barely_begun_is_last_years_in_the_past_tense() -> None:
    early = datetime(2026, 3, 2, 12, tzinfo=UTC)
    window = parse_time_window("How did my sim check in March go?", early)
    assert window is not None and window.start == datetime(2025, 3, 1, tzinfo=UTC)
    later = datetime(2026, 3, 14, 12, tzinfo=UTC)
    window = parse_time_window("Which book did the book club do in March?", later)
    assert window is not None and window.start == datetime(2026, 3, 1, tzinfo=UTC)
    future = parse_time_window("Is she getting married in March?", early)
    assert future is not None and future.start == datetime(2026, 3, 1, tzinfo=UTC)


def test_a_month_naming_a_noun_is_that_month() -> None:
    # "the September match", "her April presentation": the most recent such month
    window = parse_time_window("How many goals did I score in the September match?", REF)
    assert window is not None and (window.start, window.end) == (d(2023, 9, 1), d(2023, 10, 1))
    window = parse_time_window("How did the user's April presentation go?", REF)
    assert window is not None and window.start == d(2023, 4, 1)
    future = parse_time_window("Will she fly out for the December wedding?", REF)
    assert future is not None and future.start == d(2023, 12, 1)
    # "may" the verb, and a month before "of" or a day number, are not this rule's
    assert parse_time_window("May I bring the cake?", REF) is None
    assert parse_time_window("the May of her first year", REF) is None


def test_last_winter_is_the_one_that_ended_most_recently() -> None:
    # asked in July, "last winter" was the winter before last (December two years back)
    july = datetime(2026, 7, 5, tzinfo=UTC)
    window = parse_time_window("What did I do last winter?", july)
    assert window is not None and (window.start, window.end) == (
        datetime(2025, 12, 1, tzinfo=UTC),
        datetime(2026, 3, 1, tzinfo=UTC),
    )
    # in January the current winter is under way: last winter is the one before it
    window = parse_time_window("What did I do last winter?", datetime(2026, 1, 5, tzinfo=UTC))
    assert window is not None and window.start == datetime(2024, 12, 1, tzinfo=UTC)
    # in December "this winter" has just begun (it was last December's)
    window = parse_time_window("Is this winter cold?", datetime(2025, 12, 20, tzinfo=UTC))
    assert window is not None and window.start == datetime(2025, 12, 1, tzinfo=UTC)
    window = parse_time_window("We fly to Osaka next summer.", july)
    assert window is not None and window.start == datetime(2027, 6, 1, tzinfo=UTC)
    # a season with its year is that year's (the year's window, as before)
    window = parse_time_window("What state did Joanna visit in summer 2021?", july)
    assert window is not None and window.expression == "2021"


def test_a_holiday_is_its_day_of_the_year() -> None:
    """"on Christmas Day" asked in February is last 25 December; "for New Year's Eve"
    in a sentence about the future is the next 31 December; "Christmas" alone spans
    the eve to Boxing Day."""
    ref = datetime(2026, 2, 15, 11, tzinfo=UTC)
    past = parse_time_window("Where did Margaret swim on Christmas Day?", ref)
    assert past is not None
    assert (past.start, past.end) == (datetime(2025, 12, 25, tzinfo=UTC), datetime(2025, 12, 26, tzinfo=UTC))
    ahead = parse_time_window("What are we going to do for New Year's Eve?", ref)
    assert ahead is not None and ahead.start == datetime(2026, 12, 31, tzinfo=UTC)
    spread = parse_time_window("She went in on Christmas morning.", ref)
    assert spread is not None
    assert (spread.start, spread.end) == (datetime(2025, 12, 24, tzinfo=UTC), datetime(2025, 12, 27, tzinfo=UTC))
