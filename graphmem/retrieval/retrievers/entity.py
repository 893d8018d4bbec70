"""Entity retriever: memories that concern the query's linked entities (docs/spec.md §3).

A memory scores, for every linked entity it mentions, by how directly it
concerns that entity: 1 when the entity is its subject or object (the speaker
of a turn, the subject of a fact), ``entity_mention_weight`` when the memory
only mentions it; plus the memory's cosine to the query (in [-1, 1], so among
one person's memories the relevant ones come first). No hard filter
on the final result: the other retrievers still contribute, and adversarial
questions that swap the person still reach the other one's memories.
"""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.store.base import EntityHit, MemoryStore


def directness(hit: EntityHit, mention_weight: float) -> float:
    """Sum over the linked entities ``hit`` mentions of 1 (subject / object role)
    or ``mention_weight`` (mentioned only).

    >>> directness(EntityHit("m", ("a", "b"), ("subject", "mention"), 0.3), 0.5)
    1.5
    """
    return sum(1.0 if role in ("subject", "object") else mention_weight for role in hit.roles)


class EntityRetriever:
    """Memories about linked entities, most direct first (one indexed query)."""

    name = "entity"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        if not ctx.links:
            return []
        ids = [link.entity_id for link in ctx.links]
        rows = store.entity_search(
            ctx.namespace,
            ids,
            # a pool the role can reorder: a subject memory the cosine put lower
            ctx.k * ctx.settings.read.fusion.entity_pool_factor,
            embedding=ctx.embedding,
            include_history=ctx.include_history,
        )
        names = {link.entity_id: link.surface for link in ctx.links}
        weight = ctx.settings.read.fusion.entity_mention_weight
        hits = [
            Hit(
                r.memory_id,
                directness(r, weight) + r.similarity,
                detail="; ".join(
                    f"{role} {names.get(e, e)}"
                    for e, role in zip(r.entity_ids, r.roles, strict=True)
                ),
            )
            for r in rows
        ]
        hits.sort(key=lambda h: (-h.score, h.memory_id))
        return hits[: ctx.k]
