"""What a recall takes and gives back: the query, each hit with its explanation, the
result (docs/spec.md §3). The query validates every field (raising
:class:`~graphmem.errors.InvalidQueryError` naming it); the outputs are frozen.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator

from graphmem.models.memories import Memory
from graphmem.settings import MemoryTypeName
from graphmem.types import AwareDatetime, PlanName, Profile

__all__ = ["Explanation", "RecallHit", "RecallQuery", "RecallResult", "RetrieverScore"]


class RecallQuery(BaseModel):
    """A recall request (docs/spec.md §3 input)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1, max_length=4000)
    k: int | None = Field(None, ge=1, le=1000)
    reference_time: AwareDatetime | None = None
    include_history: bool = False
    types: tuple[MemoryTypeName, ...] | None = None
    mmr: bool | None = None
    plan: PlanName | None = None
    retrievers: tuple[str, ...] | None = None
    profile: Profile = "rrf"
    rerank: bool | None = None
    session_id: str | None = None
    record_access: bool = True

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("query text must not be blank")
        return value


class RetrieverScore(BaseModel):
    """One retriever's verdict on a memory: 1-based rank and raw score."""

    model_config = ConfigDict(frozen=True)

    rank: int
    score: float
    detail: str | None = None


class Explanation(BaseModel):
    """Why a memory was recalled where it was (docs/spec.md §3 "explanation")."""

    model_config = ConfigDict(frozen=True)

    plan: PlanName
    retrievers: dict[str, RetrieverScore]
    rrf: float
    freshness: float
    access_boost: float
    confidence: float
    weight: float
    rerank: str
    renderable: bool
    session_support: float | None = Field(
        default=None,
        description="What session support added to the RRF score (graphmem.retrieval.rescoring.support);"
        " None when the plan or the settings use none.",
    )
    newer_than: str | None = Field(
        default=None,
        description="The id of an older memory with a contradicting claim that this newer"
        " one was moved above (graphmem.retrieval.ranking.currency), if any.",
    )
    reordered: str | None = Field(
        default=None,
        description="Why a rule about the question moved this memory (the asked attribute's"
        " claims up, memories about someone close to the asked person down;"
        " graphmem.retrieval.ranking.attribute_rank), if one did.",
    )
    learned: str | None = Field(
        default=None,
        description="Where the learned order moved this memory: its score and the position"
        " the rules gave it, and the rules' positions of hits it was kept below against its"
        " score (graphmem.retrieval.ranking.learned.kept_above); None when it neither moved"
        " nor was held.",
    )
    formula: str = Field(
        default="",
        description="How ``weight`` was computed for this recall (profile and modes).",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def extra(self) -> dict[str, Any]:
        """``session_support`` and ``newer_than`` where set, as one dict: the shape the
        JSON output of recall carried them in before they were fields."""
        out: dict[str, Any] = {}
        if self.session_support is not None:
            out["session_support"] = self.session_support
        if self.newer_than is not None:
            out["newer_than"] = self.newer_than
        return out


class RecallHit(BaseModel):
    """A recalled memory with its final weight and explanation."""

    model_config = ConfigDict(frozen=True)

    memory: Memory
    weight: float
    explanation: Explanation


class RecallResult(BaseModel):
    """The outcome of one recall: the plan, what the query linked, the hits."""

    model_config = ConfigDict(frozen=True)

    query: str
    namespace: str
    plan: PlanName
    specificity: float
    linked_entities: tuple[str, ...]
    time_window: tuple[datetime, datetime] | None
    weights: dict[str, float]
    hits: tuple[RecallHit, ...]
    notes: tuple[str, ...] = ()
    timings_ms: dict[str, float] = {}
