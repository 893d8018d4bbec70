"""Which of several like events a question asks for (docs/updates.md "At recall").

"When did Wanjiru first climb Longonot this year?" asks for the earliest of her climbs,
"When did Lucía last donate blood?" for the latest, "How was the weather on my November
Tongariro crossing?" for the one in November. Two events of one kind embed alike, so
relevance alone puts either first. Among the ranked events near the top (the first
:data:`DEPTH`) that share a content word with the question beyond the asked person's
name, the one the question's cue picks moves to the front of that group: an event in the
month it names, else for "first" the one that says so ("I landed my first kitesurf
jump": the one sharing most of the question's words) or the earliest, else the latest
for "last" / "most recent", else, with no time cue, the one that names every place or
number the question names ("Which race did Abebe run in Hawassa?", "my 3 km swim"; not
for a question about the present: "Is Ximena still in Puebla?"; "not Cachoeira" names no
Cachoeira), and of those (or of all) the one sharing the most of the question's words
when no other shares as many ("What did I play at the spring recital?"); the others keep their
order, the group its places (and those of the memories just above it that share no word
with the question), and nothing else moves. Events only
(``Memory.type == "Event"``), never transcript turns; their time is
``Memory.time_anchor``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.language.questions import asks_present
from graphmem.language.voice import is_transcript
from graphmem.language.words import FUNCTION_WORDS, shares_word, stem
from graphmem.models import Memory
from graphmem.text import tokenize

__all__ = ["DEPTH", "event_first"]

#: How many of the ranked memories are looked through for the question's events.
DEPTH = 5

_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
# a month by name, capitalised and not opening the question ("May I …?")
_MONTH = re.compile(r"(?<=\w)\W+(" + "|".join(_MONTHS) + r")\b")
_FIRST = re.compile(r"\b(?:first|earliest)\b", re.IGNORECASE)
# "last" as an order, not "last week" / "last year" (a time)
_LAST = re.compile(
    r"\b(?:latest|most recent(?:ly)?|last(?!\s+(?:week|weekend|month|year|night|summer|winter|"
    r"spring|autumn|fall|season|term|time I|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)\b))\b",
    re.IGNORECASE,
)
_CUE_WORDS = frozenset(
    {"first", "earliest", "last", "latest", "most", "recent", "recently", "year", "time"}
)


# a name the question gives (capitalised past its first word) or a number: "in Hawassa",
# "my Hamburg to Lauenburg ride", "my 3 km swim"
_NAMED = re.compile(r"(?<=\w)\W+([A-ZÀ-Þ][\w'’-]+|\d+(?:[.,]\d+)?)")


def _named(question: str, name_words: Sequence[str]) -> frozenset[str]:
    skip = {w.casefold() for w in name_words} | {m.casefold() for m in _MONTHS}
    found = {w.casefold() for w in _NAMED.findall(question)}
    return frozenset(w for w in found if w not in skip and w != "i")


def _names_all(text: str, named: frozenset[str]) -> bool:
    words = {w.casefold() for w in re.findall(r"[\w'’-]+", text)}
    return named <= words


# "a forró night in Lagoa — not Cachoeira, but it'll do" names Cachoeira as what it is not
_NOT_NAMED = re.compile(r"\bnot\s+(?:in\s+|at\s+)?[\w'’-]+", re.IGNORECASE)


def _shared(memory: Memory, words: set[str]) -> int:
    """How many of ``words`` (stems) ``memory``'s text holds."""
    return len(words & {stem(w) for w in tokenize(memory.content)})


def _most_alike(group: Sequence[Memory], words: set[str]) -> Memory | None:
    """The one event of ``group`` sharing the most of ``words`` (stems) with the question
    ("the spring recital": spring, recital, played; "the autumn recital": two), or None
    when two share as many."""
    shared = [(_shared(m, words), m) for m in group]
    shared.sort(key=lambda row: -row[0])
    if len(shared) > 1 and shared[0][0] == shared[1][0]:
        return None
    return shared[0][1]


def event_first(
    order: Sequence[Memory], question: str, name_words: Sequence[str] = ()
) -> tuple[list[Memory], list[str]]:
    """``order`` with the event the question's cue picks first among its like events
    (see the module docstring); ``name_words``: the asked person's name, lower-cased,
    which every event about them shares. Returns the new order and the ids moved up
    (empty when the question has no cue or fewer than two events match)."""
    month = _MONTH.search(question)
    first, last = _FIRST.search(question), _LAST.search(question)
    present = asks_present(question)
    named = frozenset() if present else _named(question, name_words)
    if month is None and first is None and last is None and present:
        return list(order), []
    skip = {stem(w) for w in (*name_words, *_CUE_WORDS)} | {stem(w) for w in FUNCTION_WORDS}
    if month is not None:
        skip.add(stem(month.group(1)))
    words = {stem(w) for w in tokenize(question)} - skip
    places = [
        i
        for i, m in enumerate(order[:DEPTH])
        if m.type == "Event"
        and not is_transcript(m.extractor, m.content)
        and shares_word(words, m.content)
    ]
    if len(places) < 2:
        return list(order), []
    group = [order[i] for i in places]
    if month is not None:
        wanted = _MONTHS.index(month.group(1)) + 1
        picked = next((m for m in group if m.time_anchor.month == wanted), group[0])
    elif first is not None:  # "I landed my first kitesurf jump" says which is the first
        said = [m for m in group if _FIRST.search(m.content)]
        picked = (
            max(said, key=lambda m: _shared(m, words))
            if said
            else min(group, key=lambda m: m.time_anchor)
        )
    elif last is not None:
        picked = max(group, key=lambda m: m.time_anchor)
    else:  # "Which race did Abebe run in Hawassa?": the one that names Hawassa
        naming = [m for m in group if _names_all(_NOT_NAMED.sub(" ", m.content), named)]
        picked = _most_alike(naming or group, words) or (naming or group)[0]
    # what ranks above the group without a word of the question gives way to it too
    while places[0] > 0 and not shares_word(words, order[places[0] - 1].content):
        places = [places[0] - 1, *places]
        group = [order[places[0]], *group]
    if picked.id == group[0].id:
        return list(order), []
    out = list(order)
    ranked = [picked, *(m for m in group if m.id != picked.id)]
    for place, memory in zip(places, ranked, strict=True):
        out[place] = memory
    return out, [picked.id]
