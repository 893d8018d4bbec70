"""Graph retriever: hop-decayed, weakest-link traversal over relations (SPEC §3, seed 001).

From the query's linked entities, the store returns the relation subgraph
within ``max_hops``; every reached entity scores
``hop_score(hops) × min(edge confidence on the path)`` (best path wins), and
the memories that mention reached entities are ranked by their best
entity's score, then cosine to the query.
"""

from __future__ import annotations

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.scoring import traversal_scores
from graphmem.store.base import EntityHit, MemoryStore

_MAX_REACHED = 50


class GraphRetriever:
    """Memories about entities reached by traversal (one subgraph query, then
    mention queries over the reached entities in score order: at most 4 for 50)."""

    name = "graph"

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        if not ctx.links:
            return []
        seeds = [link.entity_id for link in ctx.links]
        relations = store.relation_subgraph(ctx.namespace, seeds, ctx.settings.max_hops)
        if not relations:
            return []
        reached = traversal_scores(
            ((r.source_id, r.target_id, r.confidence) for r in relations),
            seeds,
            max_hops=ctx.settings.max_hops,
            hop_scores=ctx.settings.hop_scores,
        )
        best = sorted(reached.items(), key=lambda item: (-item[1][0], item[0]))[:_MAX_REACHED]
        if not best:
            return []
        scores = dict(best)
        # Memories rank by their best entity's score, so the entities are asked for in
        # score order, in batches of 1, 4, 16, ... until k memories are found: a hub's
        # neighbours (thousands of memories each) are never all fetched to return k.
        rows: list[EntityHit] = []
        seen: set[str] = set()
        start, size = 0, 1
        while start < len(best) and len(rows) < ctx.k:
            batch = [entity for entity, _ in best[start : start + size]]
            for row in store.entity_search(
                ctx.namespace,
                batch,
                ctx.k,
                embedding=ctx.embedding,
                include_history=ctx.include_history,
            ):
                if row.memory_id not in seen:
                    seen.add(row.memory_id)
                    rows.append(row)
            start, size = start + size, size * 4
        hits: list[Hit] = []
        for row in rows:
            entity = max(row.entity_ids, key=lambda e: (scores[e][0], e))  # of its batch
            score, hops = scores[entity]
            hits.append(
                Hit(
                    row.memory_id,
                    score + 1e-3 * row.similarity,
                    detail=f"{hops} hop(s) to entity {entity[:8]}, path score {score:.3f}",
                    associative=True,
                )
            )
        hits.sort(key=lambda h: (-h.score, h.memory_id))
        return hits[: ctx.k]
