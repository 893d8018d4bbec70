"""Rerankers (SPEC §3): a protocol and the default no-op.

A reranker reorders the top of the ranked list by a stronger relevance model
(e.g. a cross-encoder). With none configured the no-op keeps the order and
says so in every explanation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from graphmem.models import Memory


@runtime_checkable
class Reranker(Protocol):
    """Reorders ``memories`` for ``query``; returns (memory id, score) best first."""

    name: str

    def rerank(self, query: str, memories: Sequence[Memory]) -> list[tuple[str, float]]:
        """Scores for every memory given, best first."""


class NoopReranker:
    """Keeps the fused order (the default)."""

    name = "none"

    def rerank(self, query: str, memories: Sequence[Memory]) -> list[tuple[str, float]]:
        return [(m.id, float(-i)) for i, m in enumerate(memories)]
