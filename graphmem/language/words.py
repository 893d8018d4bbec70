"""Words every reader of English text in graphmem shares: the one stop-word list and the
one stemmer.

- :data:`FUNCTION_WORDS`: the stop words. The planner's lexical rarity, the claim
  frames (:mod:`graphmem.language.frames`), the graph retriever's question words and
  predicate words (:mod:`graphmem.language.predicates`) leave these out.
- :func:`stem`: a crude suffix stemmer. It matches a question's words to relation types
  ("working" and ``WORKS_AT``), and the claim rule (docs/spec.md §9.10) compares names,
  slots, frame words and the topics of an ending with it ("dogs" and "dog").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphmem.text import tokenize

__all__ = ["FUNCTION_WORDS", "shares_word", "stem"]

#: English function words (and the "s" a possessive leaves): a query made only of
#: these and a name has no content term for BM25 to match.
FUNCTION_WORDS = frozenset(
    {
        "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for",
        "with", "from", "as", "into", "about", "over", "after", "before", "is", "are", "was",
        "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "will",
        "would", "can", "could", "should", "may", "might", "must", "it", "its", "this", "that",
        "these", "those", "there", "here", "he", "she", "they", "we", "you", "i", "me", "my",
        "his", "her", "their", "our", "your", "him", "them", "us", "who", "whom", "whose",
        "which", "what", "when", "where", "why", "how", "so", "than", "then", "also", "very",
        "just", "not", "no", "nor", "any", "some", "all", "each", "every", "own", "same",
        "other", "such", "only", "during", "while", "since", "until", "through", "between",
        "under", "s",
    }
)  # fmt: skip


_SUFFIX = re.compile(r"(ing|ers|er|ed|es|s)$")


def stem(word: str) -> str:
    """A crude English stem, lower-cased: the suffixes -ing, -ers, -er, -ed, -es, -s and
    then a final -e go, unless fewer than 3 letters would be left ("works", "working",
    "worked" → "work"; "lives", "live" → "liv"; "dogs" → "dog"; "is" → "is")."""
    word = word.lower()
    stemmed = _SUFFIX.sub("", word)
    if stemmed.endswith("e"):
        stemmed = stemmed[:-1]  # "live" and "lives" → "liv"
    return stemmed if len(stemmed) >= 3 else word


def shares_word(stems: Iterable[str], text: str) -> bool:
    """Does ``text`` say one of ``stems`` (words already passed through :func:`stem`),
    compared by stem over its tokens (:func:`graphmem.text.tokenize`)?"""
    return not frozenset(stems).isdisjoint(stem(w) for w in tokenize(text))
