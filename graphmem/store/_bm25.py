"""BM25 for the embedded store: rank-bm25 with Lucene's IDF (SPEC §3).

The only module that imports ``rank_bm25``. rank-bm25's ``BM25Okapi`` defaults
to k1 = 1.5 and the ATIRE IDF ``ln((N − n + 0.5)/(n + 0.5))`` floored at
``ε·mean(idf)``, which is zero or negative for a term in half the documents
or more — on a two-document corpus every score is 0. The SPEC uses Lucene's
formula, which is positive for every term that occurs::

    idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
    score(D, Q) = Σ_{t ∈ Q} idf(t) · f(t, D) · (k1 + 1)
                  / (f(t, D) + k1 · (1 − b + b · |D| / avgdl))

with ``N`` documents, ``n(t)`` of them containing ``t``, ``f(t, D)`` the
count of ``t`` in ``D`` and ``avgdl`` the mean document length in tokens.
(Lucene ≥ 8 drops the constant ``(k1 + 1)`` factor; the ranking is the same.)
A query term repeated in the query counts once per occurrence, as in
rank-bm25 and in a Lucene boolean query.

Guards: an empty corpus scores nothing (rank-bm25 divides by zero), a corpus
of empty documents has ``avgdl`` taken as 1 (rank-bm25 divides 0 by 0).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
from rank_bm25 import BM25Okapi

__all__ = ["BM25Index", "lucene_idf", "okapi_baseline_scores"]


def lucene_idf(n_docs: int, doc_freq: int) -> float:
    """Lucene's BM25 IDF, ``ln(1 + (N − n + 0.5) / (n + 0.5))`` (SPEC §3).

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


class _LuceneOkapi(BM25Okapi):  # type: ignore[misc]  # rank_bm25 is untyped
    """``BM25Okapi`` whose IDF is Lucene's (no ε floor, never negative)."""

    def _calc_idf(self, nd: Mapping[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = lucene_idf(self.corpus_size, freq)


class BM25Index:
    """An immutable BM25 index over pre-tokenised documents.

    Parameters
    ----------
    documents : sequence of sequence of str
        One token list per document (``graphmem.text.tokenize``); may be empty.
    k1 : float
        Term-frequency saturation, ``> 0`` (SPEC: 1.2).
    b : float
        Length normalisation, in ``[0, 1]`` (SPEC: 0.75).

    Raises
    ------
    ValueError
        If ``k1 <= 0`` or ``b`` is outside ``[0, 1]``.
    """

    def __init__(self, documents: Sequence[Sequence[str]], *, k1: float, b: float) -> None:
        if not (math.isfinite(k1) and k1 > 0.0):
            raise ValueError(f"k1 must be > 0, got {k1}")
        if not (math.isfinite(b) and 0.0 <= b <= 1.0):
            raise ValueError(f"b must be in [0, 1], got {b}")
        self._n_docs = len(documents)
        self._okapi: _LuceneOkapi | None = None
        if self._n_docs:
            self._okapi = _LuceneOkapi([list(doc) for doc in documents], k1=k1, b=b)
            if self._okapi.avgdl == 0:  # every document is empty: nothing can match
                self._okapi.avgdl = 1.0

    @property
    def n_docs(self) -> int:
        """Number of documents ``N``."""
        return self._n_docs

    def idf(self, term: str) -> float:
        """Lucene IDF of ``term``; 0.0 for a term no document contains."""
        if self._okapi is None:
            return 0.0
        return float(self._okapi.idf.get(term, 0.0))

    def doc_terms(self, row: int) -> Iterable[str]:
        """Distinct terms of document ``row``."""
        if self._okapi is None:
            raise IndexError(row)
        terms: dict[str, int] = self._okapi.doc_freqs[row]
        return terms.keys()

    def scores(self, query: Sequence[str]) -> npt.NDArray[np.float64]:
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
        if self._okapi is None or not query:
            return np.zeros(self._n_docs, dtype=np.float64)
        return np.asarray(self._okapi.get_scores(list(query)), dtype=np.float64)


def okapi_baseline_scores(
    corpus_tokens: Sequence[Sequence[str]], queries: Sequence[Sequence[str]]
) -> npt.NDArray[np.float64]:
    """Stock rank-bm25 ``BM25Okapi`` scores, for the LoCoMo baseline only (BENCHMARKS.md §1).

    The plain baseline graphmem is compared with: rank-bm25's defaults
    (k1 = 1.5, b = 0.75, ATIRE IDF with its ε floor), *not* the Lucene IDF
    graphmem itself uses.

    Parameters
    ----------
    corpus_tokens : sequence of sequence of str
        One token list per document; may be empty.
    queries : sequence of sequence of str
        One token list per query.

    Returns
    -------
    numpy.ndarray of float64, shape (len(queries), len(corpus_tokens))
        Zeros for a corpus with no tokens or an empty query (rank-bm25 would
        divide by zero).
    """
    out = np.zeros((len(queries), len(corpus_tokens)), dtype=np.float64)
    if not any(corpus_tokens):  # no document or no token: rank-bm25 divides by zero
        return out
    okapi = BM25Okapi([list(doc) for doc in corpus_tokens])
    for row, query in enumerate(queries):
        if query:
            out[row] = np.asarray(okapi.get_scores(list(query)), dtype=np.float64)
    return out
