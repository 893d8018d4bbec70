"""Temporal retriever: memories whose time falls in the query's window (SPEC §3).

A memory's time is its event time, else its first observation. Inside the
window, memories are ordered by cosine to the query (the store's contract);
with no window in the query the retriever abstains.
"""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import MemoryStore


class TemporalRetriever:
    """Memories in the parsed time window (one range-index query)."""

    name = "temporal"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        window = ctx.window
        if window is None:
            return []
        rows = store.time_window_search(
            ctx.namespace,
            window.start,
            window.end,
            ctx.k,
            embedding=ctx.embedding,
            include_history=ctx.include_history,
        )
        detail = f"in window '{window.expression}'"
        return [Hit(r.memory_id, r.score, detail=detail) for r in rows]
