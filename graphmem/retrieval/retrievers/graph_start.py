"""How a recall schedules the graph list's reads (docs/performance.md): what starts before
the question's embedding (:func:`start_graph_reads`), and the list in two steps when the
semantic list seeds the concept walk (:func:`start_seeded_walk`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass

from graphmem.entities import EntityLink
from graphmem.retrieval.ahead import AheadStore
from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.retrieval.retrievers.concepts import concept_count_bound, walks_concepts
from graphmem.retrieval.retrievers.graph import GraphRetriever, RelationWalk
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore


def start_graph_reads(
    ahead: AheadStore, settings: Settings, namespace: str, links: Sequence[EntityLink]
) -> None:
    """Start on ``ahead`` the graph list's reads that need no embedding: the relation
    subgraph from its seeds (the linked entities, less the owners of a relation the
    question walked, as :class:`GraphRetriever` takes them) and, where the concept walk
    may run, the namespace's count its concept index is checked against."""
    graph = settings.read.graph
    seeds = [link.entity_id for link in links]
    if graph.graph_traversal != "classic":
        owners = {link.owner for link in links if link.owner is not None}
        seeds = [s for s in seeds if s not in owners]
    if seeds:
        ahead.start_relation_subgraph(namespace, seeds, graph.max_hops)
    if walks_concepts(settings, links):
        ahead.start_count_memories(namespace, at_most=concept_count_bound(settings))


@dataclass(frozen=True, slots=True)
class SeededWalk:
    """A recall's graph list in two steps (setting ``graph_concept_seed_source`` =
    "semantic list"): the relation walk runs beside the other retrievers (``walk``,
    started at ``started``, a :func:`time.perf_counter` value); :meth:`finish` adds the
    concept walk seeded by the semantic list as the recall ranked it."""

    retriever: GraphRetriever
    walk: Future[RelationWalk]
    started: float

    def finish(
        self,
        store: MemoryStore,
        ctx: RetrievalContext,
        semantic: Sequence[Hit],
        timings: dict[str, float],
    ) -> list[Hit]:
        """The graph list (:meth:`GraphRetriever.with_concepts`); ``timings["retriever.graph"]``:
        milliseconds from the relation walk's start to the list (ms, the wait for the
        semantic list included)."""
        found = self.retriever.with_concepts(
            store, ctx, self.walk.result(), [h.memory_id for h in semantic]
        )
        timings["retriever.graph"] = (time.perf_counter() - self.started) * 1000.0
        return found


def start_seeded_walk(
    retriever: object,
    pool: Executor,
    names: Sequence[str],
    ctx: RetrievalContext,
    store: MemoryStore,
) -> SeededWalk | None:
    """Start the graph list's relation walk on ``pool`` when the recall runs the graph
    and semantic retrievers and the concept walk is seeded by the semantic list
    (:meth:`GraphRetriever.seeded_by_list`); None otherwise (the graph retriever runs
    in one step, :meth:`GraphRetriever.retrieve`)."""
    if not isinstance(retriever, GraphRetriever) or not {"graph", "semantic"} <= set(names):
        return None
    if not retriever.seeded_by_list(ctx):
        return None
    started = time.perf_counter()
    return SeededWalk(retriever, pool.submit(retriever.relation_walk, store, ctx), started)
