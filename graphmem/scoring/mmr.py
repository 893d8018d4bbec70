"""Maximal Marginal Relevance re-ranking (docs/spec.md §3 "MMR").

Greedy selection of ``argmax λ·rel(m) − (1 − λ)·max_{s ∈ S} cos(m, s)``
(Carbonell & Goldstein, 1998). ``λ`` comes from ``Settings.read.ranking.mmr_lambda``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.scoring import _checks

Embedding = npt.NDArray[np.floating[Any]]


def _unit_rows(ids: list[str], embeddings: Mapping[str, Embedding]) -> npt.NDArray[np.float64]:
    """Stack the embeddings of ``ids`` as L2-normalised float64 rows (zero rows stay zero)."""
    vectors = [np.asarray(embeddings[i], dtype=np.float64) for i in ids]
    dims = {v.shape for v in vectors}
    if len(dims) > 1 or any(v.ndim != 1 for v in vectors):
        raise ValueError(f"embeddings must be 1-D vectors of one dimension, got shapes {dims}")
    matrix = np.vstack(vectors)
    if not np.all(np.isfinite(matrix)):
        raise ValueError("embeddings must not contain NaN or infinite values")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit_rows: npt.NDArray[np.float64] = np.divide(
        matrix, norms, out=np.zeros_like(matrix), where=norms > 0.0
    )
    return unit_rows


def mmr(
    relevance: Mapping[str, float],
    embeddings: Mapping[str, Embedding],
    *,
    k: int,
    lam: float,
) -> list[str]:
    """Select up to ``k`` memories balancing relevance against redundancy.

    Parameters
    ----------
    relevance : mapping of str to float
        Memory id → fused weight, ``>= 0``. It is normalised by dividing by the
        largest value (not min-max, which would force the least relevant
        candidate to 0 however close it is); all zeros stay zeros.
    embeddings : mapping of str to ndarray
        Memory id → embedding, 1-D, one dimension for all. A candidate without an
        embedding (or with a zero vector) has similarity 0 to every other one.
        Ids not in ``relevance`` are ignored.
    k : int
        Number of ids to select, ``>= 0``; fewer when there are fewer candidates.
    lam : float
        Trade-off ``λ`` in ``[0, 1]``: 1 is pure relevance, 0 pure diversity.

    Returns
    -------
    list of str
        Selected ids in selection order. Equal MMR scores go to the smaller id.

    Raises
    ------
    ValueError
        If ``k < 0``, ``lam`` is out of ``[0, 1]``, a relevance is negative or
        NaN, or the embeddings are not finite 1-D vectors of one dimension.
    """
    k = _checks.count("k", k)
    lam = _checks.unit("lam", lam)
    ids = sorted(relevance)
    rel = np.array(
        [_checks.non_negative(f"relevance[{i!r}]", relevance[i]) for i in ids], dtype=np.float64
    )
    if rel.size and rel.max() > 0.0:
        rel = rel / rel.max()
    has_vector = np.array([i in embeddings for i in ids], dtype=bool)
    vectors = (
        _unit_rows([i for i in ids if i in embeddings], embeddings) if has_vector.any() else None
    )
    row_of = np.cumsum(has_vector) - 1  # row in ``vectors`` of each candidate with one

    max_sim = np.full(len(ids), -np.inf)
    available = np.ones(len(ids), dtype=bool)
    selected: list[str] = []
    while len(selected) < min(k, len(ids)):
        penalty = np.where(np.isfinite(max_sim), max_sim, 0.0)
        scores = np.where(available, lam * rel - (1.0 - lam) * penalty, -np.inf)
        choice = int(np.argmax(scores))  # first maximum = smallest id, since ids are sorted
        selected.append(ids[choice])
        available[choice] = False
        sims = np.zeros(len(ids))
        if vectors is not None and has_vector[choice]:
            sims[has_vector] = vectors @ vectors[row_of[choice]]
        max_sim = np.maximum(max_sim, sims)
    return selected
