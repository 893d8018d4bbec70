"""BM25 retriever: lexical match of the query against memory content (docs/spec.md §3).

k1 = 1.2, b = 0.75, IDF = ln((N − n + 0.5)/(n + 0.5) + 1): Lucene's formula on
Neo4j, rank-bm25 configured the same way on the embedded store.
"""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import MemoryStore


class BM25Retriever:
    """Top-k memories by BM25 (one fulltext-index query)."""

    name = "bm25"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        rows = store.text_search(
            ctx.namespace, ctx.text, ctx.k, include_history=ctx.include_history
        )
        return [Hit(r.memory_id, r.score) for r in rows]
