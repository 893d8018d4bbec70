"""The formula a recall's weights follow, in words, for every explanation
(docs/scoring.md; docs/spec.md §8)."""

from __future__ import annotations

from graphmem.models import RecallQuery
from graphmem.retrieval.planning.planner import Plan
from graphmem.settings import Settings

__all__ = ["weight_formula", "without_session_support"]


def without_session_support(plan: Plan) -> bool:
    """No session prior for a plan that diversifies (MMR), walks a relation (evidence in
    other sessions) or gathers several memories (``plan.aggregate``)."""
    return plan.mmr or plan.name == "relational" or plan.aggregate


def weight_formula(settings: Settings, plan: Plan, query: RecallQuery) -> str:
    """How this recall's weights are computed, in words, for its explanation."""
    if query.profile == "composite":
        return "weight = w1·similarity + w2·salience + w3·confidence (composite profile)"
    plain = without_session_support(plan) or settings.read.fusion.session_support <= 0.0
    relevance = "RRF" if plain else "(RRF + session support)"
    if plan.aggregate and settings.read.fusion.session_support > 0.0 and not plan.mmr:
        relevance = "RRF (no session support: the answer gathers several memories)"
    factors = [relevance]
    ties: list[str] = []
    (factors if settings.read.ranking.freshness_mode == "weight" else ties).append("freshness")
    (factors if settings.read.ranking.access_mode == "weight" else ties).append("access boost")
    formula = "weight = " + " × ".join(factors)
    if ties:
        formula += f"; ties broken by {', then '.join(ties)}"
    if settings.read.rescoring.update_rank_margin >= 0.0:
        formula += "; a newer contradicting memory ranks above the older one"
    return formula
