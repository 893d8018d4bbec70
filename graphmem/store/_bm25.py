"""BM25 for the embedded store: Lucene's IDF over per-term posting arrays (docs/spec.md §3).

docs/spec.md §3 uses Lucene's formula, which is positive for every term that occurs::

    idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
    score(D, Q) = Σ_{t ∈ Q} idf(t) · f(t, D) · (k1 + 1)
                  / (f(t, D) + k1 · (1 − b + b · |D| / avgdl))

with ``N`` documents, ``n(t)`` of them containing ``t``, ``f(t, D)`` the
count of ``t`` in ``D`` and ``avgdl`` the mean document length in tokens.
(Lucene ≥ 8 drops the constant ``(k1 + 1)`` factor; the ranking is the same.)
A query term repeated in the query counts once per occurrence, as in
rank-bm25 and in a Lucene boolean query.

:class:`BM25Index` keeps, per term, the rows of the documents containing it and
the term's count in each (one sorted pair of arrays), so a query touches only
the documents that contain one of its terms — rank-bm25's ``get_scores`` walks
every document for every query term, ~0.15 s per query at 10 000 documents.
The arithmetic is rank-bm25's ``BM25Okapi.get_scores``, element for element, so
the scores are bit-identical to it configured with Lucene's IDF (a document
without the term adds an exact 0.0 there).

The IDF is :func:`graphmem.store.lucene.lucene_idf` (the one definition, shared
with the query planner).

Guards: an empty corpus scores nothing (rank-bm25 divides by zero), a corpus
of empty documents has ``avgdl`` taken as 1 (rank-bm25 divides 0 by 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from graphmem.store.lucene import lucene_idf

__all__ = ["BM25Index"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class BM25Index:
    """An immutable BM25 index over pre-tokenised documents (posting arrays).

    Parameters
    ----------
    documents : sequence of sequence of str
        One token list per document (``graphmem.text.tokenize``); may be empty.
    k1 : float
        Term-frequency saturation, ``> 0`` (docs/spec.md §3: 1.2).
    b : float
        Length normalisation, in ``[0, 1]`` (docs/spec.md §3: 0.75).

    Raises
    ------
    ValueError
        If ``k1 <= 0`` or ``b`` is outside ``[0, 1]``.

    Examples
    --------
    >>> index = BM25Index([["cat", "sat"], ["dog"]], k1=1.2, b=0.75)
    >>> rows, scores = index.matches(["dog", "unicorn"])
    >>> rows.tolist(), [round(float(s), 6) for s in scores]
    ([1], [0.802591])
    """

    def __init__(self, documents: Sequence[Sequence[str]], *, k1: float, b: float) -> None:
        if not (math.isfinite(k1) and k1 > 0.0):
            raise ValueError(f"k1 must be > 0, got {k1}")
        if not (math.isfinite(b) and 0.0 <= b <= 1.0):
            raise ValueError(f"b must be in [0, 1], got {b}")
        n = len(documents)
        self._n_docs = n
        self._k1 = k1
        vocabulary: dict[str, int] = {}
        flat: list[int] = []
        lengths = np.zeros(n, dtype=np.int64)
        for row, document in enumerate(documents):
            lengths[row] = len(document)
            flat.extend(vocabulary.setdefault(token, len(vocabulary)) for token in document)
        total = int(lengths.sum())
        avgdl = total / n if n and total else 1.0  # all documents empty: nothing matches
        # rank-bm25's denominator without f(t, D): k1 · (1 − b + b · |D| / avgdl), per document
        self._norm: FloatArray = np.asarray(k1 * (1 - b + b * lengths / avgdl), dtype=np.float64)
        # One (term, row) key per token; unique keys with their counts are the postings,
        # sorted by term and then by row.
        keys = np.asarray(flat, dtype=np.int64) * max(n, 1) + np.repeat(np.arange(n), lengths)
        unique, counts = np.unique(keys, return_counts=True)
        self._rows: IntArray = unique % max(n, 1)
        self._freqs: IntArray = counts.astype(np.int64)
        bounds = np.searchsorted(unique // max(n, 1), np.arange(len(vocabulary) + 1))
        self._span = {term: (int(bounds[i]), int(bounds[i + 1])) for term, i in vocabulary.items()}

    @property
    def n_docs(self) -> int:
        """Number of documents ``N``."""
        return self._n_docs

    def idf(self, term: str) -> float:
        """Lucene IDF of ``term``; 0.0 for a term no document contains."""
        span = self._span.get(term)
        return 0.0 if span is None else lucene_idf(self._n_docs, span[1] - span[0])

    def postings(self, term: str) -> tuple[IntArray, IntArray]:
        """Rows of the documents containing ``term`` (ascending) and its count in each."""
        lo, hi = self._span.get(term, (0, 0))
        return self._rows[lo:hi], self._freqs[lo:hi]

    def matches(self, query: Sequence[str]) -> tuple[IntArray, FloatArray]:
        """The documents containing a query token (``query`` as for :meth:`scores`):
        their ascending rows (int64) and their BM25 scores, ``> 0`` (float64, exactly
        :meth:`scores` at those rows)."""
        dense = self.scores(query)
        touched = np.zeros(self._n_docs, dtype=np.bool_)
        for term in query:
            touched[self.postings(term)[0]] = True
        rows = np.flatnonzero(touched)
        return rows, dense[rows]

    def scores(self, query: Sequence[str]) -> FloatArray:
        """BM25 score of every document for the tokenised ``query``.

        Parameters
        ----------
        query : sequence of str
            Query tokens (same tokeniser as the documents); may be empty.

        Returns
        -------
        numpy.ndarray of float64, shape (n_docs,)
            ``>= 0``; exactly 0 for a document containing no query term.
        """
        score = np.zeros(self._n_docs, dtype=np.float64)
        k1 = self._k1
        for term in query:  # rank-bm25's expression, on the documents holding the term
            rows, freqs = self.postings(term)
            if rows.size:
                score[rows] += self.idf(term) * (freqs * (k1 + 1) / (freqs + self._norm[rows]))
        return score
