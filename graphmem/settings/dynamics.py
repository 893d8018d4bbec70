"""Dynamics settings: stability, spaced repetition, salience, associations,
retrievability and the cold tier (docs/spec.md §4).

Part of :class:`graphmem.settings.Settings` as ``settings.dynamics``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from graphmem.settings.base import Concern, MemoryTypeName, merge_over_defaults, non_negative


class DynamicsSettings(Concern):
    """Dynamics settings (``settings.dynamics``)."""

    stability_direct_boost: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description=(
            "Stability gained per direct access, times the spaced-repetition factor (docs/spec.md "
            "§4)."
        ),
    )
    stability_associative_boost: float = Field(
        0.03,
        ge=0.0,
        le=1.0,
        description=(
            "Stability gained per associative access, times the spaced-repetition factor "
            "(docs/spec.md §4)."
        ),
    )
    spaced_rep_interval_days: float = Field(
        7.0,
        gt=0.0,
        description=(
            "Spaced repetition: days since the last access that make the factor 1 (docs/spec.md "
            "§4)."
        ),
    )
    spaced_rep_max: float = Field(
        2.0, ge=0.0, description="Spaced repetition: the factor's cap (docs/spec.md §4)."
    )
    salience_initial: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Salience of a new memory unless its candidate gives one (docs/spec.md §4).",
    )
    salience_access_step: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description=(
            "Share of the distance to 1 that each access adds to salience (docs/spec.md §4)."
        ),
    )
    salience_decay: dict[MemoryTypeName, float] = Field(
        default={
            "Fact": 0.01,
            "Preference": 0.05,
            "Entity": 0.01,
            "Relation": 0.01,
            "Event": 0.10,
        },
        description=(
            "Salience decay rate λ per day per memory type (docs/spec.md §4); a partial mapping "
            "changes only the keys given."
        ),
    )
    salience_stability_scaling: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Salience decay is scaled by 1 - this x stability (docs/spec.md §4).",
    )
    consolidation_similarity: float = Field(
        0.75,
        ge=0.60,
        le=0.85,
        description=(
            "Cosine from which consolidation links associations and the consistency scan pairs "
            "memories (docs/spec.md §4, §8)."
        ),
    )
    retrievability_factor: float = Field(1.5, gt=0.0, description="θ = min(1, f·(1 − conf)).")
    cold_after_days: float = Field(
        90.0,
        ge=1.0,
        le=3650.0,
        description=(
            "Days a memory must have been unretrievable (docs/spec.md §9.5), counted from when its"
            " freshness fell below θ or from its last access if later, before the"
            " consolidation pass moves it to the cold tier (docs/spec.md §4)."
        ),
    )
    association_k: int = Field(
        10,
        ge=1,
        le=200,
        description=(
            "Nearest neighbours the consolidation pass examines per memory when it links"
            " associations (cosine >= consolidation_similarity, shared entity; docs/spec.md §4)."
        ),
    )

    @field_validator("salience_decay", mode="before")
    @classmethod
    def _merge_over_defaults(cls, value: object, info: ValidationInfo) -> object:
        name = info.field_name or ""
        return merge_over_defaults(cls.model_fields[name], name, value)

    @field_validator("salience_decay")
    @classmethod
    def _non_negative(cls, value: dict[str, float]) -> dict[str, float]:
        return non_negative(value)
