"""The read pipeline (docs/spec.md §3, §4): link → plan → retrieve → fuse → rank → explain → access.

``RecallPipeline.recall`` embeds the query once, links its entities and
parses its time window, lets the planner choose retrievers and weights, runs
the retrievers concurrently (each one store call), fuses with weighted RRF,
hydrates the candidates in one call, applies the gates, adds session support
(candidates sharing a session with the best-fused ones, one store call; see
:mod:`graphmem.retrieval.rescoring.support`), the final weight ((RRF + support) ×
access boost, freshness as tie-break or factor), optional MMR and reranking,
and records the access update of docs/spec.md §4 on what it returns.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from graphmem.embedding import Embedder
from graphmem.entities import EntityDictionary, EntityLink
from graphmem.language.answer_type import expected_answer
from graphmem.language.question_type import resolve_question
from graphmem.language.questions import asks_what_to_do
from graphmem.language.timeparse import TimeWindow, parse_time_window
from graphmem.models import Memory, RecallHit, RecallQuery, RecallResult
from graphmem.retrieval import retrievers as stage
from graphmem.retrieval.access import AccessWriter, access_updates, counted
from graphmem.retrieval.ahead import AheadStore
from graphmem.retrieval.planning.planner import Plan, choose_plan, lexical_evidence
from graphmem.retrieval.planning.relations import follow_relations
from graphmem.retrieval.ranking.formula import weight_formula
from graphmem.retrieval.ranking.ranker import Ranker, ms_since
from graphmem.retrieval.ranking.rerank import NoopReranker, Reranker
from graphmem.retrieval.rescoring import masking
from graphmem.retrieval.rescoring.answer_type import ANSWER_TYPE, read_ahead, with_answer_type
from graphmem.retrieval.rescoring.mask_ahead import MaskAhead
from graphmem.retrieval.retrievers import Hit, RetrievalContext, Retriever
from graphmem.retrieval.retrievers.graph_start import start_graph_reads, start_seeded_walk
from graphmem.scoring import weighted_rrf
from graphmem.settings import Settings
from graphmem.store.base import MaskText, MemoryStore, Vector
from graphmem.text import tokenize


@dataclasses.dataclass(frozen=True, slots=True)
class _Planned:
    """A recall's question before its embedding: resolved text, links, window, plan."""

    namespace: str
    text: str
    links: tuple[EntityLink, ...]
    window: TimeWindow | None
    plan: Plan
    now: datetime
    dictionary: EntityDictionary
    include_history: bool
    embedding: Future[Vector] | None = None  # started while planning (``recall``)


class RecallPipeline:
    """Recall memories for a query (docs/spec.md §3). See the module docstring."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        settings: Settings,
        *,
        clock: Callable[[], datetime],
        dictionary: Callable[[str], EntityDictionary],
        reranker: Reranker | None = None,
        retrievers: Sequence[Retriever] | None = None,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._clock = clock
        self._dictionary = dictionary
        self._reranker: Reranker = reranker or NoopReranker()
        self._masked = masking.MaskedEmbeddings.for_store(embedder, settings, store)
        self._ranker = Ranker(store, settings, self._reranker, dictionary, self._masked)
        self._retrievers = {r.name: r for r in retrievers or stage.default_retrievers()}
        self._start_pools()
        # Access updates are written off the caller's critical path, in order, by
        # one thread, several recalls at a time; ``flush`` (called by reads of the same
        # facade and by close) makes them durable before anything observes them.
        self._access = AccessWriter(store, settings)

    @property
    def reranker(self) -> Reranker:
        """The configured reranker (:class:`NoopReranker` when none)."""
        return self._reranker

    def close(self) -> None:
        """Write pending access updates, then stop the threads. The pipeline can be used
        again afterwards (a reopened facade): fresh pools start threads on first use."""
        self._access.close()
        self._masked.close()
        self._pool.shutdown(wait=True)
        self._ahead_pool.shutdown(wait=True)
        stage.call_each(self._retrievers.values(), "close")  # the graph retriever's pool
        self._start_pools()

    def _start_pools(self) -> None:
        # three more than the retrievers: name masking's work and the answer type's read
        self._pool = ThreadPoolExecutor(
            max_workers=len(self._retrievers) + 3, thread_name_prefix="retriever"
        )
        # the question's embedding, the term counts and the reads that need neither (_start_ahead)
        self._ahead_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ahead")
        self._mask_ahead = MaskAhead(self._pool, self._masked, self._settings)

    def forget_namespace(self, namespace: str) -> None:
        """Drop what the retrievers and name masking keep of ``namespace`` between
        recalls (the concept index, the mask texts), after a write or consolidation."""
        stage.call_each(self._retrievers.values(), "forget_namespace", self._store, namespace)
        self._mask_ahead.forget(namespace)

    masked_vectors = property(lambda self: self._masked, doc="The masked texts' vectors.")
    retrievers = property(lambda self: dict(self._retrievers), doc="Its own, by name.")

    def flush(self) -> None:
        """Wait until every access update submitted so far is written (re-raising
        a store error from one)."""
        self._access.flush()

    def _timed(
        self, name: str, ctx: RetrievalContext, store: MemoryStore
    ) -> tuple[list[Hit], float]:
        mark = time.perf_counter()
        found = self._retrievers[name].retrieve(store, ctx)
        return found, ms_since(mark)

    # ------------------------------------------------------------------
    def prepare(
        self,
        namespace: str,
        query: RecallQuery,
        timings: dict[str, float],
        *,
        resolve: bool | None = None,
    ) -> tuple[RetrievalContext, Plan, datetime]:
        """Resolve the question's people (``resolve``, default the setting
        ``question_resolution``; :func:`graphmem.language.question_type.resolve_question`),
        link its entities, parse its time window, choose the plan and embed it once.
        Returns ``(context, plan, now)``; fills ``timings``."""
        planned = self._plan(namespace, query, timings, resolve)
        return self._context(planned, self._embed(planned.text, timings)), planned.plan, planned.now

    def _plan(
        self,
        namespace: str,
        query: RecallQuery,
        timings: dict[str, float],
        resolve: bool | None,
        embed: bool = False,
    ) -> _Planned:
        """Everything of :meth:`prepare` but the embedding (the plan needs none); with
        ``embed``, the embedding runs on another thread while the plan is made."""
        cfg = self._settings
        now = query.reference_time or self._clock()
        dictionary = self._dictionary(namespace)
        text = query.text
        if cfg.read.planning.question_resolution if resolve is None else resolve:
            text = resolve_question(text, dictionary.people()).text
        early = self._ahead_pool.submit(self._embed, text, timings) if embed else None
        mark = time.perf_counter()
        # the term counts are read while the question is linked (its relations read)
        terms = sorted(set(tokenize(text)))
        counted = self._ahead_pool.submit(self._store.term_stats, namespace, terms)
        links = tuple(dictionary.link(text))
        # "Maya's sister" also links the sister, through the stored relation:
        # read in the question as asked (resolution strips the possessive it walks)
        links = follow_relations(self._store, namespace, query.text, links, dictionary)
        window = None if asks_what_to_do(text) else parse_time_window(text, now)
        stats = counted.result()
        plan = choose_plan(text, links, window, stats, cfg, k=query.k or cfg.read.fusion.top_k)
        plan = self._override(lexical_evidence(plan, text, links, stats), query)
        if query.retrievers is None and cfg.read.rescoring.answer_type_weight > 0 and expected_answer(text):
            plan = dataclasses.replace(
                plan, weights={**plan.weights, ANSWER_TYPE: cfg.read.rescoring.answer_type_weight}
            )
        timings["plan"] = ms_since(mark)
        # docs/spec.md §9.11: memories flagged unretrievable are fetched too; ranking admits
        # them only as direct hits (and superseded ones only with include_history).
        include_history = query.include_history or cfg.read.rescoring.direct_hit_rank > 0
        return _Planned(
            namespace, text, links, window, plan, now, dictionary, include_history, early
        )

    def _embed(self, text: str, timings: dict[str, float]) -> Vector:
        mark = time.perf_counter()
        embedding: Vector = self._embedder.embed([text])[0]
        timings["embed"] = ms_since(mark)
        return embedding

    def _context(self, planned: _Planned, embedding: Vector) -> RetrievalContext:
        return RetrievalContext(
            namespace=planned.namespace,
            text=planned.text,
            embedding=embedding,
            links=planned.links,
            window=planned.window,
            k=self._settings.read.fusion.candidate_k,
            include_history=planned.include_history,
            settings=self._settings,
            dictionary=planned.dictionary,
        )

    def _start_ahead(self, planned: _Planned, active: Sequence[str]) -> AheadStore:
        """Start the reads the active retrievers begin with that need no embedding
        (:mod:`graphmem.retrieval.ahead`): BM25's fulltext query and the graph list's
        (:func:`start_graph_reads`)."""
        ahead = AheadStore(self._store, self._ahead_pool)
        cfg = self._settings
        if "bm25" in active:
            ahead.start_text_search(
                planned.namespace,
                planned.text,
                cfg.read.fusion.candidate_k,
                include_history=planned.include_history,
            )
        if "graph" in active:
            start_graph_reads(ahead, cfg, planned.namespace, planned.links)
        return ahead

    def retrieve(
        self,
        ctx: RetrievalContext,
        names: Sequence[str],
        timings: dict[str, float],
        *,
        store: MemoryStore | None = None,
    ) -> dict[str, list[Hit]]:
        """Run the named retrievers concurrently (each one store call), then order the
        lists that rank by the question's cosine by the name-masked cosine (setting
        ``name_mask_depth``; their candidates are read while the others still run). Where
        the semantic list seeds the concept walk (:func:`start_seeded_walk`), the graph
        list's relation walk runs beside them and its concept walk after that list.
        ``store``: what the retrievers read (default the pipeline's store; a recall passes
        its :class:`AheadStore`). Then the expected answer type's list (:meth:`_answer_type`)."""
        reads = store if store is not None else self._store
        depth = self._settings.read.rescoring.name_mask_depth
        people = masking.masked_people(ctx.links, ctx.dictionary) if depth > 0 else []
        if isinstance(reads, AheadStore):  # the semantic list: the deep list's top
            reads.widen_vector_search(self._mask_ahead.deep_depth(ctx, people))
        walk = start_seeded_walk(self._retrievers.get("graph"), self._pool, names, ctx, reads)
        solo = [n for n in names if walk is None or n != "graph"]
        futures = {n: self._pool.submit(self._timed, n, ctx, reads) for n in solo}
        hits: dict[str, list[Hit]] = {}
        read: Future[tuple[dict[str, MaskText], dict[str, MaskText]]] | None = None
        early = self._mask_ahead.start(reads, self._store, ctx, people)  # none without people
        for name in masking.RESCORED:
            if name in futures:
                hits[name], timings[f"retriever.{name}"] = futures[name].result()
        typed = read_ahead(self._pool, reads, self._settings, ctx, hits)  # beside masking
        if people:
            top = (h.memory_id for n in masking.RESCORED for h in hits.get(n, [])[:depth])
            ids = list(dict.fromkeys(top))
            if ids:
                read = self._pool.submit(early.read, self._store, ctx.namespace, ids, timings)
        for name, future in futures.items():
            if name not in hits:
                hits[name], timings[f"retriever.{name}"] = future.result()
        if read is not None:
            mark = time.perf_counter()
            candidates, known = read.result()
            early.wait_question()
            self._mask_ahead.learn(ctx.namespace, candidates)
            hits = masking.masked_lists(
                reads, ctx, people, candidates, hits, self._masked, self._settings, known
            )
            timings["name_mask"] = ms_since(mark)  # what the recall waited for after retrieval
        if walk is not None:
            hits["graph"] = walk.finish(reads, ctx, hits["semantic"], timings)
        hits = {n: hits[n] for n in names}  # in the order asked for
        return self._answer_type(ctx, hits, timings, typed)

    def _answer_type(
        self,
        ctx: RetrievalContext,
        hits: dict[str, list[Hit]],
        timings: dict[str, float],
        typed: Future[list[Memory]] | None = None,
    ) -> dict[str, list[Hit]]:
        """``hits`` with the expected answer type's list (:func:`with_answer_type`), from
        the candidates ``typed`` read while the other steps ran (:func:`read_ahead`)."""
        mark = time.perf_counter()
        read = {} if typed is None else {m.id: m for m in typed.result()}
        out = with_answer_type(self._store, self._settings, ctx, hits, read)
        if out is not hits:
            timings["answer_type"] = ms_since(mark)
        return out

    def fuse_and_rank(
        self,
        query: RecallQuery,
        ctx: RetrievalContext,
        plan: Plan,
        now: datetime,
        hits: Mapping[str, list[Hit]],
        timings: dict[str, float],
    ) -> list[RecallHit]:
        """Fuse the retrievers' lists with the plan's weights (weighted RRF) and rank:
        hydrate, gates, final weight, MMR and rerank as the plan says. Pure with
        respect to ``hits``: the bench replays it on cached lists (plan variants)."""
        mark = time.perf_counter()
        fused = weighted_rrf(
            {n: [h.memory_id for h in hs] for n, hs in hits.items()},
            plan.weights,
            k=self._settings.read.fusion.rrf_k,
        )
        timings["fusion"] = ms_since(mark)
        # A question about a past window is asked from that window's point of view:
        # freshness is measured at the window's end, so decay does not bury exactly
        # the evidence the question asks for (docs/spec.md §3 freshness, reference time).
        window = ctx.window
        as_of = min(now, window.end) if window is not None and window.precision != "vague" else now
        mark = time.perf_counter()
        ranked = self._ranker.rank(
            ctx.namespace, query, plan, dict(hits), dict(fused), as_of, ctx.embedding, timings
        )
        timings["ranking"] = ms_since(mark) - timings.get("hydration", 0.0)
        return ranked

    def recall(self, namespace: str, query: RecallQuery) -> RecallResult:
        """Run the read pipeline; see the module docstring.

        Raises
        ------
        StoreError
            When a store call fails.
        """
        cfg = self._settings
        timings: dict[str, float] = {}
        started = time.perf_counter()
        if cfg.read.ranking.access_write_window_ms == 0:
            # the earlier recalls' access updates are in the store before this one ranks
            self._access.wait_written()
        # the question is embedded while the plan's reads (term counts, relations) run
        planned = self._plan(namespace, query, timings, None, embed=True)
        plan, now = planned.plan, planned.now
        active = [n for n, w in plan.weights.items() if w > 0 and n in self._retrievers]
        # what needs no query vector is read while the question is embedded
        ahead = self._start_ahead(planned, active)
        assert planned.embedding is not None
        ctx = self._context(planned, planned.embedding.result())
        mark = time.perf_counter()
        hits = self.retrieve(ctx, active, timings, store=ahead.as_store())
        timings["retrievers"] = ms_since(mark)
        window = ctx.window
        ranked = self.fuse_and_rank(query, ctx, plan, now, hits, timings)
        recorded = counted(cfg, ranked, hits) if query.record_access else []
        if recorded:
            mark = time.perf_counter()
            update = access_updates(cfg, recorded, hits, self._clock(), query.session_id)
            # with cold reactivation (docs/spec.md §4): cold memories associated with what was
            # recalled get the associative boost and return to hot (same thread)
            self._access.submit(namespace, update, update[0].accessed_at, query.session_id)
            timings["access_submit"] = ms_since(mark)
        timings["total"] = ms_since(started)
        notes = [
            f"plan {plan.name} (specificity {plan.specificity:.2f})",
            weight_formula(cfg, plan, query),
        ]
        if plan.rerank and isinstance(self._reranker, NoopReranker):
            notes.append("rerank requested by the plan; no reranker configured (no-op)")
        return RecallResult(
            query=query.text,
            namespace=namespace,
            plan=plan.name,
            specificity=plan.specificity,
            linked_entities=tuple(link.surface for link in ctx.links),
            time_window=(window.start, window.end) if window else None,
            weights=plan.weights,
            hits=tuple(ranked),
            notes=tuple(notes),
            timings_ms=timings,
        )

    def _override(self, plan: Plan, query: RecallQuery) -> Plan:
        weights = dict(plan.weights)
        if query.retrievers is not None:
            weights = {n: (w if n in query.retrievers else 0.0) for n, w in weights.items()}
            for n in query.retrievers:
                weights[n] = weights.get(n) or self._settings.read.fusion.retriever_weights.get(n, 1.0) or 1.0
        return dataclasses.replace(
            plan,
            weights=weights,
            k=query.k or plan.k,
            rerank=plan.rerank if query.rerank is None else query.rerank,
            mmr=plan.mmr if query.mmr is None else query.mmr,
        )
