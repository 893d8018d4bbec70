"""Write-time confidence of a memory (docs/spec.md §2.1–§2.6, §2.9, §2.10).

``conf = min(1, ws·s + wr·r(n) + we·e + wt·t)`` where ``s`` is source strength,
``r(n)`` the repetition boost over ``n`` independent observations, ``e`` the
extractor confidence and ``t`` the type prior (docs/spec.md §2.5). Every constant comes from
:class:`graphmem.settings.Settings`; the callers pass it in. All scores are unitless and lie in
``[0, 1]``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TypeVar

from graphmem.scoring import _checks

_GROUNDINGS = ("supported", "partial", "unknown")
# Key type of a settings mapping: ``str`` or a ``Literal`` of names. Mapping keys are
# invariant, so ``Mapping[str, float]`` would refuse ``Settings.write.source_levels``.
_Name = TypeVar("_Name", bound=str)


def source_strength(
    levels_observed: Sequence[str],
    *,
    levels: Mapping[_Name, float],
    hearsay: bool = False,
    hearsay_cap: float,
) -> float:
    """Source strength ``s`` of a claim (docs/spec.md §2.1).

    Parameters
    ----------
    levels_observed : sequence of str
        The source level of every turn that states the claim (non-empty).
    levels : mapping of str to float
        Value of each level in ``[0, 1]`` (``Settings.write.source_levels``).
    hearsay : bool
        Whether the claim is reported speech; ``s`` is then capped.
    hearsay_cap : float
        Cap on ``s`` for hearsay, in ``[0, 1]`` (``Settings.write.hearsay_cap``).

    Returns
    -------
    float
        ``max`` of the observed levels' values, capped for hearsay; in ``[0, 1]``.

    Raises
    ------
    ValueError
        If ``levels_observed`` is empty or names a level not in ``levels``.
    """
    if not levels_observed:
        raise ValueError("levels_observed must name at least one source level")
    known: dict[str, float] = {name: value for name, value in levels.items()}
    values = []
    for level in levels_observed:
        if level not in known:
            raise ValueError(
                f"levels_observed: unknown source level {level!r}; known: {sorted(known)}"
            )
        values.append(_checks.unit(f"levels[{level!r}]", known[level]))
    s = max(values)
    return min(s, _checks.unit("hearsay_cap", hearsay_cap)) if hearsay else s


def extractor_confidence(
    extractor: str | None,
    logprobs: Sequence[float] | None = None,
    *,
    table: Mapping[str, float],
    unknown: float,
    verbatim: float,
) -> float:
    """Extractor confidence ``e`` (docs/spec.md §2.2, §9.8).

    Parameters
    ----------
    extractor : str or None
        Model name (e.g. ``"claude-3-haiku-20240307"``), ``"verbatim"`` when the
        memory's content is the source text itself, or None when unknown.
    logprobs : sequence of float, optional
        Token log-probabilities (natural log, each ``<= 0``) of the extracted span.
    table : mapping of str to float
        Regex pattern → ``e``; the first pattern that ``re.search``-es the name,
        case-insensitively, wins (``Settings.write.extractor_table``).
    unknown : float
        ``e`` for a model no pattern matches (``Settings.write.extractor_unknown``).
    verbatim : float
        ``e`` for verbatim content (``Settings.write.extractor_verbatim``).

    Returns
    -------
    float
        In order: ``verbatim`` for the extractor ``"verbatim"``; the geometric
        mean token probability ``exp(mean(logprobs))`` when logprobs are given;
        the first matching table value; else ``unknown``. In ``[0, 1]``.

    Raises
    ------
    ValueError
        If ``logprobs`` is empty or holds a NaN, infinite or positive value, or a
        table pattern is not a valid regex.
    """
    if extractor is not None and extractor.strip().lower() == "verbatim":
        return _checks.unit("verbatim", verbatim)
    if logprobs is not None:
        if len(logprobs) == 0:
            raise ValueError("logprobs must be non-empty when given")
        values = [_checks.finite(f"logprobs[{i}]", lp) for i, lp in enumerate(logprobs)]
        if any(lp > 0.0 for lp in values):
            raise ValueError("logprobs must all be <= 0 (natural-log probabilities)")
        return math.exp(math.fsum(values) / len(values))
    if extractor is not None:
        for pattern, value in table.items():
            try:
                matched = re.search(pattern, extractor, flags=re.IGNORECASE)
            except re.error as exc:
                raise ValueError(f"table: invalid regex {pattern!r}: {exc}") from exc
            if matched:
                return _checks.unit(f"table[{pattern!r}]", value)
    return _checks.unit("unknown", unknown)


def type_prior(
    memory_type: str | None, *, priors: Mapping[_Name, float], uncertain: float
) -> tuple[float, bool]:
    """Type prior ``t`` and the ``type_uncertain`` flag (docs/spec.md §2.3).

    Returns ``(priors[memory_type], False)`` for a type in ``priors``
    (``Settings.write.type_priors``), else ``(uncertain, True)``
    (``Settings.write.type_prior_uncertain``): an unknown or None type is stored as an
    uncertain Fact. Priors lie in ``[0, 1]``.
    """
    known: dict[str, float] = {name: value for name, value in priors.items()}
    if memory_type is not None and memory_type in known:
        return _checks.unit(f"priors[{memory_type!r}]", known[memory_type]), False
    return _checks.unit("uncertain", uncertain), True


def repetition_boost(n: int) -> float:
    """Repetition boost ``r(n) = 1 − 1/(1 + ln(1 + n))`` (docs/spec.md §2.4, §9.2).

    Parameters
    ----------
    n : int
        Number of independent observations, ``>= 0`` (docs/spec.md §9.1).

    Returns
    -------
    float
        In ``[0, 1)``; ``r(0) = 0``, strictly increasing in ``n``. ``ValueError`` if ``n < 0``.

    Examples
    --------
    >>> round(repetition_boost(3), 4)
    0.5809
    """
    n = _checks.count("n", n)
    return 1.0 - 1.0 / (1.0 + math.log1p(n))


def confidence(
    s: float, n: int, e: float, t: float, *, weights: tuple[float, float, float, float]
) -> float:
    """Confidence ``min(1, ws·s + wr·r(n) + we·e + wt·t)`` (docs/spec.md §2.5).

    Parameters
    ----------
    s, e, t : float
        Source strength, extractor confidence and type prior, each in ``[0, 1]``.
    n : int
        Independent observations, ``>= 0``.
    weights : tuple of 4 float
        ``(ws, wr, we, wt)``, each ``>= 0`` (``Settings.write.confidence_weights``).

    Returns
    -------
    float
        In ``[0, 1]``; non-decreasing in each of ``s``, ``n``, ``e``, ``t``.

    Raises
    ------
    ValueError
        If an input is out of range, NaN, or ``weights`` has not 4 entries.
    """
    ws, wr, we, wt = _checks.weights("weights", weights, 4)
    terms = (
        ws * _checks.unit("s", s),
        wr * repetition_boost(n),
        we * _checks.unit("e", e),
        wt * _checks.unit("t", t),
    )
    return min(1.0, math.fsum(terms))


def apply_grounding(
    conf: float, grounding: str, *, floor: float, partial_penalty: float, unknown_penalty: float
) -> float:
    """Confidence after the grounding verdict (docs/spec.md §2.6, §9.3).

    ``supported`` keeps ``conf``; ``partial`` / ``unknown`` give
    ``max(floor, conf − penalty)``, but a penalty never *raises* a confidence
    that was already below the floor: the result is ``min(conf, …)``.

    Parameters
    ----------
    conf : float
        Confidence before grounding, in ``[0, 1]``.
    grounding : {"supported", "partial", "unknown"}
        Verdict of the grounding check.
    floor : float
        Lowest confidence a penalty can bring a memory to (``Settings.write.grounding_floor``).
    partial_penalty, unknown_penalty : float
        Amount subtracted for each verdict, in ``[0, 1]``.

    Returns
    -------
    float
        Adjusted confidence in ``[0, 1]``, never above ``conf``.

    Raises
    ------
    ValueError
        If ``grounding`` is ``"unsupported"`` (the caller rejects the candidate)
        or any other unknown verdict, or a number is out of range.
    """
    conf = _checks.unit("conf", conf)
    floor = _checks.unit("floor", floor)
    if grounding == "supported":
        return conf
    if grounding == "partial":
        penalty = _checks.unit("partial_penalty", partial_penalty)
    elif grounding == "unknown":
        penalty = _checks.unit("unknown_penalty", unknown_penalty)
    elif grounding == "unsupported":
        raise ValueError("grounding: 'unsupported' candidates are rejected, not scored")
    else:
        raise ValueError(f"grounding must be one of {_GROUNDINGS}, got {grounding!r}")
    return min(conf, max(floor, conf - penalty))


def merged_confidence(old_confidence: float, new_confidence: float, recomputed: float) -> float:
    """Confidence after a merge: ``max`` of the three; never lowers (docs/spec.md §2.9).

    ``old_confidence`` and ``new_confidence`` are the stored confidences of the
    two memories, ``recomputed`` the confidence with the merged ``s`` and
    ``r(n_old + n_new)``; all in ``[0, 1]``, and so is the result.
    """
    return max(
        _checks.unit("old_confidence", old_confidence),
        _checks.unit("new_confidence", new_confidence),
        _checks.unit("recomputed", recomputed),
    )


def confirmed(
    s: float,
    n: int,
    e: float,
    t: float,
    *,
    weights: tuple[float, float, float, float],
    confirmation_source: float,
    cap: float,
) -> tuple[float, int, float]:
    """Evidence after an explicit user confirmation (docs/spec.md §2.10).

    Parameters are those of :func:`confidence`, plus ``confirmation_source``
    (``Settings.write.confirmation_source``) and ``cap`` (``Settings.write.confirmation_cap``:
    even a confirmed memory stays fallible), both in ``[0, 1]``.

    Returns
    -------
    tuple of (float, int, float)
        ``(s', n', conf')`` with ``s' = max(s, confirmation_source)``,
        ``n' = n + 1`` and ``conf' = min(cap, confidence(s', n', e, t))``. The
        caller floors ``conf'`` at the stored confidence if it must never drop.
    """
    s_new = max(_checks.unit("s", s), _checks.unit("confirmation_source", confirmation_source))
    n_new = _checks.count("n", n) + 1
    conf = min(_checks.unit("cap", cap), confidence(s_new, n_new, e, t, weights=weights))
    return s_new, n_new, conf
