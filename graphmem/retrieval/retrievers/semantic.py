"""Semantic retriever: cosine of query and memory embeddings (SPEC §3)."""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import MemoryStore


class SemanticRetriever:
    """Top-k memories by cosine similarity (one vector-index query)."""

    name = "semantic"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        # with history (which recall asks for so SPEC §9.11 can admit direct hits), cold
        # memories are searched too; ranking keeps them out unless the question targets them
        rows = store.vector_search(
            ctx.namespace,
            ctx.embedding[None, :],
            ctx.k,
            include_history=ctx.include_history,
            include_cold=ctx.include_history,
        )
        return [Hit(r.memory_id, r.score) for r in rows[0]] if rows else []
