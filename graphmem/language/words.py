"""Words every reader of English text in graphmem shares: the one stop-word list, the
stemmer and the plural fold.

- :data:`FUNCTION_WORDS`: the stop words. The planner's lexical rarity, the claim
  frames (:mod:`graphmem.language.frames`) and the graph retriever's question words
  and predicate words (:mod:`graphmem.language.predicates`) leave these out.
- :func:`stem`: a crude suffix stemmer for matching a question's words to relation
  types ("working" and ``WORKS_AT``).
- :func:`singular`: the plural fold the claim rule (docs/spec.md §9.10) compares names
  and slots with ("dogs" and "dog"); a stemmer would join names ("Walker", "Walks").
"""

from __future__ import annotations

import re

__all__ = ["FUNCTION_WORDS", "singular", "stem"]

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
    """A crude English stem for matching predicates to query words
    ("works", "working", "worked" → "work"; "lives", "live" → "liv")."""
    word = word.lower()
    stemmed = _SUFFIX.sub("", word)
    if stemmed.endswith("e"):
        stemmed = stemmed[:-1]  # "live" and "lives" → "liv"
    return stemmed if len(stemmed) >= 3 else word


def singular(word: str) -> str:
    """A plural-insensitive form ("dogs" → "dog"), enough for name / word matching."""
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word
