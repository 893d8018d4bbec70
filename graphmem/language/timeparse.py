"""Time expressions → time windows (docs/spec.md §3 temporal retriever and planner).

``parse_time_window("what did she do last May?", reference)`` finds the time
expression in the text and returns the window it denotes relative to
``reference`` (the query's "now", or a memory's observation time), with its
precision class for the planner: ``exact`` (1.0: a date, a month or a year
named), ``relative`` (0.7: "last week", "two weeks ago", "yesterday"),
``vague`` (0.3: "recently"). Absolute dates are parsed with ``dateparser``;
the expressions around them are matched here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from graphmem.language.vocabulary import MONTHS, NUMBER_WORDS, WEEKDAYS

Precision = Literal["exact", "relative", "vague"]

_MONTHS = MONTHS  # "sept" included: _MONTH_RE matches it
_MONTH_RE = (
    r"(january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)"
)
# "one".."ten" and the vague amounts _AGO matches ("a few", "a couple of", "several").
_NUMBER_WORDS = {
    **{word: value for word, value in NUMBER_WORDS.items() if 1 <= value <= 10},
    "a": 1, "an": 1, "few": 3, "couple of": 2, "several": 3,
}  # fmt: skip
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_SEASONS = {
    "spring": (3, 5),
    "summer": (6, 8),
    "fall": (9, 11),
    "autumn": (9, 11),
    "winter": (12, 2),
}

_DAY_DATE = re.compile(
    rf"\b(\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH_RE},?\s+\d{{4}}|{_MONTH_RE}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})\b",
    re.I,
)
_MONTH_YEAR = re.compile(rf"\b{_MONTH_RE},?\s+(\d{{4}})\b", re.I)
_YEAR = re.compile(
    r"\b(?:in|during|of|since|from|by)\s+((?:19|20)\d{2})\b|\b((?:19|20)\d{2})\b", re.I
)
_LAST_MONTH_NAME = re.compile(
    rf"\b(last|this|next|in|during|past|for|by|until|since|early|late|mid)\s+(?:early\s+|late\s+)?{_MONTH_RE}\b(?!\s+\d)",
    re.I,
)
# a month naming a noun: "the September match", "her April presentation" (capitalised,
# so that "may" the verb is no month; a number after it is a date, read above)
_MONTH_MODIFIER = re.compile(
    r"\b(the|my|his|her|our|their|your|['’]s)\s+(January|February|March|April|May|June|July|"
    r"August|September|October|November|December)(?=\s+(?!of\b)[a-z])"
)
_WEEKDAY_RE = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
_WEEKDAY = re.compile(
    rf"\b(last|this|next|on|coming|this\s+coming|by|until)\s+{_WEEKDAY_RE}\b", re.I
)
# what makes "on Thursday(s)" a habit: the plural, or a plural part of the day
_HABIT = re.compile(r"s\b|\s+(?:mornings|afternoons|evenings|nights)\b", re.I)
_DAY_OF_MONTH = re.compile(r"\b(on|by|until|from)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I)
_FUTURE = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|plan(?:s|ning|ned)?\s+to|about\s+to|next|upcoming"
    r"|soon|tomorrow|let['’]?s|can['’]t\s+wait|looking\s+forward|hope\s+to|want\s+to"
    r"|(?:am|is|are)\s+(?:i\s+|you\s+|we\s+|they\s+|he\s+|she\s+|\w+ly\s+)?\w+ing)\b"
    r"|\w['’](?:ll|m\s+\w+ing|re\s+\w+ing|s\s+\w+ing)\b",
    re.I,
)
_PAST = re.compile(r"\b(?:was|were|did|had|ago|yesterday|last|used\s+to)\b", re.I)


def is_future(text: str) -> bool:
    """Whether ``text`` speaks of the future: "will", "'ll", "going to", "plan to",
    "let's", "next", or a present progressive ("is getting married in June", "I'm
    flying out on Friday"), and no past marker ("was", "did", "ago", "last", ...).

    A month, weekday or day of the month without a year resolves forward from the
    reference in such a text, backward otherwise (:func:`parse_time_window`)."""
    return _FUTURE.search(text) is not None and _PAST.search(text) is None


_SENTENCE_END = re.compile(r"[.!?;]+(?:\s+|$)")


def _sentence_of(text: str, match: re.Match[str]) -> str:
    """The sentence of ``text`` the match is in (its tense decides the direction)."""
    start = 0
    for end in _SENTENCE_END.finditer(text):
        if end.end() > match.start():
            return text[start : end.end()]
        start = end.end()
    return text[start:]


_AGO = re.compile(
    r"\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|several)\s+"
    r"(day|week|month|year)s?\s+(ago|before|earlier)\b",
    re.I,
)
# not "in the summer": which months a season is depends on the hemisphere (a user in
# Taupō means December), and a wrong window outranks the answer (user-path tune half)
_SEASON = re.compile(
    r"\b(last|this|past|next)\s+(spring|summer|fall|autumn|winter)\b(?!,?\s*(?:of\s+)?\d{4})",
    re.I,
)
_SIMPLE = re.compile(
    r"\b(yesterday|today|tonight|last night|this morning|last weekend|this weekend|"
    r"the week before|the previous week|last week|this week|past week|next week|"
    r"last month|this month|past month|the month before|last year|this year|past year|the year before)\b",
    re.I,
)
# "these days" and "nowadays" ask for the present state ("What's my job these days?"),
# not for what happened in the last weeks: no window (docs/updates.md).
_VAGUE = re.compile(r"\b(recently|lately|the other day|a while ago)\b", re.I)


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """A half-open window ``[start, end)`` with the matched text and its precision."""

    start: datetime
    end: datetime
    precision: Precision
    expression: str

    @property
    def center(self) -> datetime:
        """Midpoint of the window (used as a derived event time)."""
        return self.start + (self.end - self.start) / 2


def _day(ref: datetime) -> datetime:
    return ref.replace(hour=0, minute=0, second=0, microsecond=0)


#: A month named bare in the past tense is last year's while the current one has run
#: this many days or fewer.
_BARELY_BEGUN_DAYS = 7


def _month_window(year: int, month: int, tz: object) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=tz)  # type: ignore[arg-type]
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=tz)  # type: ignore[arg-type]
    return start, end


def _most_recent_month(month: int, ref: datetime, *, strictly_past: bool) -> int:
    """Year of the most recent ``month`` at or before ``ref``'s month."""
    if month < ref.month or (month == ref.month and not strictly_past):
        return ref.year
    return ref.year - 1


def parse_time_window(text: str, reference: datetime) -> TimeWindow | None:
    """Find the first time expression in ``text`` and resolve it against ``reference``.

    Parameters
    ----------
    text : str
        A query or a memory's content.
    reference : datetime
        Timezone-aware "now" the relative expressions are resolved against.

    Returns
    -------
    TimeWindow or None
        ``None`` when the text names no time.

    Raises
    ------
    ValueError
        When ``reference`` is naive.
    """
    if reference.tzinfo is None:
        raise ValueError("reference must be timezone-aware")
    try:
        return _parse(text, reference)
    except (OverflowError, ValueError):
        return None  # a date no datetime can hold ("12000 years ago", "March 0000")


def _parse(text: str, reference: datetime) -> TimeWindow | None:
    tz = reference.tzinfo
    match = _DAY_DATE.search(text)
    if match:
        import dateparser  # here, not at module import: model-free commands never need it

        parsed = dateparser.parse(
            match.group(1),
            settings={"RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DAY_OF_MONTH": "first"},
        )
        if parsed is not None:
            start = parsed.replace(tzinfo=tz, hour=0, minute=0, second=0, microsecond=0)
            return TimeWindow(start, start + timedelta(days=1), "exact", match.group(0))
    match = _MONTH_YEAR.search(text)
    if match:
        start, end = _month_window(int(match.group(2)), _MONTHS[match.group(1).lower()], tz)
        return TimeWindow(start, end, "exact", match.group(0))
    window = _holiday(text, reference)
    if window is not None:
        return window
    match = _AGO.search(text)
    if match:
        amount_text = match.group(1).lower()
        amount = int(amount_text) if amount_text.isdigit() else _NUMBER_WORDS[amount_text]
        unit = _UNIT_DAYS[match.group(2).lower()]
        point = reference - timedelta(days=amount * unit)
        half = timedelta(days=max(1.0, unit / 2))
        return TimeWindow(point - half, point + half, "relative", match.group(0))
    match = _SIMPLE.search(text)
    if match:
        return _simple(match.group(1).lower(), reference, match.group(0))
    match = _SEASON.search(text)
    if match:
        which, season = match.group(1).lower(), match.group(2).lower()
        first, last = _SEASONS[season]
        year = reference.year if which == "this" else reference.year - 1
        if which == "this" and first > last and reference.month == 12:
            year = reference.year + 1  # this winter ends next year
        elif which == "next":  # the year its last month falls in (winter: December's next)
            year = reference.year + (first > last or reference.month >= first)
        elif which != "this" and reference.month > last:
            year = reference.year  # it ended this year (a winter: in February)
        start = datetime(year if first <= last else year - 1, first, 1, tzinfo=tz)
        _, end = _month_window(year, last, tz)
        return TimeWindow(start, end, "relative", match.group(0))
    match = _LAST_MONTH_NAME.search(text) or _MONTH_MODIFIER.search(text)
    if match:
        return _month_name(match, text, reference)
    window = _weekday_or_day(text, reference)
    if window is not None:
        return window
    match = _YEAR.search(text)
    if match:
        year = int(match.group(1) or match.group(2))
        start = datetime(year, 1, 1, tzinfo=tz)
        return TimeWindow(start, datetime(year + 1, 1, 1, tzinfo=tz), "exact", match.group(0))
    match = _VAGUE.search(text)
    if match:
        return TimeWindow(reference - timedelta(days=30), reference, "vague", match.group(0))
    return None


def _month_name(match: re.Match[str], text: str, reference: datetime) -> TimeWindow:
    """ "in June", "last May", "next March", "the June wedding": the month forward from
    ``reference`` after "next" or in a sentence about the future, else the most recent one."""
    month = _MONTHS[match.group(2).lower()]
    which = match.group(1).lower()
    strictly = which == "last"
    future = is_future(_sentence_of(text, match))
    if which == "next" or (which != "since" and not strictly and future):
        # "is getting married in June", said in May: this June; in July: next June
        later = month < reference.month or (which == "next" and month == reference.month)
        year = reference.year + later
    else:
        # "How did my sim check in March go?", asked on 2 March: this March has barely
        # begun (its first week), so the March meant is last year's
        barely = month == reference.month and reference.day <= _BARELY_BEGUN_DAYS
        year = _most_recent_month(month, reference, strictly_past=strictly or barely)
    start, end = _month_window(year, month, reference.tzinfo)
    return TimeWindow(start, end, "exact" if not strictly else "relative", match.group(0))


def _weekday_or_day(text: str, reference: datetime) -> TimeWindow | None:
    """ "on Friday", "last Monday", "on the 14th": the day, forward from
    ``reference`` in a sentence about the future (or after "next"), else backward."""
    day = _day(reference)
    match = _WEEKDAY.search(text)
    if match and _HABIT.match(text, match.end(2)) and match.group(1).lower() == "on":
        match = None  # "Does Peggy still play bridge on Wednesdays?": a habit, not a day
    if match:
        which = match.group(1).lower()
        weekday = WEEKDAYS[match.group(2).lower()]
        forward = which != "last" and (which != "on" or is_future(_sentence_of(text, match)))
        if forward:
            start = day + timedelta(days=(weekday - reference.isoweekday()) % 7 or 7)
        else:
            start = day - timedelta(days=(reference.isoweekday() - weekday) % 7 or 7)
        return TimeWindow(start, start + timedelta(days=1), "relative", match.group(0))
    match = _DAY_OF_MONTH.search(text)
    if match:
        number = int(match.group(2))
        year, month = reference.year, reference.month
        future = is_future(_sentence_of(text, match))
        if future and number <= reference.day:
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        elif not future and number > reference.day:
            year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        start = datetime(year, month, number, tzinfo=reference.tzinfo)
        return TimeWindow(start, start + timedelta(days=1), "relative", match.group(0))
    return None


# Holidays on a fixed day: (month, day, days long); "Christmas" alone spans the eve to
# Boxing Day
_HOLIDAYS = {
    "christmas day": (12, 25, 1), "christmas eve": (12, 24, 1), "christmas": (12, 24, 3),
    "boxing day": (12, 26, 1), "new year's eve": (12, 31, 1), "new year's day": (1, 1, 1),
    "halloween": (10, 31, 1), "valentine's day": (2, 14, 1), "st patrick's day": (3, 17, 1),
}  # fmt: skip
_HOLIDAY = re.compile(
    r"\b(christmas(?: day| eve)?|boxing day|new year['’]s (?:eve|day)|halloween|"
    r"valentine['’]s day|st\.? patrick['’]s day)\b",
    re.I,
)


def _holiday(text: str, reference: datetime) -> TimeWindow | None:
    """ "on Christmas Day", "at New Year's Eve": that day of the year, the next one in a
    sentence about the future, else the last one on or before ``reference``."""
    match = _HOLIDAY.search(text)
    if match is None:
        return None
    key = match.group(1).lower().replace("’", "'").replace("st. ", "st ")
    month, number, days = _HOLIDAYS[key]
    day = _day(reference)
    start = day.replace(month=month, day=number)
    if is_future(_sentence_of(text, match)):
        if start + timedelta(days=days) <= day:
            start = start.replace(year=start.year + 1)
    elif start > day:
        start = start.replace(year=start.year - 1)
    return TimeWindow(start, start + timedelta(days=days), "relative", match.group(0))


def _simple(phrase: str, ref: datetime, expression: str) -> TimeWindow:
    day = _day(ref)
    one = timedelta(days=1)
    week = timedelta(days=7)
    spans: dict[str, tuple[datetime, datetime]] = {
        "yesterday": (day - one, day),
        "last night": (day - one, day + timedelta(hours=6)),
        "today": (day, day + one),
        "tonight": (day, day + one),
        "this morning": (day, day + one),
        "last weekend": (
            day - timedelta(days=ref.weekday() + 3),
            day - timedelta(days=ref.weekday()),
        ),
        "this weekend": (day - one * 2, day + one * 3),
        "last week": (day - 2 * week, day),
        "the week before": (day - 3 * week, day - week),
        "the previous week": (day - 2 * week, day - week),
        "this week": (day - one * ref.weekday(), day + one),
        "past week": (day - week, day + one),
        "next week": (day, day + 2 * week),
        "the month before": (day - timedelta(days=75), day - timedelta(days=15)),
        "past month": (day - timedelta(days=30), day + one),
        "past year": (day - timedelta(days=365), day + one),
    }
    if phrase in spans:
        start, end = spans[phrase]
        return TimeWindow(start, end, "relative", expression)
    if phrase in ("last month", "this month"):
        year, month = ref.year, ref.month
        if phrase == "last month":
            year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        start, end = _month_window(year, month, ref.tzinfo)
        return TimeWindow(start, end, "relative", expression)
    year = ref.year - (phrase in ("last year", "the year before"))
    start = datetime(year, 1, 1, tzinfo=ref.tzinfo)
    return TimeWindow(start, datetime(year + 1, 1, 1, tzinfo=ref.tzinfo), "relative", expression)
