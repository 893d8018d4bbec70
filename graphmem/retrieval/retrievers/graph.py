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
from graphmem.store.base import MemoryStore

_MAX_REACHED = 50


class GraphRetriever:
    """Memories about entities reached by traversal (one subgraph query, one
    mention query)."""

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
        rows = store.entity_search(
            ctx.namespace,
            [entity for entity, _ in best],
            ctx.k * 4,
            embedding=ctx.embedding,
            include_history=ctx.include_history,
        )
        hits: list[Hit] = []
        for row in rows:
            entity = max(row.entity_ids, key=lambda e: (scores[e][0], e))
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
