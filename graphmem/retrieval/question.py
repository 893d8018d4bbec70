"""Reading a question before it is searched (issue 15): its type cue and its people.

``question_type("When did Dana go hiking?") == "when"``: the cue the planner and
the temporal retriever use (a *when* question with no time window ranks memories
that carry an event time). :func:`resolve_question` rewrites a question's
references to people of the namespace: possessives are stripped for linking
("Dana's" links Dana) and a pronoun ("her", "his", "she") is resolved to the one
person of the namespace it can stand for, when exactly one remains after the
names the question already gives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "QuestionType",
    "ResolvedQuestion",
    "asks_when",
    "question_type",
    "resolve_question",
    "strip_possessives",
]

QuestionType = Literal["when", "where", "who", "how many", "why", "how", "what", "yes/no"]

_CUES: tuple[tuple[QuestionType, re.Pattern[str]], ...] = (
    (
        "when",
        re.compile(
            r"^\s*(?:when\b|what\s+(?:day|date|year|month|time|week)\b|"
            r"how\s+long\s+ago\b|in\s+which\s+(?:year|month)\b|which\s+(?:year|month|day)\b)",
            re.I,
        ),
    ),
    ("how many", re.compile(r"^\s*how\s+(?:many|much|often)\b", re.I)),
    ("where", re.compile(r"^\s*(?:where\b|in\s+which\s+(?:city|country|place)\b)", re.I)),
    ("who", re.compile(r"^\s*(?:who|whom|whose)\b", re.I)),
    ("why", re.compile(r"^\s*why\b", re.I)),
    ("how", re.compile(r"^\s*how\b", re.I)),
    ("what", re.compile(r"^\s*(?:what|which)\b", re.I)),
    (
        "yes/no",
        re.compile(
            r"^\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|would|will|should)\b",
            re.I,
        ),
    ),
)
# "..., when did she ...?" — a when-clause later in the question
_WHEN_INSIDE = re.compile(r"\bwhen\s+(?:did|does|do|was|is|were|will|has|had)\b", re.I)


def question_type(text: str) -> QuestionType | None:
    """The question's type cue, from its first words (``None``: no cue, e.g. a statement).

    Examples
    --------
    >>> question_type("When did Dana go hiking?"), question_type("What year did Ari move?")
    ('when', 'when')
    >>> question_type("How many pets does Ari have?"), question_type("Dana likes tea")
    ('how many', None)
    """
    for name, pattern in _CUES:
        if pattern.search(text):
            if name in ("what", "yes/no", "how") and _WHEN_INSIDE.search(text):
                return "when"
            return name
    return "when" if _WHEN_INSIDE.search(text) else None


def asks_when(text: str) -> bool:
    """True when the question asks for a time (its type cue is "when")."""
    return question_type(text) == "when"


_POSSESSIVE = re.compile(r"\b([A-Z][\w-]*)(?:'s|’s|'|’)(?=\s|$|[?.!,;:])")


def strip_possessives(text: str) -> str:
    """``"Dana's sister"`` → ``"Dana sister"``: a name's possessive ending removed, so the
    name links as itself (capitalised words only: "it's" stays)."""
    return _POSSESSIVE.sub(r"\1", text)


_PRONOUNS: dict[str, str] = {
    "she": "female", "her": "female", "hers": "female", "herself": "female",
    "he": "male", "him": "male", "his": "male", "himself": "male",
}  # fmt: skip
_PRONOUN = re.compile(r"\b(she|her|hers|herself|he|him|his|himself)\b", re.I)


@dataclass(frozen=True, slots=True)
class ResolvedQuestion:
    """A question as searched: ``text`` (possessives stripped, pronouns replaced by the
    person they stand for), the ``resolved`` pronoun → name pairs, its type cue."""

    text: str
    resolved: tuple[tuple[str, str], ...]
    type: QuestionType | None


def resolve_question(text: str, people: Sequence[str]) -> ResolvedQuestion:
    """Resolve ``text``'s references against the namespace's people.

    Parameters
    ----------
    text : str
        The question.
    people : sequence of str
        Names of the namespace's person entities.

    Returns
    -------
    ResolvedQuestion
        A pronoun is replaced by a person's name only when exactly one person of
        ``people`` is not already named in the question (a two-person conversation:
        "When did she meet Ari?" asks about the other one); otherwise it stays.
    """
    stripped = strip_possessives(text)
    resolved: list[tuple[str, str]] = []
    if _PRONOUN.search(stripped):
        lowered = stripped.lower()
        named = {p for p in people if re.search(rf"\b{re.escape(p.lower())}\b", lowered)}
        others = sorted(set(people) - named)
        if len(others) == 1:
            name = others[0]

            def swap(match: re.Match[str]) -> str:
                resolved.append((match.group(0), name))
                return name

            stripped = _PRONOUN.sub(swap, stripped)
    return ResolvedQuestion(stripped, tuple(resolved), question_type(text))
