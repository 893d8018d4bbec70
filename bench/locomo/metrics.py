"""The bench's metrics (docs/benchmarks.md "Retrieval quality: LoCoMo") and their summaries per
category.

Metrics (:func:`score_ranking`), per question, over the top 10 memories:
``R@5`` / ``R@10`` the fraction of gold units that the first 5 / 10 memories
stand for; ``MRR`` 1 / rank of the first memory standing for a gold unit;
``All@10`` 1 when every gold unit is in the top 10; ``nDCG@10`` with binary
gains over the *unit ranking*: the top 10 memories expanded into their units
in order, duplicates dropped, position ``p`` discounted by ``1/log2(p + 1)``;
the ideal ranking puts ``min(|gold|, max(10, len(unit ranking)))`` gold units
first. Without merges this is the usual nDCG@10.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

__all__ = [
    "CATEGORIES",
    "HEADLINE",
    "METRICS",
    "Row",
    "score_ranking",
    "summarize",
    "with_categories",
]

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
HEADLINE = (1, 2, 3, 4)
METRICS = ("R@5", "R@10", "nDCG@10", "MRR", "All@10")


def score_ranking(retrieved: Sequence[Sequence[str]], gold: Collection[str]) -> dict[str, float]:
    """R@5, R@10, nDCG@10, MRR, All@10 of one ranking (module docstring).

    Parameters
    ----------
    retrieved : sequence of sequence of str
        For each retrieved memory, best first, the units it stands for in
        import order; only the first 10 memories count.
    gold : collection of str
        The gold units, non-empty.

    Raises
    ------
    ValueError
        If ``gold`` is empty.

    Examples
    --------
    >>> score_ranking([["x"], ["a", "b"]], {"a", "b"})["MRR"]
    0.5
    """
    target = set(gold)
    if not target:
        raise ValueError("gold must not be empty")
    top = [tuple(units) for units in retrieved[:10]]

    def recall(n: int) -> float:
        return len(target.intersection(u for units in top[:n] for u in units)) / len(target)

    first = next((i for i, units in enumerate(top) if target.intersection(units)), None)
    ranking = list(dict.fromkeys(u for units in top for u in units))
    dcg = sum(1.0 / math.log2(p + 2) for p, u in enumerate(ranking) if u in target)
    ideal = sum(1.0 / math.log2(p + 2) for p in range(min(len(target), max(10, len(ranking)))))
    r10 = recall(10)
    return {
        "R@5": recall(5),
        "R@10": r10,
        "nDCG@10": dcg / ideal,
        "MRR": 0.0 if first is None else 1.0 / (first + 1),
        "All@10": 1.0 if r10 == 1.0 else 0.0,
    }


Row = tuple[int, dict[str, float]]  # (category, scores)


def summarize(rows: Sequence[Row], categories: Collection[int]) -> dict[str, Any]:
    """Mean of each metric over the rows in ``categories``; ``None`` when there are none."""
    chosen = [scores for category, scores in rows if category in categories]
    out: dict[str, Any] = {"questions": len(chosen)}
    for name in METRICS:
        out[name] = sum(s[name] for s in chosen) / len(chosen) if chosen else None
    return out


def with_categories(rows: Sequence[Row]) -> dict[str, Any]:
    out = summarize(rows, HEADLINE)
    out["by_category"] = {str(c): summarize(rows, (c,)) for c in CATEGORIES}
    return out
