"""The LoCoMo baselines (docs/benchmarks.md): stock BM25Okapi, all-MiniLM cosine and unweighted RRF.

Scored on the same memories as graphmem (after dedup), with lower-cased
``\\w+`` tokens and RRF k = 60.

This is the only module that imports rank-bm25, for the stock ``BM25Okapi``
baseline. Its defaults differ from the SPEC's BM25 (which graphmem's stores
use): k1 = 1.5 and the ATIRE IDF ``ln((N − n + 0.5)/(n + 0.5))`` floored at
``ε·mean(idf)``, which is zero or negative for a term in half the documents or
more — on a two-document corpus every score is 0.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from rank_bm25 import BM25Okapi

from bench.locomo.dataset import QAItem
from bench.locomo.metrics import Row, score_ranking, with_categories
from graphmem.memory import GraphMem
from graphmem.store.base import Vector

__all__ = [
    "BASELINE_RRF_K",
    "baseline_rankings",
    "baseline_tokens",
    "okapi_baseline_scores",
    "score_baselines",
]

BASELINE_RRF_K = 60
_WORD = re.compile(r"\w+")


def baseline_tokens(text: str) -> list[str]:
    """The baselines' tokeniser: lower-cased ``\\w+`` (docs/benchmarks.md "Retrieval quality:
    LoCoMo")."""
    return _WORD.findall(text.lower())


def okapi_baseline_scores(
    corpus_tokens: Sequence[Sequence[str]], queries: Sequence[Sequence[str]]
) -> npt.NDArray[np.float64]:
    """Stock rank-bm25 ``BM25Okapi`` scores, for the LoCoMo baseline only (docs/benchmarks.md
    "Retrieval quality: LoCoMo").

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


def _rrf(*rankings: Sequence[int], k: int = BASELINE_RRF_K) -> list[int]:
    scores: dict[int, float] = defaultdict(float)
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] += 1.0 / (k + rank)
    return sorted(scores, key=lambda d: (-scores[d], d))


def baseline_rankings(
    contents: Sequence[str], doc_vectors: Vector, questions: Sequence[str], query_vectors: Vector
) -> dict[str, list[list[int]]]:
    """Per question, document indexes best first for stock BM25Okapi (documents
    with a positive score), all-MiniLM cosine (all documents) and unweighted RRF
    (k = 60) of the two. Ties go to the lower index."""
    bm25 = okapi_baseline_scores(
        [baseline_tokens(c) for c in contents], [baseline_tokens(q) for q in questions]
    )
    cosine = (
        np.asarray(query_vectors, dtype=np.float64) @ np.asarray(doc_vectors, dtype=np.float64).T
    )
    out: dict[str, list[list[int]]] = {"bm25": [], "dense": [], "rrf": []}
    for row in range(len(questions)):
        lexical = [int(d) for d in np.argsort(-bm25[row], kind="stable") if bm25[row, d] > 0]
        dense = [int(d) for d in np.argsort(-cosine[row], kind="stable")]
        out["bm25"].append(lexical)
        out["dense"].append(dense)
        out["rrf"].append(_rrf(lexical, dense))
    return out


def score_baselines(
    memory: GraphMem,
    imported: Sequence[tuple[str, dict[str, tuple[str, ...]], int]],
    asked: Sequence[Sequence[tuple[QAItem, set[str]]]],
) -> dict[str, Any]:
    """Score the baselines on the memories of ``imported`` for the questions of ``asked``
    (one entry per conversation each); returns the bench's per-system summaries."""
    rows: dict[str, list[Row]] = defaultdict(list)
    for (namespace, stands_for, _), questions in zip(imported, asked, strict=True):
        if not questions:
            continue
        stored = sorted(memory.store.get_memories(namespace, list(stands_for)), key=lambda m: m.id)
        contents = [m.content for m in stored]
        texts = [qa.question for qa, _ in questions]
        ranked = baseline_rankings(
            contents, memory.embedder.embed(contents), texts, memory.embedder.embed(texts)
        )
        for name, per_question in ranked.items():
            for (qa, gold), docs in zip(questions, per_question, strict=True):
                units = [stands_for[stored[d].id] for d in docs[:10]]
                rows[name].append((qa.category, score_ranking(units, gold)))
    return {name: with_categories(rows[name]) for name in ("bm25", "dense", "rrf")}
