"""Memory dynamics on access and over time (docs/spec.md §4, §9.7).

Stability grows on each retrieval by a spaced-repetition amount (docs/spec.md §4);
salience rises on access and decays exponentially, more slowly for stable
memories (docs/spec.md §4). A composite relevance (docs/spec.md §4) is offered as an
alternative ranking profile. Constants come from :class:`graphmem.settings.Settings`.
Time intervals are in days; a negative interval (clock skew) counts as 0.
"""

from __future__ import annotations

import math

from graphmem.scoring import _checks


def spaced_rep_factor(
    days_since_last_access: float, *, interval_days: float, max_factor: float
) -> float:
    """Spaced-repetition factor ``min(max_factor, days / interval_days)`` (docs/spec.md §4).

    Parameters
    ----------
    days_since_last_access : float
        Days since the memory was last returned by a recall.
    interval_days : float
        Gap that earns the full base boost, ``> 0`` (``Settings.dynamics.spaced_rep_interval_days``).
    max_factor : float
        Cap on the factor, ``>= 0`` (``Settings.dynamics.spaced_rep_max``).

    Returns
    -------
    float
        In ``[0, max_factor]``.

    Raises
    ------
    ValueError
        If an input is NaN, infinite or out of range.
    """
    days = _checks.elapsed_days("days_since_last_access", days_since_last_access)
    interval = _checks.positive("interval_days", interval_days)
    return min(_checks.non_negative("max_factor", max_factor), days / interval)


def updated_stability(
    stability: float,
    days_since_last_access: float,
    *,
    boost: float,
    interval_days: float,
    max_factor: float,
) -> float:
    """Stability after a retrieval: ``min(1, stability + boost·f)`` (docs/spec.md §4).

    Parameters
    ----------
    stability : float
        Current stability in ``[0, 1]``.
    days_since_last_access : float
        Days since the previous access.
    boost : float
        Base boost, ``>= 0``: ``Settings.dynamics.stability_direct_boost`` for a direct
        match, ``Settings.dynamics.stability_associative_boost`` for one reached by association.
    interval_days, max_factor : float
        See :func:`spaced_rep_factor`.

    Returns
    -------
    float
        In ``[stability, 1]``.

    Examples
    --------
    >>> round(updated_stability(0.3, 10.0, boost=0.1, interval_days=7.0, max_factor=2.0), 3)
    0.443
    """
    s = _checks.unit("stability", stability)
    factor = spaced_rep_factor(
        days_since_last_access, interval_days=interval_days, max_factor=max_factor
    )
    return min(1.0, s + _checks.non_negative("boost", boost) * factor)


def salience_on_access(salience: float, *, step: float) -> float:
    """Salience after an access: ``min(1, s + step·(1 − s))`` (docs/spec.md §4, §9.7).

    Parameters
    ----------
    salience : float
        Current salience in ``[0, 1]``.
    step : float
        Fraction of the remaining headroom gained, in ``[0, 1]``
        (``Settings.dynamics.salience_access_step``).

    Returns
    -------
    float
        In ``[salience, 1]``.
    """
    s = _checks.unit("salience", salience)
    return min(1.0, s + _checks.unit("step", step) * (1.0 - s))


def decayed_salience(
    salience0: float,
    days_since_last_access: float,
    *,
    decay_rate: float,
    stability: float,
    stability_scaling: float,
) -> float:
    """Salience decayed over time: ``s0·exp(−λ·(1 − scaling·stability)·days)`` (docs/spec.md §4,
    §9.7).

    Parameters
    ----------
    salience0 : float
        Salience at the last access, in ``[0, 1]``.
    days_since_last_access : float
        Days since the last access.
    decay_rate : float
        ``λ`` per day of the memory's type, ``>= 0`` (``Settings.dynamics.salience_decay``).
    stability : float
        Memory stability in ``[0, 1]``.
    stability_scaling : float
        How much stability slows the decay, in ``[0, 1]``
        (``Settings.dynamics.salience_stability_scaling``).

    Returns
    -------
    float
        In ``[0, salience0]``.
    """
    s0 = _checks.unit("salience0", salience0)
    days = _checks.elapsed_days("days_since_last_access", days_since_last_access)
    rate = _checks.non_negative("decay_rate", decay_rate)
    slowdown = _checks.unit("stability_scaling", stability_scaling) * _checks.unit(
        "stability", stability
    )
    return s0 * math.exp(-rate * (1.0 - slowdown) * days)


def composite_relevance(
    similarity: float, salience: float, confidence: float, *, weights: tuple[float, float, float]
) -> float:
    """Composite relevance ``w1·similarity + w2·salience + w3·confidence`` (docs/spec.md §4).

    Parameters
    ----------
    similarity : float
        Cosine similarity of query and memory, in ``[-1, 1]``.
    salience, confidence : float
        Memory salience and confidence, each in ``[0, 1]``.
    weights : tuple of 3 float
        ``Settings.read.ranking.composite_weights``, each ``>= 0``.

    Returns
    -------
    float
        In ``[-w1, w1 + w2 + w3]``.

    Raises
    ------
    ValueError
        If an input is NaN, infinite or out of range.
    """
    w1, w2, w3 = _checks.weights("weights", weights, 3)
    sim = _checks.in_range("similarity", similarity, -1.0, 1.0)
    return (
        w1 * sim
        + w2 * _checks.unit("salience", salience)
        + w3 * _checks.unit("confidence", confidence)
    )
