"""Ablation by replay: run every retriever once per question, replay fusion and ranking.

A retriever's list depends only on the question (its :class:`RetrievalContext`:
embedding, linked entities, time window, ``candidate_k``), never on the plan
or on the other retrievers. So the bench runs all five retrievers once per
question and replays :meth:`RecallPipeline.fuse_and_rank` — the pipeline's
own fusion and ranking code, not a copy — for each variant's plan:

- ``alone <retriever>``: only that retriever, as ``RecallQuery(retrievers=(name,))``
  gives (its weight as the plan had it, else the configured one);
- ``without <retriever>``: the question's own plan with that retriever's weight 0;
- ``aggregate cue off``: the question's own plan with session support even where the
  question gathers several memories (``Plan.aggregate``; issue 15);
- ``planner off``: one fixed plan for every question — the configured
  retriever weights (the planner's "hybrid" plan), ``k`` as asked, no MMR,
  no rerank;
- ``rerank off`` / ``rerank on``: the question's own plan with rerank forced
  off / on for every plan (only with a reranker configured: otherwise both
  equal the pipeline and the rows say so);
- ``keys off``: the question's own plan with the BM25 list computed over the
  memories' content instead of their contextual keys (:class:`ContentBM25`,
  the SPEC's BM25 as the embedded store computes it; issue 15).

``replay(live plan)`` must give the live recall's ranking exactly; the bench
checks it on every question and reports the mismatches (0 expected).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from graphmem.models import Memory, RecallQuery
from graphmem.retrieval.pipeline import RecallPipeline
from graphmem.retrieval.planning.planner import Plan
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.settings import RETRIEVERS, Settings
from graphmem.store.lucene import lucene_idf
from graphmem.text import tokenize

__all__ = [
    "AGGREGATE_OFF",
    "PLANNER_OFF",
    "RERANK_OFF",
    "RERANK_ON",
    "CachedQuestion",
    "ContentBM25",
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
        return variant.change(self.plan, settings, self.query.k or settings.read.fusion.top_k)

    query: RecallQuery
    ctx: RetrievalContext
    plan: Plan
    now: datetime
    hits: Mapping[str, list[Hit]]


def cache_question(
    reader: RecallPipeline,
    namespace: str,
    query: RecallQuery,
    names: Sequence[str] = RETRIEVERS,
    *,
    resolve: bool | None = None,
) -> CachedQuestion:
    """Prepare ``query`` (resolve its people unless ``resolve`` is False, embed, link,
    parse the window, plan) and run every retriever in ``names`` once."""
    timings: dict[str, float] = {}
    ctx, plan, now = reader.prepare(namespace, query, timings, resolve=resolve)
    hits = reader.retrieve(ctx, list(names), timings)
    return CachedQuestion(query, ctx, plan, now, hits)


def replay(
    reader: RecallPipeline,
    cached: CachedQuestion,
    plan: Plan,
    hits: Mapping[str, list[Hit]] | None = None,
) -> list[str]:
    """The memory ids the pipeline returns for ``cached`` under ``plan``, best first:
    the retrievers with a positive weight in ``plan`` contribute their cached lists
    (``hits`` replaces them where given), exactly as :meth:`RecallPipeline.recall`
    runs only those."""
    lists = {**cached.hits, **(hits or {})}
    active = {n: hs for n, hs in lists.items() if plan.weights.get(n, 0.0) > 0}
    ranked = reader.fuse_and_rank(cached.query, cached.ctx, plan, cached.now, active, {})
    return [hit.memory.id for hit in ranked]


def _with_weights(plan: Plan, weights: dict[str, float]) -> Plan:
    return dataclasses.replace(plan, weights=weights)


def alone(name: str) -> Variant:
    """Only ``name``, weighted as the pipeline's ``retrievers=(name,)`` override weights it."""

    def change(plan: Plan, settings: Settings, k: int) -> Plan:
        weight = plan.weights.get(name) or settings.read.fusion.retriever_weights.get(name) or 1.0
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
        weights=dict(settings.read.fusion.retriever_weights),
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
#: the question's own plan with session support for every question (issue 15)
AGGREGATE_OFF = Variant(
    "aggregate cue off", lambda plan, settings, k: dataclasses.replace(plan, aggregate=False)
)
RERANK_OFF = _rerank(False)
RERANK_ON = _rerank(True)


def ablation_variants(
    retrievers: Sequence[str] = RETRIEVERS, *, rerank: bool
) -> tuple[Variant, ...]:
    """The ablation rows: without each retriever, planner off, and (``rerank``: a
    reranker is configured) rerank off / on."""
    found: list[Variant] = [without(name) for name in retrievers]
    found.extend((PLANNER_OFF, AGGREGATE_OFF))
    if rerank:
        found.extend((RERANK_OFF, RERANK_ON))
    return tuple(found)


class ContentBM25:
    """BM25 over the memories' *content* (SPEC §3: k1 = 1.2, b = 0.75, Lucene's IDF), as
    the store's BM25 retriever ranks them with contextual keys off (the "keys off"
    ablation row). Every memory given counts (the bench recalls with history)."""

    def __init__(self, memories: Sequence[Memory], *, k1: float = 1.2, b: float = 0.75) -> None:
        self._ids = [m.id for m in memories]
        docs = [tokenize(m.content) for m in memories]
        self._lengths = np.array([len(d) for d in docs], dtype=np.float64)
        self._avgdl = float(self._lengths.mean()) if docs and self._lengths.sum() else 1.0
        self._tf: dict[str, dict[int, int]] = {}
        for row, doc in enumerate(docs):
            for term in doc:
                counts = self._tf.setdefault(term, {})
                counts[row] = counts.get(row, 0) + 1
        self._k1, self._b = k1, b

    def search(self, text: str, k: int) -> list[Hit]:
        """Top ``k`` memories with a query term, by score desc then id."""
        scores = np.zeros(len(self._ids), dtype=np.float64)
        n = len(self._ids)
        norm = self._k1 * (1 - self._b + self._b * self._lengths / self._avgdl)
        for term in tokenize(text):
            postings = self._tf.get(term)
            if not postings:
                continue
            rows = np.fromiter(postings, dtype=np.int64)
            tf = np.fromiter(postings.values(), dtype=np.float64)
            idf = lucene_idf(n, len(postings))
            scores[rows] += idf * tf * (self._k1 + 1) / (tf + norm[rows])
        found = [i for i in np.flatnonzero(scores > 0)]
        found.sort(key=lambda i: (-scores[i], self._ids[i]))
        return [Hit(self._ids[i], float(scores[i])) for i in found[:k]]
