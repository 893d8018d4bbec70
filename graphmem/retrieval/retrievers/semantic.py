"""Semantic retriever: cosine of query and memory embeddings (docs/spec.md §3)."""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import MemoryStore, ScoredId


def semantic_search(
    store: MemoryStore, ctx: RetrievalContext, k: int | None = None
) -> list[ScoredId]:
    """The semantic retriever's search: the question's ``k`` (default ``ctx.k``) nearest
    memories by cosine in [-1, 1], best first (docs/spec.md §3). With history (which recall asks for
    so docs/spec.md §9.11 can admit direct hits), cold memories are searched too; ranking keeps them
    out unless the question targets them. The graph retriever's concept walk takes its seeds
    from this same call, which a recall's AheadStore makes once for both."""
    rows = store.vector_search(
        ctx.namespace,
        ctx.embedding[None, :],
        ctx.k if k is None else k,
        include_history=ctx.include_history,
        include_cold=ctx.include_history,
    )
    return rows[0] if rows else []


class SemanticRetriever:
    """Top-k memories by cosine similarity (one vector-index query)."""

    name = "semantic"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        return [Hit(r.memory_id, r.score) for r in semantic_search(store, ctx)]
