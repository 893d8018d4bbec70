"""Guard settings: the consistency scan, read-time faithfulness, concept drift and
the vector-index recall alert (docs/spec.md §10).

Part of :class:`graphmem.settings.Settings` as ``settings.guards``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pydantic import Field

from graphmem.settings.base import Concern


class GuardsSettings(Concern):
    """Guard settings (``settings.guards``)."""

    faithfulness_similarity: float = Field(
        0.80,
        ge=0.5,
        le=0.99,
        description=(
            "Read-time faithfulness, offline: a claim is supported by a memory whose cosine"
            " to it reaches this and that holds every number, date and name of the claim"
            " (docs/spec.md §10: 0.80; the range is this project's)."
        ),
    )
    consistency_frame_overlap: float = Field(
        0.5,
        ge=0.2,
        le=0.9,
        description=(
            "Consistency scan: two incompatible memories (docs/spec.md §9.10) are superseded as a"
            " contradiction only when their frames - content words without stop words,"
            " numbers, dates and the names only one has - overlap at least this much"
            " (Jaccard); below it they say different things and only a judge may decide."
            " This project's choice: at cosine 0.75 'different names' alone supersedes true"
            " memories (LoCoMo: two different Pride events of one person)."
        ),
    )
    drift_distance: float = Field(
        0.4,
        ge=0.2,
        le=0.6,
        description=(
            "Concept drift: cosine distance between the centroids of an entity's memories"
            " before and after a time point above which its senses differ (docs/spec.md §10)."
        ),
    )
    drift_relation_overlap: float = Field(
        0.5,
        ge=0.3,
        le=0.7,
        description=(
            "Concept drift: Jaccard overlap of the entity's (predicate, neighbour) sets"
            " before and after below which its neighbourhoods differ (docs/spec.md §10)."
        ),
    )
    drift_min_memories: int = Field(
        3,
        ge=1,
        le=1000,
        description=(
            "Concept drift: fewest memories on each side of a split (fewer make centroids"
            " noise; this project's choice)."
        ),
    )
    drift_min_span_days: float = Field(
        30.0,
        ge=0.0,
        le=3650.0,
        description=(
            "Concept drift: an entity whose memories span less time than this (days, first"
            " to last) is never reported as drifting - a conversation of a few days moves"
            " between topics and neighbours without a name changing its sense (this"
            " project's choice; guards/drift.py)."
        ),
    )
    vector_recall_alert: float = Field(
        0.95,
        ge=0.90,
        le=0.99,
        description=(
            "Vector-index recall@10 below which `graphmem doctor --index-recall` alerts "
            "(docs/spec.md §10)."
        ),
    )
