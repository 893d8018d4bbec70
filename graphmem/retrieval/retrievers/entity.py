"""Entity retriever: memories that mention the query's linked entities (SPEC §3).

Ranked by how many of the linked entities a memory mentions, then by cosine
to the query (so among one person's memories the relevant ones come first).
No hard filter on the final result: the other retrievers still contribute.
"""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import MemoryStore


class EntityRetriever:
    """Memories mentioning linked entities (one indexed query)."""

    name = "entity"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        if not ctx.links:
            return []
        ids = [link.entity_id for link in ctx.links]
        rows = store.entity_search(
            ctx.namespace, ids, ctx.k, embedding=ctx.embedding, include_history=ctx.include_history
        )
        names = {link.entity_id: link.surface for link in ctx.links}
        return [
            Hit(
                r.memory_id,
                len(r.entity_ids) + r.similarity,
                detail="mentions " + ", ".join(names.get(e, e) for e in r.entity_ids),
            )
            for r in rows
        ]
