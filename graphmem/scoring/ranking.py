"""Final weight, confidence gates and retrievability (docs/spec.md §3, §4, §9.4–§9.6).

``weight(m) = RRF(m) × freshness(m) × access_boost(m)`` (docs/spec.md §3 "Final weight"); confidence
acts through the gates and the retrievability threshold, not through the weight (§9.6). Constants
come from :class:`graphmem.settings.Settings`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from graphmem.scoring import _checks


def freshness(age_days: float, half_life_days: float, stability: float, *, floor: float) -> float:
    """Freshness ``max(floor, 2^(−age / (τ·(1 + stability))))`` (docs/spec.md §3).

    Parameters
    ----------
    age_days : float
        Days since ``last_observed_at`` (§9.4). A negative age (clock skew) counts as 0.
    half_life_days : float
        Half-life ``τ`` of the memory's type in days, ``> 0`` (``Settings.read.ranking.half_life_days``).
    stability : float
        Memory stability in ``[0, 1]``; it stretches the half-life up to ``2τ``.
    floor : float
        Lowest freshness, in ``[0, 1]`` (``Settings.read.ranking.freshness_floor``).

    Returns
    -------
    float
        In ``[floor, 1]``; non-increasing in age, non-decreasing in stability.

    Raises
    ------
    ValueError
        If an input is NaN, infinite or out of range.

    Examples
    --------
    >>> freshness(90.0, 90.0, 0.0, floor=0.1)
    0.5
    """
    age = _checks.elapsed_days("age_days", age_days)
    tau = _checks.positive("half_life_days", half_life_days)
    tau_eff = tau * (1.0 + _checks.unit("stability", stability))
    return max(_checks.unit("floor", floor), math.pow(2.0, -age / tau_eff))


def access_boost(access_count: int) -> float:
    """Access boost ``1 + ln(1 + access_count)`` (docs/spec.md §3).

    Parameters
    ----------
    access_count : int
        Times the memory was returned by a recall, ``>= 0``.

    Returns
    -------
    float
        ``>= 1``; 1 for a memory never accessed.

    Raises
    ------
    ValueError
        If ``access_count < 0``.
    """
    return 1.0 + math.log1p(_checks.count("access_count", access_count))


def final_weight(rrf: float, freshness: float, access_boost: float) -> float:
    """Final retrieval weight ``rrf × freshness × access_boost`` (docs/spec.md §3, §9.6).

    Parameters
    ----------
    rrf : float
        Weighted RRF score, ``>= 0``.
    freshness : float
        Freshness in ``[0, 1]``.
    access_boost : float
        Access boost, ``>= 1``.

    Returns
    -------
    float
        ``>= 0``.

    Raises
    ------
    ValueError
        If an input is NaN, infinite or out of range.
    """
    rrf = _checks.non_negative("rrf", rrf)
    fresh = _checks.unit("freshness", freshness)
    boost = _checks.finite("access_boost", access_boost)
    if boost < 1.0:
        raise ValueError(f"access_boost must be >= 1, got {access_boost!r}")
    return rrf * fresh * boost


def confidence_gate(confidences: Mapping[str, float], *, min_confidence: float) -> set[str]:
    """Ids that pass the retrieval confidence filter (docs/spec.md §3 "Confidence gates").

    Parameters
    ----------
    confidences : mapping of str to float
        Memory id → confidence in ``[0, 1]``.
    min_confidence : float
        Filter threshold (``Settings.read.ranking.min_confidence``).

    Returns
    -------
    set of str
        Ids with confidence ``>= min_confidence``; when none qualifies, every id
        (the fallback keeps a query from coming back empty).

    Raises
    ------
    ValueError
        If a confidence or the threshold is NaN or out of ``[0, 1]``.
    """
    threshold = _checks.unit("min_confidence", min_confidence)
    kept = {
        memory_id
        for memory_id, conf in confidences.items()
        if _checks.unit(f"confidences[{memory_id!r}]", conf) >= threshold
    }
    return kept if kept else set(confidences)


def renderable(confidence: float, *, render_gate: float) -> bool:
    """Whether a result may be rendered into agent context (docs/spec.md §3 "render gate").

    Parameters
    ----------
    confidence : float
        Memory confidence in ``[0, 1]``.
    render_gate : float
        ``Settings.read.ranking.render_gate``; results below it are never rendered.

    Returns
    -------
    bool
        ``confidence >= render_gate``.
    """
    return _checks.unit("confidence", confidence) >= _checks.unit("render_gate", render_gate)


def retrievability_threshold(confidence: float, *, factor: float) -> float:
    """Retrievability threshold ``θ = min(1, factor·(1 − conf))`` (docs/spec.md §4, §9.5).

    Parameters
    ----------
    confidence : float
        Memory confidence in ``[0, 1]``.
    factor : float
        ``Settings.dynamics.retrievability_factor``, ``> 0``.

    Returns
    -------
    float
        Freshness a memory needs to stay retrievable, in ``[0, 1]``.

    Examples
    --------
    >>> round(retrievability_threshold(0.85, factor=1.5), 3)
    0.225
    """
    conf = _checks.unit("confidence", confidence)
    return min(1.0, _checks.positive("factor", factor) * (1.0 - conf))


def is_retrievable(freshness: float, confidence: float, *, factor: float) -> bool:
    """Whether a memory stays retrievable: ``freshness >= θ(conf)`` (docs/spec.md §4, §9.5).

    Parameters
    ----------
    freshness : float
        Current freshness in ``[0, 1]`` (see :func:`freshness`).
    confidence : float
        Memory confidence in ``[0, 1]``.
    factor : float
        ``Settings.dynamics.retrievability_factor``.

    Returns
    -------
    bool
        False when the consolidation pass should mark the memory non-retrievable.
    """
    fresh = _checks.unit("freshness", freshness)
    return fresh >= retrievability_threshold(confidence, factor=factor)


def unretrievable_after_days(
    half_life_days: float, stability: float, confidence: float, *, floor: float, factor: float
) -> float:
    """Age at which a memory stops being retrievable (docs/spec.md §3 freshness, §9.5 threshold).

    Freshness ``max(floor, 2^(−age/τ_eff))`` falls below ``θ = min(1, factor·(1 − conf))``
    once ``2^(−age/τ_eff) < θ``, i.e. after ``age* = τ_eff·log2(1/θ)`` days, with
    ``τ_eff = τ·(1 + stability)``; never when ``θ <= floor`` (the floor keeps it above).

    Parameters
    ----------
    half_life_days : float
        Half-life ``τ`` of the memory's type, ``> 0``.
    stability : float
        Memory stability in ``[0, 1]``.
    confidence : float
        Memory confidence in ``[0, 1]``.
    floor : float
        ``Settings.read.ranking.freshness_floor``.
    factor : float
        ``Settings.dynamics.retrievability_factor``.

    Returns
    -------
    float
        ``age*`` in days, ``>= 0`` (``0`` when ``θ = 1``), or ``math.inf``.

    Examples
    --------
    >>> round(unretrievable_after_days(90.0, 0.0, 0.85, floor=0.1, factor=1.5), 1)
    193.7
    >>> unretrievable_after_days(90.0, 0.0, 0.95, floor=0.1, factor=1.5)
    inf
    """
    tau = _checks.positive("half_life_days", half_life_days)
    tau_eff = tau * (1.0 + _checks.unit("stability", stability))
    theta = retrievability_threshold(confidence, factor=factor)
    if theta <= _checks.unit("floor", floor):
        return math.inf
    return tau_eff * math.log2(1.0 / theta)


@dataclass(frozen=True, slots=True)
class RankScore:
    """One candidate's place in a recall's order (docs/spec.md §3, §9.12): ``weight`` (the sort
    key and the hit's weight, ``>= 0``), its ``freshness`` in ``[0, 1]`` and its
    ``access_boost`` ``>= 1`` (tie-breaks, in that order)."""

    weight: float
    freshness: float
    access_boost: float


def rank_score(
    relevance: float,
    freshness: float,
    access_boost: float,
    *,
    freshness_mode: str,
    access_mode: str,
) -> RankScore:
    """A candidate's weight from its relevance (RRF, plus session support where the
    plan uses it), freshness and access boost (docs/spec.md §3 with the §9.12 departure).

    ``"weight"`` mode multiplies a factor in, as docs/spec.md §3's
    ``weight = RRF × freshness × access_boost``; ``"tiebreak"`` (graphmem's default for
    both, measured on LoCoMo: decay and use must not bury evidence) leaves it out of the
    weight, and :func:`rank_order` uses it to order equal weights.

    Parameters
    ----------
    relevance : float
        ``>= 0``.
    freshness : float
        In ``[0, 1]`` (:func:`freshness`).
    access_boost : float
        ``>= 1`` (:func:`access_boost`).
    freshness_mode, access_mode : {"weight", "tiebreak"}
        ``Settings.read.ranking.freshness_mode`` and ``Settings.read.ranking.access_mode``.

    Raises
    ------
    ValueError
        For an unknown mode or an input out of range.

    Examples
    --------
    >>> rank_score(1 / 61, 0.5, 1.5, freshness_mode="weight", access_mode="weight").weight
    0.012295081967213115
    >>> rank_score(1 / 61, 0.5, 1.5, freshness_mode="tiebreak", access_mode="tiebreak").weight
    0.01639344262295082
    """
    for name, mode in (("freshness_mode", freshness_mode), ("access_mode", access_mode)):
        if mode not in ("weight", "tiebreak"):
            raise ValueError(f"{name} must be 'weight' or 'tiebreak', got {mode!r}")
    factor = access_boost if access_mode == "weight" else 1.0
    fresh = freshness if freshness_mode == "weight" else 1.0
    weight = final_weight(relevance, fresh, factor)
    _checks.unit("freshness", freshness)
    return RankScore(weight, freshness, access_boost)


def rank_order(scores: Mapping[str, RankScore], confidences: Mapping[str, float]) -> list[str]:
    """Ids best first: by weight, then freshness, then access boost, then confidence
    (each descending), then id — a total order, so a recall is deterministic.

    Parameters
    ----------
    scores : mapping of str to RankScore
        Memory id → its score (:func:`rank_score`).
    confidences : mapping of str to float
        Memory id → confidence; every id of ``scores`` must be present.

    Raises
    ------
    KeyError
        When an id of ``scores`` has no confidence.
    """
    return sorted(
        scores,
        key=lambda i: (
            -scores[i].weight,
            -scores[i].freshness,
            -scores[i].access_boost,
            -confidences[i],
            i,
        ),
    )
