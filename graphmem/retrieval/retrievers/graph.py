"""Graph retriever: traversal over relations that follows the question (docs/spec.md §3).

From the query's linked entities the store returns the relation subgraph
within ``max_hops`` (one Cypher query on Neo4j, networkx on the embedded
store: the same relations). Then, in Python, the same on both stores:

1. **Edge relevance** — how well each relation matches the question:
   ``floor + (1 − floor) × max(term, 0.7 × semantic)``, where ``term`` is 1 when a
   word of the predicate (``SISTER_OF`` → "sister") shares a stem with a
   query word, and ``semantic`` is the cosine of the memory that asserted the
   relation to the query, relative to the best such cosine in the subgraph.
2. **Paths** — every reached entity keeps its best path, scored
   ``hop_score × weakest-link confidence × product of edge relevances``
   (:func:`graphmem.scoring.guided_traversal`).
3. **Memories** — the memories that asserted the path's relations, and
   those that mention the reached entity, score ``path score × (0.75 + 0.25
   × their own cosine to the query, relative to the best)``; memories already
   in the entity retriever's top ``k`` for the query entities (the seeds' own
   memories) count ``Settings.read.graph.graph_seed_share`` (0: left out) unless they
   assert a path relation, so the seeds do not crowd the list; a mention that
   asserts other relations (not on the path) counts half; memories below half
   the best score are left out.

4. **Concepts** (setting ``graph_concepts``; :mod:`graphmem.retrieval.retrievers.concepts`) —
   people are in most memories of a conversation, so the relation walk rarely
   ranks what a question about a topic needs. A personalised PageRank over the
   namespace's memory–concept graph (noun phrases, non-person names, content
   verbs; IDF-weighted) from the question's concepts and its nearest memories
   reaches the same topic in other sessions. The list: the relation walk's
   memories on a path the question names (a predicate word), then the concept
   walk's, then the relation walk's others; when the question walked a relation
   to link an entity ("Maya's sister"), the relation walk alone. The seed
   memories: in a recall that runs the semantic retriever too, that list's top as
   the recall ranks it (name-masked cosine; setting ``graph_concept_seed_source``):
   the relation walk runs beside the other retrievers, the concept walk after the
   semantic list (:func:`start_seeded_walk`); alone, the raw cosine's nearest.

``Settings.read.graph.graph_traversal = "classic"`` keeps docs/spec.md §3's scoring alone (hop
decay × weakest link; every one-hop neighbour ties; no concepts), for the ablation.

The relational links ("Maya's sister") are read before the plan
(:mod:`graphmem.retrieval.planning.relations`); the walk's scoring is in
:mod:`graphmem.retrieval.retrievers.graph_paths`.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from graphmem.models import Relation
from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.retrieval.retrievers.concepts import ConceptIndex, ConceptIndexes, walks_concepts
from graphmem.retrieval.retrievers.graph_paths import (
    path_candidates,
    path_evidence,
    path_hits,
    path_steps,
)
from graphmem.retrieval.retrievers.semantic import semantic_search
from graphmem.scoring import guided_traversal, traversal_scores
from graphmem.store.base import EntityHit, MemoryStore
from graphmem.text import tokenize

# Threads of a retriever's pool: it runs the query for the seeds' own memories and the
# concept-index lookup beside the walk (store calls that wait on the server, not on this
# process).
_CROWD_THREADS = 4


def _crowd_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=_CROWD_THREADS, thread_name_prefix="graph-crowd")


@dataclass(frozen=True, slots=True)
class RelationWalk:
    """The relation walk's hits (best first), the ids of those on a path the question
    names, and the namespace's concept index (None where the concept walk does not run)."""

    related: list[Hit]
    matched: set[str]
    index: ConceptIndex | None


class GraphRetriever:
    """Memories about entities reached by traversal (one subgraph query, the asserting
    memories' cosines to the question, then mention queries over the reached entities in
    score order: at most 4 for 50; the seeds' own memories are asked for meanwhile)."""

    name = "graph"

    def __init__(self) -> None:
        # each retriever owns its pool and its concept indexes: a facade's pipeline makes
        # its own retriever and stops it in close() (no thread or cache outlives it)
        self._concepts = ConceptIndexes()
        self._crowd = _crowd_pool()

    def close(self) -> None:
        """Stop the worker threads (waiting for running lookups) and drop the concept
        indexes. The retriever can be used again afterwards (a reopened facade): a fresh
        pool starts threads on first use and the indexes are rebuilt."""
        crowd, self._crowd = self._crowd, _crowd_pool()
        crowd.shutdown(wait=True)
        self._concepts = ConceptIndexes()

    def forget_namespace(self, store: MemoryStore, namespace: str) -> None:
        """Drop what is kept of ``namespace`` between recalls (its concept index is
        rebuilt at the next recall); the facade calls it after writes."""
        self._concepts.forget(store, namespace)

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        """The relation walk alone when the question walked a relation to link an entity
        ("Maya's sister"). Otherwise its memories on a path that matches the question
        (a predicate named by a question word), then the
        concept walk's (:mod:`graphmem.retrieval.retrievers.concepts`, setting ``graph_concepts``),
        then the relation walk's other memories; the top ``k``. On LoCoMo the relation
        walk's unmatched paths only add loosely related memories (a person's
        neighbours), while the concept walk reaches the same topic in other sessions."""
        if ctx.settings.read.graph.graph_traversal == "classic":
            return self._classic_walk(store, ctx)
        return self.with_concepts(store, ctx, self.relation_walk(store, ctx), None)

    def seeded_by_list(self, ctx: RetrievalContext) -> bool:
        """Whether a recall that runs the semantic retriever too seeds the concept walk
        with that list as the pipeline ranks it (name-masked cosine; setting
        ``graph_concept_seed_source``): it runs :meth:`relation_walk` beside the other
        retrievers, then :meth:`with_concepts` with the semantic list's ids."""
        cfg = ctx.settings
        return (
            cfg.read.graph.graph_concept_seed_source == "semantic list"
            and cfg.read.graph.graph_traversal != "classic"
        )

    def relation_walk(self, store: MemoryStore, ctx: RetrievalContext) -> RelationWalk:
        """The relation walk (and, where the concept walk may run, the namespace's
        concept index, looked up meanwhile)."""
        walks = walks_concepts(ctx.settings, ctx.links)
        # the namespace's concept index (a count round trip; the build on a first recall)
        # is looked up while the relations are walked
        index = (
            self._crowd.submit(self._concepts.get, store, ctx.namespace, ctx.settings)
            if walks
            else None
        )
        related, matched = self._related(store, ctx)
        return RelationWalk(related, matched, index.result() if index is not None else None)

    def with_concepts(
        self,
        store: MemoryStore,
        ctx: RetrievalContext,
        walk: RelationWalk,
        seeds: Sequence[str] | None,
    ) -> list[Hit]:
        """The graph list: the relation walk's memories on a matched path, the concept
        walk's, the relation walk's others (top ``k``). The concept walk's seed memories:
        the first ``graph_concept_seeds`` of ``seeds`` (ids, best first) that are in the
        index; None: of the question's nearest memories by raw cosine (the semantic
        retriever's own vector search, which a recall's AheadStore makes once)."""
        walked = self._concept_walk(store, ctx, walk.index, seeds)
        if not walked:
            return walk.related  # no concept walk here (namespace size, setting, extra)
        first = [h for h in walk.related if h.memory_id in walk.matched]
        have = {h.memory_id for h in first}
        concepts = [h for h in walked if h.memory_id not in have]
        have |= {h.memory_id for h in concepts}
        rest = [h for h in walk.related if h.memory_id not in have]
        return (first + concepts + rest)[: ctx.k]

    def _concept_walk(
        self,
        store: MemoryStore,
        ctx: RetrievalContext,
        index: ConceptIndex | None,
        seeds: Sequence[str] | None,
    ) -> list[Hit]:
        """Personalised PageRank over the namespace's memory–concept graph (``index``;
        None where the walk does not run) from the question's concepts and its
        ``graph_concept_seeds`` seed memories (see :meth:`with_concepts`)."""
        cfg = ctx.settings
        if index is None:
            return []
        question = index.question_concepts(tokenize(ctx.text))
        if seeds is None:  # the semantic retriever's own search (shared in a recall)
            seeds = [r.memory_id for r in semantic_search(store, ctx)]
        nearest = [mid for mid in seeds if mid in index]
        walked = index.walk(
            question,
            nearest[: cfg.read.graph.graph_concept_seeds],
            alpha=cfg.read.graph.graph_concept_alpha,
            concept_weight=cfg.read.graph.graph_concept_weight,
            k=ctx.k,
        )
        return [
            Hit(
                hit.memory_id,
                hit.mass,
                detail=(
                    f"concept walk (PageRank mass {hit.mass:.4f})"
                    + (f": shares {', '.join(hit.shared)}" if hit.shared else "")
                    + " with the question and its nearest memories"
                ),
                associative=True,
            )
            for hit in walked
        ]

    def _classic_walk(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        """docs/spec.md §3's traversal alone (``graph_traversal = "classic"``, the ablation)."""
        if not ctx.links:
            return []
        seeds = [link.entity_id for link in ctx.links]
        relations = store.relation_subgraph(ctx.namespace, seeds, ctx.settings.read.graph.max_hops)
        return self._classic(store, ctx, seeds, relations) if relations else []

    def _related(self, store: MemoryStore, ctx: RetrievalContext) -> tuple[list[Hit], set[str]]:
        """The relation walk (docs/spec.md §3, guided by the question; module docstring): its
        hits and the ids of those on a path that matches the question."""
        if not ctx.links:
            return [], set()
        seeds = [link.entity_id for link in ctx.links]
        # "Maya's sister": walk from the sister, never back through Maya (the question
        # is not about Maya's other neighbours)
        owners = {link.owner for link in ctx.links if link.owner is not None}
        seeds = [s for s in seeds if s not in owners]
        # the seeds' own memories (the entity retriever's top k), asked for while the walk
        # is read and scored: one round trip off the retriever's critical path
        crowd_rows = self._crowd.submit(
            store.entity_search,
            ctx.namespace,
            seeds,
            ctx.k,
            embedding=ctx.embedding,
            include_history=False,
        )
        relations = store.relation_subgraph(ctx.namespace, seeds, ctx.settings.read.graph.max_hops)
        if not relations:
            return [], set()
        cosines = {
            mid: max(0.0, cosine)
            for mid, cosine in store.memory_cosines(
                ctx.namespace, sorted({r.memory_id for r in relations}), ctx.embedding
            ).items()
        }
        reached = guided_traversal(
            path_steps(ctx, relations, cosines),
            seeds,
            max_hops=ctx.settings.read.graph.max_hops,
            hop_scores=ctx.settings.read.graph.hop_scores,
            avoid=owners,
        )
        best = sorted(reached.values(), key=lambda r: (-r.score, r.entity_id))[
            : ctx.settings.read.graph.graph_max_reached
        ]
        if not best:
            return [], set()
        evidence = path_evidence(ctx, best)
        rows = self._mentions(store, ctx, [r.entity_id for r in best])
        crowd = {row.memory_id for row in crowd_rows.result()}
        candidates = path_candidates(
            ctx, best, evidence, rows, crowd, {r.memory_id for r in relations}
        )
        sims = {row.memory_id: max(0.0, row.similarity) for row in rows}
        sims.update({mid: cosines.get(mid, 0.0) for mid in evidence if mid not in sims})
        matched = {
            mid
            for mid, (_, path, _) in candidates.items()
            if any(step.relevance >= 1.0 for step in path.steps)
        }
        return path_hits(ctx, candidates, sims), matched

    def _mentions(
        self, store: MemoryStore, ctx: RetrievalContext, entities: list[str]
    ) -> list[EntityHit]:
        """Memories mentioning the entities, taken in score order from batches of 1, 4,
        16, ... until k are found: a hub's neighbours (thousands of memories each) are
        never all fetched to return k. A batch is asked for only when the ones before it
        fell short: each one counts every memory that mentions its entities (hundreds
        each at 100k memories), so batches asked for at once, and then not needed, cost
        the server more than they save (docs/performance.md "Recall at scale")."""
        rows: list[EntityHit] = []
        seen: set[str] = set()
        start, size = 0, 1
        while start < len(entities) and len(rows) < ctx.k:
            for row in self._mention_batch(store, ctx, entities[start : start + size]):
                if row.memory_id not in seen:
                    seen.add(row.memory_id)
                    rows.append(row)
            start, size = start + size, size * 4
        return rows

    @staticmethod
    def _mention_batch(
        store: MemoryStore, ctx: RetrievalContext, batch: list[str]
    ) -> list[EntityHit]:
        return store.entity_search(
            ctx.namespace,
            batch,
            ctx.k,
            embedding=ctx.embedding,
            include_history=ctx.include_history,
        )

    def _classic(
        self,
        store: MemoryStore,
        ctx: RetrievalContext,
        seeds: list[str],
        relations: list[Relation],
    ) -> list[Hit]:
        """docs/spec.md §3 alone: hop score × weakest link; memories by their best entity's
        score."""
        reached = traversal_scores(
            ((r.source_id, r.target_id, r.confidence) for r in relations),
            seeds,
            max_hops=ctx.settings.read.graph.max_hops,
            hop_scores=ctx.settings.read.graph.hop_scores,
        )
        best = sorted(reached.items(), key=lambda item: (-item[1][0], item[0]))[
            : ctx.settings.read.graph.graph_max_reached
        ]
        if not best:
            return []
        scores = dict(best)
        rows = self._mentions(store, ctx, [entity for entity, _ in best])
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
