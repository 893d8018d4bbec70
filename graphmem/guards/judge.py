"""Judge protocols of the guards (docs/spec.md §10, §11: "with an LLM judge configured").

A judge replaces the offline rule where the rule cannot tell: whether a memory entails
a claim (read-time faithfulness) and whether two similar memories about one subject
contradict each other (the consistency scan's ambiguous pairs). Any object with these
methods serves; graphmem's default is no judge (the offline rule decides).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from graphmem.models import Memory

__all__ = ["ClaimJudge", "ClaimVerdict", "PairJudge", "PairVerdict"]


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """A judge's verdict on one claim: ``memory_id`` is the memory that entails it
    (``None`` when unsupported); ``reason`` explains, in words."""

    supported: bool
    memory_id: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class PairVerdict:
    """A judge's verdict on two memories: ``"conflict"`` (they cannot both be true
    now), ``"compatible"`` (both can), or ``"unsure"`` (the offline rule stands)."""

    verdict: Literal["conflict", "compatible", "unsure"]
    reason: str


@runtime_checkable
class ClaimJudge(Protocol):
    """Decides whether some memory entails a claim (docs/spec.md §10 read-time faithfulness)."""

    name: str

    def judge_claim(self, claim: str, memories: Sequence[Memory]) -> ClaimVerdict:
        """The verdict on ``claim`` given the ``memories`` closest to it (by cosine,
        best first; at most a handful)."""


@runtime_checkable
class PairJudge(Protocol):
    """Decides whether two memories about one subject contradict (docs/spec.md §10 scan)."""

    name: str

    def judge_pair(self, first: Memory, second: Memory, similarity: float) -> PairVerdict:
        """The verdict on the pair (``similarity``: cosine of their embeddings)."""
