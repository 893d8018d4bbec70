"""The frame of a claim: its content words without stop words, dates and the names only
it carries. The consistency scan (docs/spec.md §10) and the write path read two claims
with one frame and different values as a contradiction (:func:`frame_overlap`).
"""

from __future__ import annotations

import re

from graphmem.language.vocabulary import MONTHS, WEEKDAYS
from graphmem.language.words import FUNCTION_WORDS, stem

__all__ = ["frame_overlap"]

# FUNCTION_WORDS as the consistency scan (docs/spec.md §10) has always read them: "never" and
# "n't" count too, "whose" is a frame word ("s" is shorter than a frame word anyway).
_STOPWORDS = (FUNCTION_WORDS - {"s", "whose"}) | {"never", "n't"}
_MONTHS_AND_DAYS = frozenset(MONTHS) | frozenset(WEEKDAYS)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _frame_words(text: str, other_words: frozenset[str]) -> set[str]:
    words: set[str] = set()
    for token in _TOKEN.findall(text):
        word = re.sub(r"['’]s?$", "", token.casefold())
        if word in _STOPWORDS or word in _MONTHS_AND_DAYS or len(word) < 2:
            continue
        if token[0].isupper() and word not in other_words:
            continue  # a name only this claim has: the value that differs, not the frame
        words.add(stem(word))
    return words


def frame_overlap(first: str, second: str) -> float:
    """Jaccard overlap of the two claims' *frames*: their content words, without stop
    words, numbers, dates and the names only one of them has ("Alice works at Google" /
    "Alice works at Microsoft" → {alice, work} twice → 1.0). Two claims that differ in a
    value of one frame contradict; two claims with different frames ("found a rainbow
    sidewalk during Pride Month" / "attended an LGBTQ+ pride parade") state two things,
    whatever names they differ in. Returns a value in [0, 1]; 1.0 when both are empty."""
    all_a = frozenset(re.sub(r"['’]s?$", "", t.casefold()) for t in _TOKEN.findall(first))
    all_b = frozenset(re.sub(r"['’]s?$", "", t.casefold()) for t in _TOKEN.findall(second))
    words_a = _frame_words(first, all_b)
    words_b = _frame_words(second, all_a)
    union = words_a | words_b
    return 1.0 if not union else len(words_a & words_b) / len(union)
