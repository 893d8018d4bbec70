"""Dedup tiers 2–3 and the independence rule (SPEC §2.7–§2.8, seed 000, seed 001 App. A).

Tier 1 (exact content hash) is a store lookup in the pipeline; this module
classifies cosine similarities and decides whether a duplicate counts as a
new independent observation.
"""

from __future__ import annotations

from datetime import timedelta
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
    below → distinct (SPEC §2.7; defaults 0.92 / 0.85)."""
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
    information, a false split only costs a duplicate (seed 001 App. A)."""

    def same(self, candidate: MemoryCandidate, existing: Memory, similarity: float) -> bool:
        return False


def is_independent(
    new: Observation, existing: tuple[Observation, ...], *, window: timedelta
) -> bool:
    """SPEC §2.8: a duplicate is a new independent observation only if it comes
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
