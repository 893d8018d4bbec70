"""Dedup tiers 2–3 and the independence rule (docs/spec.md §2.7–§2.8).

Tier 1 (exact content hash) is a store lookup in the pipeline; this module
classifies cosine similarities and decides whether a duplicate counts as a
new independent observation.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import Enum
from typing import Protocol, runtime_checkable

from graphmem.models import Memory, MemoryCandidate, Observation


class Verdict(Enum):
    """Tier-2 classification of a candidate against its nearest memory."""

    DUPLICATE = "duplicate"
    AMBIGUOUS = "ambiguous"
    DISTINCT = "distinct"


def classify_similarity(cosine: float, *, duplicate: float, escalate: float) -> Verdict:
    """Tier 2: ``> duplicate`` → duplicate; ``[escalate, duplicate]`` → ambiguous;
    below → distinct (docs/spec.md §2.7; defaults 0.92 / 0.85)."""
    if cosine > duplicate:
        return Verdict.DUPLICATE
    if cosine >= escalate:
        return Verdict.AMBIGUOUS
    return Verdict.DISTINCT


@runtime_checkable
class DedupJudge(Protocol):
    """Tier 3: decides ambiguous pairs (e.g. an LLM call)."""

    def same(self, candidate: MemoryCandidate, existing: Memory, similarity: float) -> bool:
        """True when ``candidate`` states the same claim as ``existing``."""


class KeepDistinctJudge:
    """The default judge: ambiguous pairs stay distinct — a false merge destroys
    information, a false split only costs a duplicate (docs/spec.md §2.7)."""

    def same(self, candidate: MemoryCandidate, existing: Memory, similarity: float) -> bool:
        return False


def is_independent(
    new: Observation, existing: tuple[Observation, ...], *, window: timedelta
) -> bool:
    """docs/spec.md §2.8: a duplicate is a new independent observation only if it comes
    from a different session and — when that session is less than ``window``
    from an existing observation — its surface form differs. Same turn: never.
    """
    for old in existing:
        if new.turn_id is not None and old.turn_id == new.turn_id:
            return False
        if old.session_id == new.session_id:
            return False
    for old in existing:
        close = abs(new.observed_at - old.observed_at) < window
        if close and old.surface_hash == new.surface_hash:
            return False
    return True


def already_recorded(new: Observation, existing: tuple[Observation, ...]) -> bool:
    """True when this exact observation (session, turn, surface) is already stored:
    a retried write, which must change nothing."""
    return any(
        old.session_id == new.session_id
        and old.turn_id == new.turn_id
        and old.surface_hash == new.surface_hash
        for old in existing
    )


def update_wins(
    new_confidence: float,
    new_observed_at: datetime,
    old_confidence: float,
    old_observed_at: datetime,
    *,
    margin: float,
) -> bool:
    """docs/spec.md §9.9 (amends §2.11): of two conflicting claims, does the one observed at
    ``new_observed_at`` stay current?

    The later observation wins unless the other's confidence exceeds it by more than
    ``margin`` (``Settings.write.update_margin``, default 0.15, range 0–0.5). Equal times
    count the first argument (the claim arriving now) as the later one.

    >>> from datetime import UTC, datetime
    >>> t0, t1 = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC)
    >>> update_wins(0.75, t1, 0.75, t0, margin=0.15)  # an equal-confidence update
    True
    >>> update_wins(0.60, t1, 0.80, t0, margin=0.15)  # the old one is far more confident
    False
    >>> update_wins(0.95, t0, 0.70, t1, margin=0.15)  # an older claim, far more confident
    True
    """
    if new_observed_at >= old_observed_at:
        return not old_confidence - new_confidence > margin
    return new_confidence - old_confidence > margin
