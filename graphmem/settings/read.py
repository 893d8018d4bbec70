"""Read settings: the read pipeline's stages, one model each (docs/spec.md §3) -
``planning`` (question handling and the plan's weights), ``fusion`` (candidate lists and
weighted Reciprocal Rank Fusion), ``graph`` (the graph retriever), ``rescoring`` (what
re-orders the fused candidates) and ``ranking`` (the final weight, gates and access).

Part of :class:`graphmem.settings.Settings` as ``settings.read``.
"""

from __future__ import annotations

from pydantic import Field

from graphmem.settings.base import Concern
from graphmem.settings.fusion import FusionSettings
from graphmem.settings.graph import GraphSettings
from graphmem.settings.planning import PlanningSettings
from graphmem.settings.ranking import RankingSettings
from graphmem.settings.rescoring import RescoringSettings


class ReadSettings(Concern):
    """The read pipeline's settings by stage (``settings.read``)."""

    planning: PlanningSettings = Field(
        default_factory=PlanningSettings, description="Question handling and the query plan."
    )
    fusion: FusionSettings = Field(
        default_factory=FusionSettings, description="Candidate lists and their fusion."
    )
    graph: GraphSettings = Field(default_factory=GraphSettings, description="The graph retriever.")
    rescoring: RescoringSettings = Field(
        default_factory=RescoringSettings, description="Re-ordering the fused candidates."
    )
    ranking: RankingSettings = Field(
        default_factory=RankingSettings, description="The final weight, gates and access."
    )
