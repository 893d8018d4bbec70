"""The read pipeline (SPEC §3, §4): link → plan → retrieve → fuse → rank → explain → access.

``RecallPipeline.recall`` embeds the query once, links its entities and
parses its time window, lets the planner choose retrievers and weights, runs
the retrievers concurrently (each one store call), fuses with weighted RRF,
hydrates the candidates in one call, applies the gates, adds session support
(candidates sharing a session with the best-fused ones, one store call; see
:mod:`graphmem.retrieval.support`), the final weight ((RRF + support) ×
access boost, freshness as tie-break or factor), optional MMR and reranking,
and records the access update of SPEC §4 on what it returns.
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

import numpy as np

from graphmem.embedding import Embedder
from graphmem.entities import EntityDictionary, EntityLink
from graphmem.models import (
    Explanation,
    Memory,
    RecallHit,
    RecallQuery,
    RecallResult,
    RetrieverScore,
)
from graphmem.retrieval.currency import prefer_newer
from graphmem.retrieval.planner import Plan, choose_plan
from graphmem.retrieval.rerank import NoopReranker, Reranker
from graphmem.retrieval.retrievers import DEFAULT_RETRIEVERS, Hit, RetrievalContext, Retriever
from graphmem.retrieval.retrievers.graph import follow_relations
from graphmem.retrieval.support import session_support
from graphmem.scoring import (
    access_boost,
    composite_relevance,
    confidence_gate,
    decayed_salience,
    final_weight,
    freshness,
    mmr,
    renderable,
    salience_on_access,
    updated_stability,
    weighted_rrf,
)
from graphmem.settings import Settings
from graphmem.store.base import AccessUpdate, MemoryStore, RankFields, TermStats, Vector
from graphmem.text import tokenize
from graphmem.timeparse import parse_time_window
from graphmem.write.compat import Claim
from graphmem.write.consolidation import reactivate_associated

_DAY = 86_400.0


def _days(later: datetime, earlier: datetime | None) -> float:
    return 0.0 if earlier is None else max(0.0, (later - earlier).total_seconds() / _DAY)


class RecallPipeline:
    """Recall memories for a query (SPEC §3). See the module docstring."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        settings: Settings,
        *,
        clock: Callable[[], datetime],
        dictionary: Callable[[str], EntityDictionary],
        reranker: Reranker | None = None,
        retrievers: Sequence[Retriever] = DEFAULT_RETRIEVERS,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._clock = clock
        self._dictionary = dictionary
        self._reranker: Reranker = reranker or NoopReranker()
        self._retrievers = {r.name: r for r in retrievers}
        self._pool = ThreadPoolExecutor(
            max_workers=len(self._retrievers), thread_name_prefix="retriever"
        )
        # Access updates are written off the caller's critical path, in order, by
        # one thread; ``flush`` (called by reads of the same facade and by close)
        # makes them durable before anything observes them.
        self._access_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="access")
        self._pending: deque[Future[object]] = deque()

    @property
    def reranker(self) -> Reranker:
        """The configured reranker (:class:`NoopReranker` when none)."""
        return self._reranker

    def close(self) -> None:
        """Write pending access updates, then stop the threads. The pipeline can be used
        again afterwards (a reopened facade): fresh pools start threads on first use."""
        self.flush()
        self._pool.shutdown(wait=True)
        self._access_pool.shutdown(wait=True)
        self._pool = ThreadPoolExecutor(
            max_workers=len(self._retrievers), thread_name_prefix="retriever"
        )
        self._access_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="access")

    def flush(self) -> None:
        """Wait until every access update submitted so far is written (re-raising
        a store error from one)."""
        while self._pending:
            self._pending.popleft().result()

    def _timed(self, name: str, ctx: RetrievalContext) -> tuple[list[Hit], float]:
        mark = time.perf_counter()
        found = self._retrievers[name].retrieve(self._store, ctx)
        return found, _ms(mark)

    # ------------------------------------------------------------------
    def prepare(
        self, namespace: str, query: RecallQuery, timings: dict[str, float]
    ) -> tuple[RetrievalContext, Plan, datetime]:
        """Embed the query once, link its entities, parse its time window and
        choose the plan. Returns ``(context, plan, now)``; fills ``timings``."""
        cfg = self._settings
        mark = time.perf_counter()
        now = query.reference_time or self._clock()
        embedding = self._embedder.embed([query.text])[0]
        timings["embed"] = _ms(mark)
        mark = time.perf_counter()
        dictionary = self._dictionary(namespace)
        links = tuple(dictionary.link(query.text))
        # "Maya's sister" also links the sister, through the stored relation (issue 12)
        links = follow_relations(self._store, namespace, query.text, links, dictionary)
        window = parse_time_window(query.text, now)
        stats = self._store.term_stats(namespace, sorted(set(tokenize(query.text))))
        plan = choose_plan(query.text, links, window, stats, cfg, k=query.k or cfg.top_k)
        plan = self._override(_lexical_evidence(plan, query.text, links, stats), query)
        timings["plan"] = _ms(mark)
        ctx = RetrievalContext(
            namespace=namespace,
            text=query.text,
            embedding=embedding,
            links=links,
            window=window,
            k=cfg.candidate_k,
            # SPEC §9.11: memories flagged unretrievable are fetched too; ranking admits
            # them only as direct hits (and superseded ones only with include_history).
            include_history=query.include_history or cfg.direct_hit_rank > 0,
            settings=cfg,
            dictionary=dictionary,
        )
        return ctx, plan, now

    def retrieve(
        self, ctx: RetrievalContext, names: Sequence[str], timings: dict[str, float]
    ) -> dict[str, list[Hit]]:
        """Run the named retrievers concurrently (each one store call)."""
        futures = {n: self._pool.submit(self._timed, n, ctx) for n in names}
        hits: dict[str, list[Hit]] = {}
        for name, future in futures.items():
            hits[name], timings[f"retriever.{name}"] = future.result()
        return hits

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
            k=self._settings.rrf_k,
        )
        timings["fusion"] = _ms(mark)
        # A question about a past window is asked from that window's point of view:
        # freshness is measured at the window's end, so decay does not bury exactly
        # the evidence the question asks for (SPEC §3 freshness, reference time).
        window = ctx.window
        as_of = min(now, window.end) if window is not None and window.precision != "vague" else now
        mark = time.perf_counter()
        ranked = self._rank(
            ctx.namespace, query, plan, dict(hits), dict(fused), as_of, ctx.embedding, timings
        )
        timings["ranking"] = _ms(mark) - timings.get("hydration", 0.0)
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
        ctx, plan, now = self.prepare(namespace, query, timings)
        mark = time.perf_counter()
        active = [n for n, w in plan.weights.items() if w > 0 and n in self._retrievers]
        hits = self.retrieve(ctx, active, timings)
        timings["retrievers"] = _ms(mark)
        window = ctx.window
        ranked = self.fuse_and_rank(query, ctx, plan, now, hits, timings)
        counted = self._counted(ranked, hits) if query.record_access else []
        if counted:
            mark = time.perf_counter()
            update = self._access_updates(counted, hits, self._clock(), query.session_id)
            self._pending.append(
                self._access_pool.submit(self._store.record_access, namespace, update)
            )
            # seed 003 cold reactivation: cold memories associated with what was
            # recalled get the associative boost and return to hot (same thread).
            self._pending.append(
                self._access_pool.submit(
                    reactivate_associated,
                    self._store,
                    cfg,
                    namespace,
                    [h.memory.id for h in counted],
                    update[0].accessed_at,
                    query.session_id,
                )
            )
            timings["access_submit"] = _ms(mark)
        timings["total"] = _ms(started)
        notes = [
            f"plan {plan.name} (specificity {plan.specificity:.2f})",
            self._formula(plan, query),
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
                weights[n] = weights.get(n) or self._settings.retriever_weights.get(n, 1.0) or 1.0
        return Plan(
            name=plan.name,
            weights=weights,
            k=query.k or plan.k,
            rerank=plan.rerank if query.rerank is None else query.rerank,
            mmr=plan.mmr if query.mmr is None else query.mmr,
            specificity=plan.specificity,
            signals=plan.signals,
        )

    # ------------------------------------------------------------------
    def _rank(
        self,
        namespace: str,
        query: RecallQuery,
        plan: Plan,
        hits: dict[str, list[Hit]],
        rrf: dict[str, float],
        now: datetime,
        embedding: Vector,
        timings: dict[str, float],
    ) -> list[RecallHit]:
        cfg = self._settings
        need_vectors = plan.mmr or query.profile == "composite"
        # A reranker sees the top max(k, rerank_depth) (MMR included): reordering only the
        # k it returns could not bring in anything the fusion ranked just below k.
        rerank = plan.rerank and not isinstance(self._reranker, NoopReranker)
        cut = max(plan.k, cfg.rerank_depth) if rerank else plan.k
        mark = time.perf_counter()
        memories: dict[str, Memory] = {}
        if need_vectors:  # MMR and the composite profile read every candidate's vector
            found = self._store.get_memories(namespace, list(rrf), with_embeddings=True)
            memories = {m.id: m for m in found}
            fields = {m.id: RankFields.of(m) for m in found}
        else:  # score every candidate on its rank fields; hydrate only what is returned
            fields = {f.memory_id: f for f in self._store.rank_fields(namespace, list(rrf))}
        timings["hydration"] = _ms(mark)
        direct = _direct_hits(hits, cfg.direct_hit_rank)
        pool = [f for f in fields.values() if self._admissible(f, query, direct)]
        kept = confidence_gate(
            {f.memory_id: f.confidence for f in pool}, min_confidence=cfg.min_confidence
        )
        pool = [f for f in pool if f.memory_id in kept]
        support = (
            {}
            if _without_session_support(plan)
            else self._session_support(namespace, {f.memory_id: rrf[f.memory_id] for f in pool})
        )
        ranks = {
            name: {h.memory_id: (i + 1, h) for i, h in enumerate(hs)} for name, hs in hits.items()
        }
        scored: dict[str, tuple[float, float, float]] = {}
        for f in pool:
            fresh = freshness(
                _days(now, f.last_observed_at),
                cfg.half_life_days[f.type],
                f.stability,
                floor=cfg.freshness_floor,
            )
            boost = access_boost(f.access_count)
            relevance = rrf[f.memory_id] + support.get(f.memory_id, 0.0)
            # SPEC §9.12: by default the boost only orders equals (use never reorders)
            factor = boost if cfg.access_mode == "weight" else 1.0
            if query.profile == "composite":
                weight = self._composite(memories[f.memory_id], embedding, now)
            elif cfg.freshness_mode == "weight":
                weight = final_weight(relevance, fresh, factor)
            else:  # "tiebreak": decay orders equals but never buries evidence
                weight = final_weight(relevance, 1.0, factor)
            scored[f.memory_id] = (weight, fresh, boost)
        ids = [
            f.memory_id
            for f in sorted(
                pool,
                key=lambda f: (
                    -scored[f.memory_id][0],
                    -scored[f.memory_id][1],
                    -scored[f.memory_id][2],
                    -f.confidence,
                    f.memory_id,
                ),
            )
        ]
        if plan.mmr and ids:
            ids = mmr(
                {i: scored[i][0] for i in ids},
                {i: _vector(memories[i]) for i in ids if memories[i].embedding is not None},
                k=cut,
                lam=cfg.mmr_lambda,
            )
        ids = ids[:cut]
        if not need_vectors:
            mark = time.perf_counter()
            memories = {m.id: m for m in self._store.get_memories(namespace, ids)}
            timings["hydration"] += _ms(mark)
        order = [memories[i] for i in ids if i in memories]  # one deleted meanwhile is skipped
        newer_than: dict[str, str] = {}
        if cfg.update_rank_margin >= 0.0 and len(order) > 1 and query.profile != "composite":
            ranked_ids, newer_than = prefer_newer(
                [m.id for m in order],
                {m.id: Claim.of(m) for m in order if m.extractor != "verbatim"},
                {m.id: m.last_observed_at for m in order},
                {h.memory_id: h.score for h in hits.get("semantic", [])},
                margin=cfg.update_rank_margin,
            )
            order = [memories[i] for i in ranked_ids]
        rerank_note = f"{self._reranker.name} (not applied)"
        if rerank:
            reranked = self._reranker.rerank(query.text, order)
            position = {mid: i for i, (mid, _) in enumerate(reranked)}
            order = sorted(order, key=lambda m: position.get(m.id, len(position)))[: plan.k]
            rerank_note = f"{self._reranker.name} (applied)"
        elif not plan.rerank:
            rerank_note = "off for this plan"
        out: list[RecallHit] = []
        for m in order:
            weight, fresh, boost = scored[m.id]
            per = {
                name: RetrieverScore(
                    rank=r[m.id][0], score=r[m.id][1].score, detail=r[m.id][1].detail
                )
                for name, r in ranks.items()
                if m.id in r
            }
            explanation = Explanation(
                plan=plan.name,
                retrievers=per,
                rrf=rrf[m.id],
                freshness=fresh,
                access_boost=boost,
                confidence=m.confidence,
                weight=weight,
                rerank=rerank_note,
                renderable=renderable(m.confidence, render_gate=cfg.render_gate),
                extra=_extra(m.id, support, newer_than),
            )
            out.append(
                RecallHit(
                    memory=m.model_copy(update={"embedding": None}),
                    weight=weight,
                    explanation=explanation,
                )
            )
        return out

    def _formula(self, plan: Plan, query: RecallQuery) -> str:
        """How this recall's weights were computed, for its explanation."""
        cfg = self._settings
        if query.profile == "composite":
            return "weight = w1·similarity + w2·salience + w3·confidence (composite profile)"
        plain = _without_session_support(plan) or cfg.session_support <= 0.0
        relevance = "RRF" if plain else "(RRF + session support)"
        factors = [relevance]
        ties: list[str] = []
        (factors if cfg.freshness_mode == "weight" else ties).append("freshness")
        (factors if cfg.access_mode == "weight" else ties).append("access boost")
        formula = "weight = " + " × ".join(factors)
        if ties:
            formula += f"; ties broken by {', then '.join(ties)}"
        if cfg.update_rank_margin >= 0.0:
            formula += "; a newer contradicting memory ranks above the older one"
        return formula

    def _session_support(self, namespace: str, scores: dict[str, float]) -> dict[str, float]:
        """Session support of the admitted candidates (graphmem.retrieval.support): one
        store call for their sessions, none when the setting is off."""
        cfg = self._settings
        if cfg.session_support <= 0.0 or not scores:
            return {}
        sessions = self._store.memory_sessions(namespace, list(scores))
        return session_support(
            scores,
            sessions,
            weight=cfg.session_support,
            depth=cfg.session_support_depth,
            above_chance=cfg.session_support_mode == "above_chance",
        )

    def _admissible(self, f: RankFields, query: RecallQuery, direct: set[str]) -> bool:
        if not query.include_history and not f.current:
            return False
        if not query.include_history and not f.retrievable and f.memory_id not in direct:
            return False  # SPEC §9.11: out of broad context, reachable when targeted
        if query.types is not None:
            return f.type in query.types and not f.type_uncertain
        return True

    def _composite(self, m: Memory, embedding: Vector, now: datetime) -> float:
        """Seed 004 composite profile: w1·similarity + w2·salience + w3·confidence."""
        cfg = self._settings
        sim = float(np.dot(_vector(m), embedding)) if m.embedding is not None else 0.0
        sal = decayed_salience(
            m.salience,
            _days(now, m.last_accessed_at or m.last_observed_at),
            decay_rate=cfg.salience_decay[m.type],
            stability=m.stability,
            stability_scaling=cfg.salience_stability_scaling,
        )
        return composite_relevance(max(0.0, sim), sal, m.confidence, weights=cfg.composite_weights)

    def _counted(self, ranked: list[RecallHit], hits: Mapping[str, list[Hit]]) -> list[RecallHit]:
        """What this recall counts as accessed (SPEC §9.12, ``Settings.access_count_top``):
        its top N results that some retriever found directly and that pass the render gate."""
        cfg = self._settings
        direct = {h.memory_id for hs in hits.values() for h in hs if not h.associative}
        top = ranked[: cfg.access_count_top]
        return [h for h in top if h.memory.id in direct and h.explanation.renderable]

    def _access_updates(
        self,
        ranked: list[RecallHit],
        hits: dict[str, list[Hit]],
        now: datetime,
        session_id: str | None,
    ) -> list[AccessUpdate]:
        """SPEC §4 access update: count, time, stability (direct 0.1 / associative
        0.03 × spaced-repetition factor), salience, session."""
        cfg = self._settings
        direct = {h.memory_id for hs in hits.values() for h in hs if not h.associative}
        updates: list[AccessUpdate] = []
        for hit in ranked:
            m = hit.memory
            boost = (
                cfg.stability_direct_boost if m.id in direct else cfg.stability_associative_boost
            )
            since = _days(now, m.last_accessed_at or m.created_at)
            updates.append(
                AccessUpdate(
                    memory_id=m.id,
                    accessed_at=now,
                    stability=updated_stability(
                        m.stability,
                        since,
                        boost=boost,
                        interval_days=cfg.spaced_rep_interval_days,
                        max_factor=cfg.spaced_rep_max,
                    ),
                    salience=salience_on_access(m.salience, step=cfg.salience_access_step),
                    session_id=session_id,
                    reactivate=m.tier == "cold" or not m.retrievable,
                )
            )
        return updates


def _lexical_evidence(plan: Plan, text: str, links: Sequence[EntityLink], stats: TermStats) -> Plan:
    """BM25 needs a content term: when no query word other than a linked entity's name
    occurs in the namespace ("Where does Dana live?" against memories that say "lives"),
    BM25 ranks memories by the name alone — shortest first — and RRF, which reads ranks,
    not scores, would fuse that noise at full weight. The list then gets weight 0 for
    this recall (the entity retriever already carries the name)."""
    if plan.weights.get("bm25", 0.0) <= 0.0:
        return plan
    names = {t for link in links for t in tokenize(link.surface)}
    content = [t for t in set(tokenize(text)) - names if stats.df.get(t, 0) > 0]
    if content:
        return plan
    return dataclasses.replace(
        plan,
        weights={**plan.weights, "bm25": 0.0},
        signals={**plan.signals, "bm25_content_terms": 0.0},
    )


def _direct_hits(hits: Mapping[str, list[Hit]], depth: int) -> set[str]:
    """Ids a question targets directly (SPEC §9.11): in the top ``depth`` of the
    semantic, BM25 or entity list."""
    return {
        h.memory_id
        for name in ("semantic", "bm25", "entity")
        for h in hits.get(name, [])[:depth]
        if not h.associative
    }


def _extra(
    memory_id: str, support: Mapping[str, float], newer_than: Mapping[str, str]
) -> dict[str, object]:
    """Explanation extras: session support, and the older memory a newer one outranks."""
    out: dict[str, object] = {}
    if memory_id in support:
        out["session_support"] = support[memory_id]
    if memory_id in newer_than:
        out["newer_than"] = newer_than[memory_id]
    return out


def _ms(since: float) -> float:
    return (time.perf_counter() - since) * 1000.0


def _vector(m: Memory) -> Vector:
    return np.asarray(m.embedding, dtype=np.float32)


def _without_session_support(plan: Plan) -> bool:
    """A plan that diversifies (MMR) is not given a prior that concentrates; nor is one
    that walks a relation, whose evidence lies in other sessions (issue 12)."""
    return plan.mmr or plan.name == "relational"
