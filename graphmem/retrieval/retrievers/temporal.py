"""Temporal retriever: memories whose time falls in the query's window (docs/spec.md §3),
and, for a question that asks *when* with no window, memories that carry an event
time about the question's topic.

A memory's time is its event time, else its first observation. Inside the
window, memories are ordered by cosine to the query (the store's contract).
With no window:

- a *when* question (:func:`graphmem.language.question_type.asks_when`: "When did
  Dana go to the support group?") gets the memories that carry an event time —
  their words name when it happened ("yesterday" said on 8 May 2023 is 7 May)
  — among the question's ``candidate_k`` best semantic and BM25 neighbours by
  weighted RRF (the configured semantic and BM25 weights and ``rrf_k``), in that
  order; the
  setting ``event_time_ranking`` turns this off;
- any other question: the retriever abstains.

A month named without a year ("in March") is its most recent occurrence; when that
holds no memory, the retriever reads the same month a year earlier (one more range
query): "What was the score in the fulbito game in March?" asked in May means last
year's March when this year's holds nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from graphmem.language.question_type import asks_when
from graphmem.language.timeparse import TimeWindow
from graphmem.language.vocabulary import MONTHS
from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.retrieval.retrievers.bm25 import BM25Retriever
from graphmem.retrieval.retrievers.semantic import SemanticRetriever
from graphmem.scoring import weighted_rrf
from graphmem.store.base import MemoryStore, ScoredId

_MONTH = timedelta(days=31)


class TemporalRetriever:
    """Memories in the parsed time window (one range-index query); for a *when* question
    with no window, its neighbours that carry an event time (three store calls)."""

    name = "temporal"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        window = ctx.window
        if window is None:
            if ctx.settings.read.planning.event_time_ranking and asks_when(ctx.text):
                return _event_times(store, ctx)
            return []

        def search(start: datetime, end: datetime) -> list[ScoredId]:
            return store.time_window_search(
                ctx.namespace, start, end, ctx.k,
                embedding=ctx.embedding, include_history=ctx.include_history,
            )  # fmt: skip

        detail = f"in window '{window.expression}'"
        rows = search(window.start, window.end)
        if not rows and _bare_month(window):
            # "the fulbito game in March", asked in May: this March holds nothing, so the
            # March meant is the one before
            start, end = window.start, window.end
            rows = search(start.replace(year=start.year - 1), end.replace(year=end.year - 1))
            detail = f"in window '{window.expression}', a year earlier (none in the latest)"
        return [Hit(r.memory_id, r.score, detail=detail) for r in rows]


def _bare_month(window: TimeWindow) -> bool:
    """A month named without a year, looking back ("in March", "last May"; not "next
    June", "since April" or "March 2024")."""
    words = window.expression.casefold().split()
    if any(ch.isdigit() for ch in window.expression) or not MONTHS.keys() & set(words):
        return False
    return (
        words[0] not in ("next", "since", "until", "till") and window.end - window.start <= _MONTH
    )


def _event_times(store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
    """The question's semantic and BM25 neighbours that carry an event time, by their
    weighted RRF (ties by id)."""
    dense = SemanticRetriever().retrieve(store, ctx)
    lexical = BM25Retriever().retrieve(store, ctx)
    weights = ctx.settings.read.fusion.retriever_weights
    fused = weighted_rrf(
        {
            "semantic": [h.memory_id for h in dense],
            "bm25": [h.memory_id for h in lexical],
        },
        {"semantic": weights.get("semantic", 1.0), "bm25": weights.get("bm25", 1.0)},
        k=ctx.settings.read.fusion.rrf_k,
    )
    top = fused[: ctx.k]
    if not top:
        return []
    found = {m.id: m for m in store.get_memories(ctx.namespace, [mid for mid, _ in top])}
    hits: list[Hit] = []
    for mid, score in top:
        memory = found.get(mid)
        if memory is None or memory.event_time is None:
            continue
        when = memory.event_time
        hits.append(Hit(mid, score, detail=f"event time {when:%Y-%m-%d} (a 'when' question)"))
    return hits
