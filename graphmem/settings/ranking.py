"""Read ranking settings: the final weight, freshness and access, the gates and MMR
(docs/spec.md §3, §9.12).

Part of :class:`graphmem.settings.Settings` as ``settings.read.ranking``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from graphmem.settings.base import Concern, MemoryTypeName, merge_over_defaults, non_negative


class RankingSettings(Concern):
    """Read ranking settings (``settings.read.ranking``)."""

    half_life_days: dict[MemoryTypeName, float] = Field(
        default={
            "Entity": 365.0,
            "Fact": 180.0,
            "Relation": 180.0,
            "Preference": 90.0,
            "Event": 30.0,
        },
        description=(
            'Freshness half-life τ in days per memory type (docs/spec.md §3 "Final weight"); a '
            "partial mapping changes only the keys given."
        ),
    )
    freshness_floor: float = Field(
        0.1,
        ge=0.0,
        le=0.3,
        description='Freshness never goes below this (docs/spec.md §3 "Final weight").',
    )
    # Measured on LoCoMo dev (bench/calibrate.py): multiplying by freshness buries
    # old but relevant evidence — R@10 0.42 vs 0.56 (turns), 0.50 vs 0.72
    # (observations) with docs/spec.md §3 weights. Decay still acts through the tie-break, the
    # retrievability flag and the cold tier (docs/spec.md §4, §9.5).
    freshness_mode: Literal["weight", "tiebreak"] = Field(
        "tiebreak",
        description=(
            "'weight': weight = RRF × freshness × access boost (docs/spec.md §3). "
            "'tiebreak': weight = RRF × access boost, freshness orders equal weights."
        ),
    )
    # Access and currency (docs/benchmarks.md "Memory over time", docs/spec.md §9.9, §9.11,
    # §9.12): what is current must win and use must not degrade recall; measured on the
    # lifecycle bench and LoCoMo together.
    access_mode: Literal["weight", "tiebreak"] = Field(
        "tiebreak",
        description=(
            "How the access boost 1 + ln(1 + access_count) counts (docs/spec.md §9.12). 'tiebreak'"
            " (default): it orders memories of equal weight after freshness, so recall after"
            " use ranks as recall fresh does; 'weight': it multiplies the weight (docs/spec.md §3),"
            " which lets past answers crowd out right ones (the lifecycle bench's lock-in)."
        ),
    )
    access_count_top: int = Field(
        3,
        ge=0,
        le=1000,
        description=(
            "What a recall counts as an access (docs/spec.md §9.12): only its top N results that a"
            " retriever found directly (not through an association) and that pass the render"
            " gate get the access update (count, stability, salience, reactivation). 0: none."
        ),
    )
    access_write_window_ms: int = Field(
        0,
        ge=0,
        le=10_000,
        description=(
            "Recalls record their access updates on a background thread, which writes the"
            " recalls queued meanwhile together (one access transaction for several;"
            " graphmem.retrieval.access.AccessWriter) and waits up to this long for more"
            " first. Reads through the facade, flush() and close() write what is pending"
            " first, but a recall does not: with a window, a recall right after another may"
            " rank without the other's access updates. 0 (default): written as soon as the"
            " thread is free, and a recall waits for what is still pending, so the next"
            " recall sees them."
        ),
    )
    min_confidence: float = Field(
        0.5,
        ge=0.3,
        le=0.8,
        description=(
            "Candidates below this confidence are dropped unless none reaches it (docs/spec.md §3 "
            '"Confidence gates").'
        ),
    )
    render_gate: float = Field(
        0.4,
        ge=0.0,
        le=1.0,
        description=(
            "Results below this confidence are returned but never rendered into context "
            '(docs/spec.md §3 "Confidence gates").'
        ),
    )
    mmr_lambda: float = Field(
        0.7,
        ge=0.5,
        le=0.9,
        description='MMR trade-off λ between relevance and novelty (docs/spec.md §3 "MMR").',
    )
    composite_weights: tuple[float, float, float] = Field(
        default=(0.6, 0.2, 0.2),
        description=(
            "profile='composite': weights of similarity, salience and confidence (docs/spec.md §4)."
        ),
    )

    @field_validator("half_life_days", mode="before")
    @classmethod
    def _merge_over_defaults(cls, value: object, info: ValidationInfo) -> object:
        name = info.field_name or ""
        return merge_over_defaults(cls.model_fields[name], name, value)

    @field_validator("half_life_days")
    @classmethod
    def _non_negative(cls, value: dict[str, float]) -> dict[str, float]:
        return non_negative(value)
