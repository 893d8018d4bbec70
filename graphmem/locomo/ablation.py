"""Ablation by replay: run every retriever once per question, replay fusion and ranking.

A retriever's list depends only on the question (its :class:`RetrievalContext`:
embedding, linked entities, time window, ``candidate_k``), never on the plan
or on the other retrievers. So the bench runs all five retrievers once per
question and replays :meth:`RecallPipeline.fuse_and_rank` — the pipeline's
own fusion and ranking code, not a copy — for each variant's plan:

- ``alone <retriever>``: only that retriever, as ``RecallQuery(retrievers=(name,))``
  gives (its weight as the plan had it, else the configured one);
- ``without <retriever>``: the question's own plan with that retriever's weight 0;
- ``planner off``: one fixed plan for every question — the configured
  retriever weights (the planner's "hybrid" plan), ``k`` as asked, no MMR,
  no rerank;
- ``rerank off`` / ``rerank on``: the question's own plan with rerank forced
  off / on for every plan (only with a reranker configured: otherwise both
  equal the pipeline and the rows say so).

``replay(live plan)`` must give the live recall's ranking exactly; the bench
checks it on every question and reports the mismatches (0 expected).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.models import RecallQuery
from graphmem.retrieval.pipeline import RecallPipeline
from graphmem.retrieval.planner import Plan
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.settings import RETRIEVERS, Settings

__all__ = [
    "PLANNER_OFF",
    "RERANK_OFF",
    "RERANK_ON",
    "CachedQuestion",
    "Variant",
    "ablation_variants",
    "alone",
    "cache_question",
    "replay",
    "without",
]

PlanChange = Callable[[Plan, Settings, int], Plan]  # (live plan, settings, k asked)


@dataclass(frozen=True, slots=True)
class Variant:
    """A named change from the question's live plan to the plan replayed."""

    name: str
    change: PlanChange


@dataclass(frozen=True, slots=True)
class CachedQuestion:
    """One question's retrieval, done once: its query, context, live plan, "now"
    and every retriever's hits."""

    def plan_for(self, variant: Variant, settings: Settings) -> Plan:
        """The plan ``variant`` replays for this question."""
        return variant.change(self.plan, settings, self.query.k or settings.top_k)

    query: RecallQuery
    ctx: RetrievalContext
    plan: Plan
    now: datetime
    hits: Mapping[str, list[Hit]]


def cache_question(
    reader: RecallPipeline, namespace: str, query: RecallQuery, names: Sequence[str] = RETRIEVERS
) -> CachedQuestion:
    """Prepare ``query`` (embed, link, parse the window, plan) and run every retriever
    in ``names`` once."""
    timings: dict[str, float] = {}
    ctx, plan, now = reader.prepare(namespace, query, timings)
    hits = reader.retrieve(ctx, list(names), timings)
    return CachedQuestion(query, ctx, plan, now, hits)


def replay(reader: RecallPipeline, cached: CachedQuestion, plan: Plan) -> list[str]:
    """The memory ids the pipeline returns for ``cached`` under ``plan``, best first:
    the retrievers with a positive weight in ``plan`` contribute their cached lists,
    exactly as :meth:`RecallPipeline.recall` runs only those."""
    active = {n: hs for n, hs in cached.hits.items() if plan.weights.get(n, 0.0) > 0}
    ranked = reader.fuse_and_rank(cached.query, cached.ctx, plan, cached.now, active, {})
    return [hit.memory.id for hit in ranked]


def _with_weights(plan: Plan, weights: dict[str, float]) -> Plan:
    return dataclasses.replace(plan, weights=weights)


def alone(name: str) -> Variant:
    """Only ``name``, weighted as the pipeline's ``retrievers=(name,)`` override weights it."""

    def change(plan: Plan, settings: Settings, k: int) -> Plan:
        weight = plan.weights.get(name) or settings.retriever_weights.get(name) or 1.0
        return _with_weights(plan, {n: (weight if n == name else 0.0) for n in plan.weights})

    return Variant(f"alone {name}", change)


def without(name: str) -> Variant:
    """The question's plan with ``name`` at weight 0."""

    def change(plan: Plan, settings: Settings, k: int) -> Plan:
        return _with_weights(plan, {**plan.weights, name: 0.0})

    return Variant(f"without {name}", change)


def _planner_off(plan: Plan, settings: Settings, k: int) -> Plan:
    return Plan(
        name="hybrid",
        weights=dict(settings.retriever_weights),
        k=k,
        rerank=False,
        mmr=False,
        specificity=plan.specificity,
        signals=plan.signals,
    )


def _rerank(on: bool) -> Variant:
    return Variant(
        f"rerank {'on' if on else 'off'}",
        lambda plan, settings, k: dataclasses.replace(plan, rerank=on),
    )


PLANNER_OFF = Variant("planner off", _planner_off)
RERANK_OFF = _rerank(False)
RERANK_ON = _rerank(True)


def ablation_variants(
    retrievers: Sequence[str] = RETRIEVERS, *, rerank: bool
) -> tuple[Variant, ...]:
    """The ablation rows: without each retriever, planner off, and (``rerank``: a
    reranker is configured) rerank off / on."""
    found: list[Variant] = [without(name) for name in retrievers]
    found.append(PLANNER_OFF)
    if rerank:
        found.extend((RERANK_OFF, RERANK_ON))
    return tuple(found)
