"""The answer type a question's cue asks for (:func:`expected_answer`): "Where does X
work?" wants an organisation, "Where does X live?" a place, "What does X like to
drink?" a preference. A few fixed patterns, no model; the recall ranks the candidates
that carry the type as one more list
(:mod:`graphmem.retrieval.rescoring.answer_type`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AnswerType", "expected_answer"]


@dataclass(frozen=True, slots=True)
class AnswerType:
    """What the answer to a question should carry.

    ``kinds``: entity kinds (``Entity.kind``), one of which a memory must mention in
    a slot other than the subject; ``types``: memory types (``Memory.type``);
    ``cue``: the words that set it, for the explanation.
    """

    kinds: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    cue: str = ""


_WH_WORK = re.compile(
    r"\bwhere\b.*\b(?:work|works|working|worked|employed)\b"
    r"|\bemployer\b"
    r"|\bwho\b.*\bworks?\s+for\b"
    r"|\b(?:which|what)\s+(?:company|firm|organi[sz]ation|employer)\b",
)
_WH_LIVE = re.compile(
    r"\bwhere\b.*\b(?:live|lives|living|lived|reside|resides|based|moved?|moving)\b"
    r"|\b(?:which|what)\s+(?:city|town|country)\b.*\b(?:live|lives|living|lived|reside|resides"
    r"|based|moved?|moving)\b",
)
_PREFERENCE = re.compile(
    r"\b(?:favou?rite|hobby|hobbies|prefers?|preference|enjoys?)\b"
    r"|\b(?:likes?|loves?)\s+to\b"
    # "What does Noor like?", not "What does the house look like?"
    r"|\b(?:does|do|did)\s+[\w'’ -]+?(?<!look)(?<!sound)(?<!feel)(?<!seem)(?<!taste)(?<!smell)"
    r"\s+(?:like|love)\s*\?",
)


def expected_answer(question: str) -> AnswerType | None:
    """The answer type a question's cue asks for, or ``None`` without a cue.

    >>> expected_answer("Where does Tomas work?").kinds
    frozenset({'Organization'})
    >>> sorted(expected_answer("Which city does Dana live in?").kinds)
    ['Place']
    >>> expected_answer("What does Noor like to drink?").types
    frozenset({'Preference'})
    >>> expected_answer("What did Dana say about the trip?") is None
    True
    """
    text = " ".join(question.casefold().replace("’", "'").split())
    if (match := _WH_WORK.search(text)) is not None:
        return AnswerType(kinds=frozenset({"Organization"}), cue=match.group())
    if (match := _WH_LIVE.search(text)) is not None:
        return AnswerType(kinds=frozenset({"Place"}), cue=match.group())
    if (match := _PREFERENCE.search(text)) is not None:
        return AnswerType(types=frozenset({"Preference"}), cue=match.group())
    return None
