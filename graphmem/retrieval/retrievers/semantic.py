"""Semantic retriever: cosine of query and memory embeddings (SPEC §3)."""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import MemoryStore


class SemanticRetriever:
    """Top-k memories by cosine similarity (one vector-index query)."""

    name = "semantic"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        rows = store.vector_search(
            ctx.namespace, ctx.embedding[None, :], ctx.k, include_history=ctx.include_history
        )
        return [Hit(r.memory_id, r.score) for r in rows[0]] if rows else []
