"""Reading a question before it is searched: its type cue and its people.

``question_type("When did Dana go hiking?") == "when"``: the cue the temporal
retriever uses (a *when* question with no time window ranks memories that carry
an event time). :func:`resolve_question` rewrites a question's references to the
people of the namespace: a short form of a name ("Mel" for Melanie), and a
pronoun where the question names nobody and one person is known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from graphmem.language.vocabulary import CAPITAL

__all__ = [
    "QuestionType",
    "ResolvedQuestion",
    "asks_for_several",
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


_SEVERAL_START = re.compile(r"^\s*(?:how\s+many\b|(?:what|which)\s+(?:are|were)\b)", re.I)
_BOTH = re.compile(r"\bboth\b", re.I)
_AUXILIARY = r"(?:has|have|had|does|do|did|is|are|was|were|will|would|can|could)"
# "What video games does ...", "Which cities has ...": the words between the wh-word and
# the first auxiliary (the question's head noun phrase)
_WH_HEAD = re.compile(rf"^\s*(?:what|which)\s+(.*?)\s+{_AUXILIARY}\b", re.I)


def asks_for_several(text: str) -> bool:
    """True when the question's answer gathers several memories, usually from several
    sessions: "How many ...", "What/Which are ...", "... both ...", or a plural head
    noun after what/which ("What books has Tim read?", "Which cities has John been
    to?"). Such a question gets no session support (the planner's ``aggregate`` flag): its evidence
    is spread, and support would concentrate the top on one session.

    Examples
    --------
    >>> asks_for_several("What books has Tim read?"), asks_for_several("How many pets?")
    (True, True)
    >>> asks_for_several("What book did Tim just finish?"), asks_for_several("Who is Ari?")
    (False, False)
    """
    if _SEVERAL_START.search(text) or _BOTH.search(text):
        return True
    head = _WH_HEAD.match(text)
    return head is not None and any(_plural(word) for word in head.group(1).split())


def _plural(word: str) -> bool:
    """An English plural noun by its ending ("games", "cities"; not "class", "bus", "this")."""
    word = word.lower().strip(".,;:!?'\"’")
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


_POSSESSIVE = re.compile(r"\b(" + CAPITAL + r"[\w-]*)(?:'s|’s|'|’)(?=\s|$|[?.!,;:])")


def strip_possessives(text: str) -> str:
    """``"Dana's sister"`` → ``"Dana sister"``: a name's possessive ending removed, so the
    name links as itself (capitalised words only: "it's" stays)."""
    return _POSSESSIVE.sub(r"\1", text)


_PRONOUN = re.compile(r"\b(she|her|hers|herself|he|him|his|himself)\b", re.I)


@dataclass(frozen=True, slots=True)
class ResolvedQuestion:
    """A question as searched: ``text`` (short names and pronouns replaced by the person
    they stand for), the ``resolved`` (surface, name) pairs and the type cue."""

    text: str
    resolved: tuple[tuple[str, str], ...]
    type: QuestionType | None


_CAPITALISED = re.compile(r"\b" + CAPITAL + r"[a-z]{2,}\b")


def resolve_question(text: str, people: Sequence[str]) -> ResolvedQuestion:
    """Resolve ``text``'s references to the namespace's people.

    Parameters
    ----------
    text : str
        The question.
    people : sequence of str
        Names of the namespace's person entities.

    Returns
    -------
    ResolvedQuestion
        - a capitalised word (3+ letters, not the first) that is no person's first name but begins
          exactly one person's first name becomes that name ("Mel" → "Melanie");
        - a pronoun ("she", "his", ...) becomes the person's name only when the
          question names nobody and the namespace has exactly one person (with a
          name in the question, the pronoun refers to it: nothing to add).
        Possessives stay (the dictionary links "Dana's" as Dana; "Dana's sister"
        is walked through the graph); :func:`strip_possessives` is for callers
        that match names by word.
    """
    # possessives stay: the entity dictionary links "Dana's" as Dana, and a relational
    # question ("Dana's sister") is walked through its possessive
    out = text
    resolved: list[tuple[str, str]] = []
    firsts = {p.split()[0]: p for p in people if p.split()}
    known = {f.lower() for f in firsts}

    def expand(match: re.Match[str]) -> str:
        word = match.group(0)
        if match.start() == 0 or word.lower() in known:  # the first word: capitalised anyway
            return word
        longer = [f for f in firsts if f.lower().startswith(word.lower())]
        if len(longer) != 1:
            return word
        resolved.append((word, longer[0]))
        return longer[0]

    out = _CAPITALISED.sub(expand, out)
    lowered = out.lower()
    named = any(re.search(rf"\b{re.escape(p.lower())}\b", lowered) for p in known)
    if not named and len(people) == 1 and _PRONOUN.search(out):
        (name,) = people

        def swap(match: re.Match[str]) -> str:
            resolved.append((match.group(0), name))
            return name

        out = _PRONOUN.sub(swap, out)
    return ResolvedQuestion(out, tuple(resolved), question_type(text))
