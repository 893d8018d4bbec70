"""What a claim says, as the compatibility rule (docs/spec.md §9.10) reads it: the claim
(:class:`Claim`) and its features (:func:`features`): its words, the names it opens with
and carries, negation, dates, numbers, states and sentiment.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from graphmem.language.claim_words import (
    COUNT_WORDS,
    COUNT_WORDS_ALSO_STATES,
    DISLIKES,
    LIKES,
    NEGATION_PHRASES,
    NEGATIONS,
    NOT_NAMES,
    STATE_CANON,
    STATE_WORDS,
)
from graphmem.language.vocabulary import CAPITAL, MONTHS, WEEKDAYS
from graphmem.language.voice import IMPLICIT_USER, is_first_person, possessive_other
from graphmem.language.words import stem

__all__ = [
    "WORD",
    "Claim",
    "ClaimLike",
    "Features",
    "clean",
    "features",
    "named_user",
    "opening_subject",
    "reported_person",
    "reports",
    "user_words",
]


class ClaimLike(Protocol):
    """Anything with a claim's text and optional triple (:class:`~graphmem.models.Memory`,
    :class:`~graphmem.models.MemoryCandidate`)."""

    @property
    def content(self) -> str: ...
    @property
    def subject(self) -> str | None: ...
    @property
    def predicate(self) -> str | None: ...
    @property
    def object(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim as the rule sees it.

    Parameters
    ----------
    content : str
        The claim's text.
    subject, predicate, object : str, optional
        Its triple, when it carries one.
    names : tuple of str
        Named entities given beside the text (a candidate's ``entities``, a stored
        memory's mentioned entities); they count like names found in the text.
    user : str, optional
        The namespace's user (docs/spec.md §9.14): whom a first-person claim ("I live in
        Graz") is about. ``None``: the implicit user, ``"User"``.
    aliases : tuple of (str, str)
        Other names of the ``names``, as (alias, name) pairs: "Moncho works at Los
        Altos" names Ramón Mendoza by the name everyone calls him.
    places : tuple of str
        The ``names`` that are places (entity kind Place): in the user's voice a place
        is where the claim happens, never whom it is about ("Handed the Osaka flat
        back. I'm renting in Fukuoka now.").
    people : tuple of str, optional
        The ``names`` that are people (entity kind Person), when the kinds are known
        (a stored memory read with its namespace's entities); ``None``: unknown.
    """

    content: str
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    names: tuple[str, ...] = ()
    user: str | None = None
    aliases: tuple[tuple[str, str], ...] = ()
    places: tuple[str, ...] = ()
    people: tuple[str, ...] | None = None

    @classmethod
    def of(cls, claim: ClaimLike, names: Iterable[str] = (), user: str | None = None) -> Claim:
        """The claim of a memory or candidate, with extra entity ``names``."""
        return cls(claim.content, claim.subject, claim.predicate, claim.object, tuple(names), user)


def user_words(claim: Claim) -> tuple[str, ...] | None:
    """The user's name as words when ``claim`` opens in the first person, or opens with a
    past-tense verb that is not one of its names: a note without its subject ("Shifted
    to Taupō for the new role.") is the speaker's (docs/spec.md §9.14)."""
    if claim.subject or possessive_other(claim.content) or reported_person(claim):
        return None
    if not is_first_person(claim.content) and not _opens_with_own_verb(claim):
        return None
    return named_user(claim)


# "User says Silje has a dog as well": what the user reports of someone
_REPORTED = re.compile(
    r"^\s*(?:User|I)\s+(?:says?|said|mentioned|mentions|told me|tells me|reports?|reported|"
    r"thinks?|heard)\s+(?:that\s+)?(?P<n>" + CAPITAL + r"[\w'’-]*)\s+(?:has|is|was|lives|works|"
    r"owns|keeps|drives|plays|speaks|eats|got|had|moved|started|takes)\b"
)


def reports(text: str) -> bool:
    """Does ``text`` open by reporting what someone named has or does ("User says Silje has
    …")? The cheap test before :func:`reported_person`."""
    return _REPORTED.match(text) is not None


def reported_person(claim: Claim) -> tuple[str, ...] | None:
    """The person other than the user whom the claim reports on ("User says Silje has a
    dog as well": Silje's dog), as lower-cased words of their name; only a name known
    to be a person's counts ("User said Andes Trails Peru has booked him" stays the
    user's). None otherwise."""
    found = _REPORTED.match(claim.content)
    if found is None or claim.people is None:
        return None
    word = found["n"].casefold()
    if word in (claim.user or "").casefold().split():
        return None
    for name in claim.people:
        if word in name.casefold().split():
            return tuple(clean(w) for w in WORD.findall(name)) or None
    return None


def opening_subject(claim: Claim) -> tuple[str, ...] | None:
    """Whom the claim's opening makes it about: the person the user reports on
    (:func:`reported_person`), else the user (:func:`user_words`); None otherwise."""
    return reported_person(claim) or user_words(claim)


def named_user(claim: Claim) -> tuple[str, ...] | None:
    """The namespace's user (``claim.user``, else the implicit "User") as lower-cased words."""
    return tuple(clean(w) for w in WORD.findall(claim.user or IMPLICIT_USER)) or None


_PAST_OPENER = re.compile(r"^\s*(" + CAPITAL + r"[a-z]{2,}ed)\b(?!['’])")


def _opens_with_own_verb(claim: Claim) -> bool:
    """Does the claim open with a past-tense verb ("Handed …", "Shifted …") rather than
    a name that happens to end the same way ("Ahmed …", one of ``claim.names``)?"""
    found = _PAST_OPENER.match(claim.content)
    if found is None:
        return False
    word = found.group(1).casefold()
    return not any(word in name.casefold().split() for name in claim.names)


WORD = re.compile(r"[A-Za-z\u00c0-\u024f][\w'’-]*|\d[\d,.:/-]*\d|\d", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")
_SENTENCE_END = re.compile(r"[.!?;:]$")
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+(?:[.,]\d+)?")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_SLASH_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b")
_DAY_MONTH = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]+)\.?(?:,?\s+(\d{4}))?\b", re.IGNORECASE
)
_MONTH_DAY = re.compile(
    r"\b([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*[:.]\d)(?:,?\s+(\d{4}))?",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(r"\b([A-Za-z]+)\.?,?\s+(\d{4})\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(1[89]\d{2}|2[01]\d{2})\b")


@dataclass(frozen=True, slots=True)
class Features:
    words: frozenset[str]  # lower-cased, possessive-stripped words
    names: tuple[tuple[str, ...], ...]  # name spans (lower-cased words)
    opener: tuple[str, ...] | None  # the name that opens the first sentence
    negated: bool
    dates: tuple[str, ...]
    numbers: tuple[str, ...]
    states: frozenset[str]
    sentiment: frozenset[str]


def clean(word: str) -> str:
    return _POSSESSIVE.sub("", word.casefold().replace("’", "'"))


def _number(text: str) -> str:
    """Canonical form of a numeric token: ``"1,000"`` → ``"1000"``, ``"014"`` → ``"14"``."""
    raw = text.replace(",", "")
    try:
        value = float(raw)
    except ValueError:
        return raw
    return str(int(value)) if value == int(value) else repr(value)


def _dates(text: str) -> tuple[list[str], str]:
    """Date expressions of ``text`` in a canonical form, and the text without them."""
    found: list[str] = []

    def month_of(word: str) -> int | None:
        return MONTHS.get(word.casefold())

    def take(pattern: re.Pattern[str], build: Callable[[re.Match[str]], str | None]) -> None:
        nonlocal text
        out: list[str] = []
        last = 0
        for match in pattern.finditer(text):
            value = build(match)
            if value is None:
                continue
            found.append(value)
            out.append(text[last : match.start()])
            out.append(" ")
            last = match.end()
        out.append(text[last:])
        text = "".join(out)

    take(_ISO_DATE, lambda m: f"{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3]):02d}")
    take(_SLASH_DATE, lambda m: f"{m[1]}/{m[2]}/{m[3]}")

    def day_month(m: re.Match[str]) -> str | None:
        month = month_of(m[2])
        if month is None or not 1 <= int(m[1]) <= 31:
            return None
        return f"{m[3] or '*'}-{month:02d}-{int(m[1]):02d}"

    def month_day(m: re.Match[str]) -> str | None:
        month = month_of(m[1])
        if month is None or not 1 <= int(m[2]) <= 31:
            return None
        return f"{m[3] or '*'}-{month:02d}-{int(m[2]):02d}"

    def month_year(m: re.Match[str]) -> str | None:
        month = month_of(m[1])
        return None if month is None else f"{m[2]}-{month:02d}"

    take(_DAY_MONTH, day_month)
    take(_MONTH_DAY, month_day)
    take(_MONTH_YEAR, month_year)
    take(_YEAR, lambda m: m[1])
    opening = True  # at the start of a sentence ("May I ..." is no month)
    for token in text.split():
        word = token.strip("\"'()[]{},;:!?.")
        key = word.casefold()
        if key in MONTHS and (key != "may" or (word[:1].isupper() and not opening)):
            if len(key) > 3 or word[:1].isupper():
                found.append(f"month:{MONTHS[key]:02d}")
        elif key in WEEKDAYS:
            found.append(f"weekday:{WEEKDAYS[key]}")
        opening = bool(_SENTENCE_END.search(token))
    return found, text


@functools.lru_cache(maxsize=4096)  # a claim is re-checked against many rivals
def features(claim: Claim) -> Features:
    text = claim.content
    lowered = text.casefold().replace("’", "'")
    negated = any(p.search(lowered) for p in NEGATION_PHRASES)
    raw_words = WORD.findall(text)
    words: set[str] = set()
    for word in raw_words:
        low = word.casefold().replace("’", "'")
        if low.endswith("n't") or low in ("cannot", "can't", "won't"):
            negated = True
        cleaned = clean(word)
        if cleaned in NEGATIONS and cleaned not in ("gave", "longer"):
            negated = True
        words.add(cleaned)
        words.add(stem(cleaned))
    dates, rest = _dates(text)
    numbers: list[str] = []
    states: set[str] = set()
    sentiment: set[str] = set()
    predicate_words = [clean(w) for w in WORD.findall(claim.predicate or "")]
    for cleaned in [clean(w) for w in raw_words] + predicate_words:
        base = cleaned.replace("_", " ")
        for part in base.split():
            if part in STATE_WORDS:
                states.add(STATE_CANON.get(part, part))
            if part in LIKES:
                sentiment.add("like")
            if part in DISLIKES:
                sentiment.add("dislike")
    for word in WORD.findall(rest):
        cleaned = clean(word)
        ordinal = _ORDINAL.match(cleaned)
        if ordinal:
            numbers.append(_number(ordinal[1]))
        elif cleaned[:1].isdigit():
            numbers.extend(_number(d) for d in _DIGITS.findall(cleaned))
        elif cleaned in COUNT_WORDS and not (
            cleaned in COUNT_WORDS_ALSO_STATES and cleaned in states
        ):
            numbers.append(_number(str(COUNT_WORDS[cleaned])))
    names, opener = _names(text)
    opener = user_words(claim) or opener
    extra = [tuple(clean(w) for w in WORD.findall(n)) for n in claim.names]
    names.extend(span for span in extra if span)
    return Features(
        words=frozenset(words),
        names=tuple(dict.fromkeys(names)),
        opener=opener,
        negated=negated,
        dates=tuple(sorted(dates)),
        numbers=tuple(sorted(numbers)),
        states=frozenset(states),
        sentiment=frozenset(sentiment),
    )


def _is_name_word(word: str) -> bool:
    key = clean(word)
    return (
        word[:1].isupper()
        and key not in NOT_NAMES
        and key not in MONTHS
        and key not in WEEKDAYS
        and not key[:1].isdigit()
    )


def _names(text: str) -> tuple[list[tuple[str, ...]], tuple[str, ...] | None]:
    """Runs of capitalised words (names), and the name that opens the text (its
    likely subject: "Sam's birthday …" → ``("sam",)``), if a name opens it."""
    spans: list[tuple[str, ...]] = []
    opener: tuple[str, ...] | None = None
    current: list[str] = []
    opens = False  # the current run started at the text's first word
    for index, match in enumerate(re.finditer(r"\S+", text)):
        token = match.group()
        stripped = token.strip("\"'()[]{},;:!?.")
        if stripped and _is_name_word(stripped):
            if not current:
                opens = index == 0
            current.append(clean(stripped))
            if not _SENTENCE_END.search(token.rstrip("\"')]")):
                continue
        if current:
            spans.append(tuple(current))
            if opens:
                opener = tuple(current)
            current = []
    if current:
        spans.append(tuple(current))
        if opens:
            opener = tuple(current)
    return spans, opener
