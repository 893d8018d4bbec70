"""Relation types read against a question's words (docs/spec.md §3 "Graph traversal"):
whether a predicate names what the question asks (``WORKS_AT`` for "Where does Dana
work?"), and whether it gives a role noun ("Maya's sister": ``SISTER_OF``).
"""

from __future__ import annotations

from graphmem.language.relation_words import ROLE_TYPES
from graphmem.language.words import FUNCTION_WORDS, stem

__all__ = ["GENERIC_PREDICATES", "predicate_match", "role_match"]

# relations whose name says nothing about the question
GENERIC_PREDICATES = frozenset({"CO_OCCURS_WITH", "RELATED_TO", "MENTIONS"})


def predicate_match(predicate: str, query_stems: set[str]) -> float:
    """1.0 when a word of ``predicate`` shares a stem with the query, else 0.0."""
    if predicate in GENERIC_PREDICATES:
        return 0.0
    words = [w for w in predicate.lower().split("_") if w and w not in FUNCTION_WORDS]
    return 1.0 if any(stem(w) in query_stems for w in words) else 0.0


def role_match(predicate: str, noun: str) -> bool:
    """Whether a relation named ``predicate`` gives the role ``noun`` ("Dana's sister"):
    a word of the predicate shares the noun's stem (``SISTER_OF``), or, for a "co-"
    noun, the rest's stem with "with" ("coworker": ``WORK_WITH``, not ``WORK_AT``), or
    the noun's type in the extractor's vocabulary ("mother": ``PARENT_OF``, "boss":
    ``MANAGER_OF``; docs/extraction.md)."""
    if predicate_match(predicate, {stem(noun)}):
        return True
    if ROLE_TYPES.get(noun.casefold()) == predicate.upper():
        return True
    rest = noun[3:] if noun.startswith("co-") else noun[2:] if noun.startswith("co") else ""
    words = predicate.lower().split("_")
    return len(rest) >= 4 and "with" in words and predicate_match(predicate, {stem(rest)}) > 0
