"""Lucene's conventions, in one public place: the fulltext query syntax and BM25's IDF.

The Neo4j store searches its ``memory_content`` fulltext index (Lucene) with
:func:`lucene_query`; the benchmark's neo4j-graphrag peer sends the same query
string, so both search the same namespace the same way. The embedded store's
BM25 (:mod:`graphmem.store._bm25`) and the query planner's lexical rarity
(:func:`graphmem.retrieval.planning.planner.lexical_rarity`) use :func:`lucene_idf`, the
IDF Lucene's BM25 similarity uses (docs/spec.md §3).

User text never becomes query syntax: :func:`lucene_escape` turns it into plain
terms first.
"""

from __future__ import annotations

import hashlib
import math

__all__ = ["MAX_QUERY_WORDS", "lucene_escape", "lucene_idf", "lucene_query", "ns_key"]

_LUCENE_SPECIAL = frozenset('+-&|!(){}[]^"~*?:\\/')
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT"})
MAX_QUERY_WORDS = 256  # Lucene refuses queries of more than 1024 clauses


def lucene_escape(text: str) -> str:
    r"""User text as a Lucene query of plain terms (default operator OR).

    Every character of Lucene's query syntax (``+ - && || ! ( ) { } [ ] ^ "
    ~ * ? : \ /``) is escaped with a backslash, the bare words ``AND``,
    ``OR``, ``NOT`` are lower-cased (the analyzer lower-cases terms anyway),
    words without a letter or digit are dropped, and at most
    :data:`MAX_QUERY_WORDS` words are kept.

    Returns
    -------
    str
        The escaped words joined by spaces; ``""`` when nothing searchable is
        left (empty or operator-only text), which callers must not send.

    Examples
    --------
    >>> print(lucene_escape('C++ AND "rust" -- (fast)'))
    C\+\+ and \"rust\" \(fast\)
    >>> lucene_escape("&& || !")
    ''
    """
    words: list[str] = []
    for word in text.split():
        if not any(ch.isalnum() for ch in word):
            continue
        if word in _LUCENE_OPERATORS:
            word = word.lower()
        words.append("".join(f"\\{ch}" if ch in _LUCENE_SPECIAL else ch for ch in word))
        if len(words) == MAX_QUERY_WORDS:
            break
    return " ".join(words)


def ns_key(namespace: str) -> str:
    """One lower-case alphanumeric token standing for ``namespace`` in the fulltext index."""
    return "ns" + hashlib.sha256(namespace.encode("utf-8")).hexdigest()[:32]


def lucene_query(namespace: str, escaped: str, *, field: str = "content") -> str:
    """A fulltext query for ``escaped`` terms of ``field`` inside ``namespace``; the
    namespace clause is boosted by 0 so the score is the BM25 of the field's terms alone.
    The store searches ``search_text`` (the contextual key, else the content)."""
    return f"ns_key:{ns_key(namespace)}^0 AND {field}:({escaped})"


def lucene_idf(n_docs: int, doc_freq: int) -> float:
    """Lucene's BM25 IDF, ``ln(1 + (N − n + 0.5) / (n + 0.5))`` (docs/spec.md §3).

    Parameters
    ----------
    n_docs : int
        Corpus size ``N``, ``>= 0``.
    doc_freq : int
        Documents containing the term, ``0 <= n <= N``.

    Returns
    -------
    float
        The IDF, ``> 0`` for every ``0 <= n <= N``.

    Raises
    ------
    ValueError
        If ``doc_freq`` is outside ``[0, n_docs]``.

    Examples
    --------
    >>> round(lucene_idf(3, 1), 6)
    0.980829
    """
    if not 0 <= doc_freq <= n_docs:
        raise ValueError(f"doc_freq must be in [0, n_docs={n_docs}], got {doc_freq}")
    return math.log(1.0 + (n_docs - doc_freq + 0.5) / (doc_freq + 0.5))
