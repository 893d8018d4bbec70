"""Weighted Reciprocal Rank Fusion (docs/spec.md §3 "Fusion").

``RRF(m) = Σ_i w_i / (k + rank_i(m))`` over the retrievers whose list holds
``m``; ranks are 1-based and scores are unitless. ``k`` and the weights come
from :class:`graphmem.settings.Settings` (``rrf_k``, ``retriever_weights``)
or from the query plan.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from graphmem.scoring import _checks


def weighted_rrf(
    rankings: Mapping[str, Sequence[str]], weights: Mapping[str, float], *, k: int
) -> list[tuple[str, float]]:
    """Fuse ranked lists of memory ids with weighted RRF.

    Parameters
    ----------
    rankings : mapping of str to sequence of str
        Retriever name → memory ids, best first. The rank of an id is its
        1-based position in the list; an id listed twice counts once, at its
        best (first) position.
    weights : mapping of str to float
        Retriever name → weight ``>= 0``. A retriever missing from ``weights``
        has weight 0. A retriever with weight 0 contributes nothing, and a
        memory that only such retrievers return is left out of the result
        (so a plan can switch a retriever off by zeroing its weight).
    k : int
        Smoothing constant, ``>= 0`` (``Settings.read.fusion.rrf_k``, default 60).

    Returns
    -------
    list of (str, float)
        ``(memory id, RRF score)`` sorted by score descending, then id ascending.

    Raises
    ------
    ValueError
        If ``k < 0`` or a weight is negative, NaN or infinite.

    Examples
    --------
    >>> weighted_rrf({"semantic": ["a", "b"], "bm25": ["b"]}, {"semantic": 1.0, "bm25": 1.0}, k=60)
    [('b', 0.03252247488101534), ('a', 0.01639344262295082)]
    """
    k = _checks.count("k", k)
    checked = {name: _checks.non_negative(f"weights[{name!r}]", w) for name, w in weights.items()}
    terms: dict[str, list[float]] = {}
    for retriever in sorted(rankings):
        weight = checked.get(retriever, 0.0)
        if weight == 0.0:
            continue
        seen: set[str] = set()
        for position, memory_id in enumerate(rankings[retriever], start=1):
            if memory_id in seen:
                continue
            seen.add(memory_id)
            terms.setdefault(memory_id, []).append(weight / (k + position))
    fused = [(memory_id, math.fsum(parts)) for memory_id, parts in terms.items()]
    fused.sort(key=lambda item: (-item[1], item[0]))
    return fused
