"""Write settings: the write pipeline's extractor, confidence, deduplication, updates,
retries and contextual keys (docs/spec.md §2). ``user`` is here because it decides whom
first-person statements are about when they are written (questions read it too).

Part of :class:`graphmem.settings.Settings` as ``settings.write``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from graphmem.settings.base import (
    Concern,
    MemoryTypeName,
    SourceLevelName,
    merge_over_defaults,
    non_negative,
)


class WriteSettings(Concern):
    """Write settings (``settings.write``)."""

    user: str | None = Field(
        None,
        min_length=1,
        max_length=512,
        description="The person a namespace is about when it names none yet (first-person"
        " statements and questions bind to them; docs/updates.md). None: an implicit 'User'.",
    )
    extractor: Literal["auto", "ner", "capitalized"] = Field(
        "auto",
        description=(
            "Entity/relation extractor for text without caller-given entities or"
            " relations (docs/spec.md §11): ner (spaCy, extra graphmem[nlp]), capitalized (the"
            " fallback: capitalised multi-word names, relations only from role statements"
            ' such as "Nadia is Omar\'s sister"), or auto (ner when installed).'
        ),
    )
    source_levels: dict[SourceLevelName, float] = Field(
        default={
            "direct": 0.95,
            "confirmed": 0.80,
            "strong_inference": 0.70,
            "weak_inference": 0.50,
            "speculation": 0.30,
        },
        description=(
            "Source strength s per source level (docs/spec.md §2.1); a partial mapping changes "
            "only the keys given."
        ),
    )
    hearsay_cap: float = Field(0.50, ge=0.0, le=1.0, description="Source cap for reported speech.")
    extractor_table: dict[str, float] = Field(
        default={
            # pattern (regex, case-insensitive, first match wins) -> e   (docs/spec.md §2.2)
            r"claude.*(sonnet|opus)": 0.90,
            r"gpt-?4": 0.85,
            r"claude.*haiku": 0.80,
            r"gpt-?3\.5": 0.65,
            r"^ner$": 0.70,  # the offline spaCy extractor (docs/spec.md §11)
        },
        description=(
            "Extractor confidence e by model name: regex (case-insensitive, first match wins) -> e"
            " (docs/spec.md §2.2)."
        ),
    )
    extractor_unknown: float = Field(
        0.65,
        ge=0.0,
        le=1.0,
        description=(
            "Extractor confidence e of a model no extractor_table pattern matches (docs/spec.md "
            "§2.2)."
        ),
    )
    extractor_verbatim: float = Field(1.0, ge=0.0, le=1.0, description="docs/spec.md §9.8.")
    type_priors: dict[MemoryTypeName, float] = Field(
        default={
            "Entity": 0.90,
            "Event": 0.85,
            "Fact": 0.80,
            "Preference": 0.75,
            "Relation": 0.70,
        },
        description=(
            "Type prior t per memory type (docs/spec.md §2.3); a partial mapping changes only the "
            "keys given."
        ),
    )
    type_prior_uncertain: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description=(
            "Type prior t of a memory of type 'unknown', stored as a Fact marked type_uncertain "
            "(docs/spec.md §2.3)."
        ),
    )
    confidence_weights: tuple[float, float, float, float] = Field(
        default=(0.45, 0.20, 0.25, 0.10),
        description=(
            "Weights of s, r(n), e and t in confidence = min(1, w1·s + w2·r(n) + w3·e + w4·t) "
            "(docs/spec.md §2.5)."
        ),
    )
    grounding_floor: float = Field(
        0.3,
        ge=0.1,
        le=0.5,
        description=(
            "Confidence never goes below this through a grounding penalty (docs/spec.md §2.6, "
            "§9.3)."
        ),
    )
    grounding_penalty_partial: float = Field(
        0.15,
        ge=0.0,
        le=1.0,
        description="Subtracted from confidence for grounding 'partial' (docs/spec.md §2.6).",
    )
    grounding_penalty_unknown: float = Field(
        0.10,
        ge=0.0,
        le=1.0,
        description="Subtracted from confidence for grounding 'unknown' (docs/spec.md §2.6).",
    )
    dedup_duplicate: float = Field(
        0.92,
        ge=0.85,
        le=0.98,
        description=(
            "Dedup tier 2: cosine above which a candidate is a duplicate (docs/spec.md §2.7)."
        ),
    )
    dedup_escalate: float = Field(
        0.85,
        ge=0.75,
        le=0.92,
        description=(
            "Dedup tier 2: cosine from which a candidate is ambiguous and goes to the judge; <= "
            "dedup_duplicate (docs/spec.md §2.7)."
        ),
    )
    independence_window_hours: float = Field(
        1.0,
        ge=0.0,
        description=(
            "A duplicate from another session within this many hours counts as independent only "
            "when worded differently (docs/spec.md §2.8)."
        ),
    )
    update_margin: float = Field(
        0.15,
        ge=0.0,
        le=0.5,
        description=(
            "docs/spec.md §9.9: when two claims conflict, the later observation stays current "
            "unless"
            " the older memory's confidence exceeds the newer one's by more than this margin"
            " (an explicit correction supersedes regardless)."
        ),
    )
    confirmation_source: float = Field(
        0.80,
        ge=0.0,
        le=1.0,
        description=(
            "Source strength an explicit confirmation raises a memory to at least (docs/spec.md "
            "§2)."
        ),
    )
    confirmation_cap: float = Field(
        0.99,
        ge=0.0,
        le=1.0,
        description="Confidence cap after a confirmation (docs/spec.md §2, §8).",
    )
    write_conflict_attempts: int = Field(
        8,
        ge=1,
        le=100,
        description=(
            "Attempts of a read-modify-write (remember, confirm, correct, forget_session)"
            " whose memories another writer changed between its read and its write"
            " (optimistic concurrency: each memory carries a version the store compares in"
            " the write transaction). Each attempt re-reads and recomputes; after the last,"
            " WriteConflictError."
        ),
    )
    write_conflict_backoff_ms: float = Field(
        10.0,
        ge=0.0,
        le=10_000.0,
        description=(
            "Base of the pause between conflicting attempts: uniform in"
            " [0, base·2^(attempt-1)] ms (jitter spreads writers that collided)."
        ),
    )
    contextual_keys: bool = Field(
        True,
        description=(
            "Index each conversation turn (a candidate with a turn id and another candidate"
            " of its session in the same write) under a key built from its context: the"
            " session date or its event time, and its neighbouring turns; BM25 searches the"
            " keys, the stored content stays the claim. LoCoMo dev R@10 (bench"
            " scratch, cached lists): turns 0.695 -> 0.730, observations 0.776 -> 0.788."
        ),
    )
    dedup_neighbours: int = Field(
        4,
        ge=1,
        le=100,
        description=(
            "Nearest stored memories dedup examines per candidate (docs/spec.md §9.10): a"
            " superseded one, or one of another type, can be nearer than the duplicate it"
            " must find."
        ),
    )
    attribute_neighbours: int = Field(
        50,
        ge=1,
        le=1000,
        description=(
            "Stored memories about a new claim's subject that the attribute rule reads"
            " to find the claim it updates (docs/updates.md)."
        ),
    )
    resemblance_floor: float = Field(
        0.45,
        ge=0.0,
        le=1.0,
        description=(
            "Cosine at which a newer claim with a change word updates the older claim of its"
            ' subject it resembles most, when no attribute rule decides (docs/updates.md'
            ' "Updates by resemblance").'
        ),
    )
    resemblance_margin: float = Field(
        0.2,
        ge=0.0,
        le=1.0,
        description=(
            "How far that older claim's cosine must be ahead of the next-nearest claim of"
            ' the subject (docs/updates.md "Updates by resemblance").'
        ),
    )
    max_co_occurring: int = Field(
        6,
        ge=2,
        le=50,
        description=(
            "Entities of one memory whose pairs get co-occurrence edges, at most"
            ' (docs/extraction.md "Co-occurrence").'
        ),
    )
    key_turns_before: int = Field(
        1, ge=0, le=10, description="Turns before a turn that its contextual key holds."
    )
    key_turns_after: int = Field(
        1, ge=0, le=10, description="Turns after a turn that its contextual key holds."
    )
    key_claim_repeats: int = Field(
        3,
        ge=1,
        le=5,
        description=(
            "Times a contextual key holds the claim itself when it has neighbouring turns"
            " (a field boost: BM25 ranks a turn above the neighbours that quote it). At 1,"
            " a hit's neighbours matched as well as the hit and crowded the top 10. LoCoMo"
            " dev (bench/keys_ablation.py, cached lists, chosen leave-one-conversation-out"
            " from 1, 2, 3): R@10 turns 0.728 -> 0.742, observations 0.789 -> 0.805;"
            " multi-hop All@10 0.092 -> 0.113 and 0.191 -> 0.265."
        ),
    )

    @field_validator("source_levels", "type_priors", mode="before")
    @classmethod
    def _merge_over_defaults(cls, value: object, info: ValidationInfo) -> object:
        name = info.field_name or ""
        return merge_over_defaults(cls.model_fields[name], name, value)

    @field_validator("source_levels", "type_priors")
    @classmethod
    def _non_negative(cls, value: dict[str, float]) -> dict[str, float]:
        return non_negative(value)

    @model_validator(mode="after")
    def _dedup_order(self) -> WriteSettings:
        if self.dedup_escalate > self.dedup_duplicate:
            raise ValueError("dedup_escalate must be <= dedup_duplicate")
        return self
