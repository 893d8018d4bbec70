"""Ranking of a recall's fused candidates (docs/spec.md §3, §4, §9.6, §9.11–§9.12).

:class:`Ranker` turns the weighted-RRF scores of a recall into its hits:
hydrate the candidates' rank fields (one store call), admit them (history,
retrievability, types) and gate them by confidence, add session support
(:mod:`graphmem.retrieval.rescoring.support`), weigh and order them with the pure
:func:`graphmem.scoring.ranking.rank_score` / :func:`~graphmem.scoring.ranking.rank_order`
(or the composite profile), diversify (MMR), bring the asked attribute's current
value forward (:mod:`~graphmem.retrieval.ranking.attribute_rank`), move a newer contradicting
memory above the older one (:mod:`graphmem.retrieval.ranking.currency`), rerank, explain
each hit (:class:`graphmem.models.Explanation`) and weigh the rules' first hits together
(:mod:`graphmem.retrieval.ranking.learned`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from graphmem.entities import EntityDictionary
from graphmem.language.claims import Claim, claim_of
from graphmem.language.questions import asks_present
from graphmem.language.voice import is_transcript
from graphmem.models import Explanation, Memory, RecallHit, RecallQuery, RetrieverScore
from graphmem.retrieval.planning.planner import Plan
from graphmem.retrieval.ranking.admission import admissible, direct_hits
from graphmem.retrieval.ranking.attribute_examples import AttributeExamples, votes_on
from graphmem.retrieval.ranking.attribute_rank import (
    asked_attributes,
    attribute_window,
    question_first,
    question_subject,
)
from graphmem.retrieval.ranking.currency import prefer_newer, subject_masked
from graphmem.retrieval.ranking.event_order import event_first
from graphmem.retrieval.ranking.formula import weight_formula, without_session_support
from graphmem.retrieval.ranking.lead import LEAD_REASON, semantic_lead
from graphmem.retrieval.ranking.learned import LearnedOrder, Question, learned_order
from graphmem.retrieval.ranking.rerank import NoopReranker, Reranker, reranked
from graphmem.retrieval.ranking.still import still_successor
from graphmem.retrieval.rescoring.masking import MaskedEmbeddings
from graphmem.retrieval.rescoring.support import session_support
from graphmem.retrieval.retrievers import Hit
from graphmem.scoring import (
    access_boost,
    composite_relevance,
    confidence_gate,
    decayed_salience,
    freshness,
    mmr,
    renderable,
)
from graphmem.scoring.ranking import RankScore, rank_order, rank_score
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, RankFields, Vector


def days_between(later: datetime, earlier: datetime | None) -> float:
    """Days from ``earlier`` to ``later``, at least 0 (0 when ``earlier`` is None)."""
    return 0.0 if earlier is None else max(0.0, (later - earlier) / timedelta(days=1))


def ms_since(mark: float) -> float:
    """Milliseconds since ``mark`` (a :func:`time.perf_counter` value)."""
    return (time.perf_counter() - mark) * 1000.0


@dataclass(slots=True)
class _Candidates:
    """A recall's admitted candidates, scored (``memories``: with embeddings, for MMR)."""

    pool: list[RankFields]
    scores: dict[str, RankScore]
    support: dict[str, float]
    memories: dict[str, Memory]


class Ranker:
    """Ranks a recall's fused candidates; see the module docstring.

    Parameters
    ----------
    store : MemoryStore
        Read only: rank fields, memories, sessions.
    settings : Settings
        The ranking constants (docs/spec.md §8).
    reranker : Reranker
        Applied when the plan asks for it (:class:`NoopReranker`: none configured).
    dictionary : callable, optional
        Namespace → its entity dictionary: whom a claim is about (newer over older, the
        asked attribute); without it, the names in the text.
    """

    def __init__(
        self,
        store: MemoryStore,
        settings: Settings,
        reranker: Reranker,
        dictionary: Callable[[str], EntityDictionary] | None = None,
        masked: MaskedEmbeddings | None = None,
    ) -> None:
        self._store = store
        self._settings = settings
        self._reranker = reranker
        self._dictionary = dictionary
        self._masked = masked
        self._examples = AttributeExamples.of(masked, settings)
        self._learned = LearnedOrder.shipped()

    def rank(
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
        """The recall's hits, best first (at most ``plan.k``), each explained.

        ``rrf``: fused score per candidate id; ``now``: the time freshness is measured
        at; ``timings["hydration"]`` gets the milliseconds spent reading the store.
        """
        cfg = self._settings
        need_vectors = plan.mmr or query.profile == "composite"
        # A reranker sees the top max(k, rerank_depth) (MMR included): reordering only the
        # k it returns could not bring in anything the fusion ranked just below k.
        rerank = plan.rerank and not isinstance(self._reranker, NoopReranker)
        cut = max(plan.k, cfg.read.rescoring.rerank_depth) if rerank else plan.k
        found = self._score(namespace, query, plan, hits, rrf, now, embedding, timings)
        ids = rank_order(found.scores, {f.memory_id: f.confidence for f in found.pool})
        if plan.mmr and ids:
            vectors = {i: _vector(m) for i in ids if (m := found.memories[i]).embedding is not None}
            weights = {i: found.scores[i].weight for i in ids}
            ids = mmr(weights, vectors, k=cut, lam=cfg.read.ranking.mmr_lambda)
        asked = asked_attributes(query.text)
        window = 0 if query.profile == "composite" else attribute_window(query.text, cfg, asked)
        ids = ids[: max(cut, window)]
        memories = found.memories
        if not need_vectors:
            mark = time.perf_counter()
            # the embeddings of what is returned tell near-duplicate claims (newer over older)
            with_vectors = (
                cfg.read.rescoring.update_rank_margin >= 0.0 and query.profile != "composite"
            )
            memories = {
                m.id: m
                for m in self._store.get_memories(namespace, ids, with_embeddings=with_vectors)
            }
            timings["hydration"] += ms_since(mark)
        if query.profile == "composite":
            order = [memories[i] for i in ids if i in memories]  # one deleted is skipped
            reordered: dict[str, str] = {}
        else:  # the question's rules: its clear semantic leader, its attribute, its person
            order, reordered = self._about_the_question(
                namespace, ids, memories, query, (plan, cut, window, asked), hits, embedding
            )
        order, newer_than = self._prefer_newer(namespace, order, query, hits)
        order = self._which_event(namespace, order, query, reordered)
        order, rerank_note = reranked(self._reranker, order, query.text, plan, rerank)
        formula = weight_formula(cfg, plan, query)
        ranks = {
            name: {h.memory_id: (i + 1, h) for i, h in enumerate(hs)} for name, hs in hits.items()
        }
        explained = [
            self._hit(m, plan, ranks, rrf, found, (newer_than, reordered), rerank_note, formula)
            for m in order
        ]
        depth = 0 if query.profile == "composite" or rerank else cfg.read.rescoring.learned_order_depth
        if depth < 2:  # off (the default), or a cross-encoder's order: nothing more to read
            return explained
        ask = Question(asks_present(query.text), asked, query.text, self._known(namespace))
        return learned_order(explained, order, ask, (self._examples, self._learned), depth)

    def _score(
        self,
        namespace: str,
        query: RecallQuery,
        plan: Plan,
        hits: Mapping[str, list[Hit]],
        rrf: dict[str, float],
        now: datetime,
        embedding: Vector,
        timings: dict[str, float],
    ) -> _Candidates:
        """Hydrate, admit, gate, add session support and weigh every candidate."""
        cfg = self._settings
        mark = time.perf_counter()
        memories: dict[str, Memory] = {}
        if plan.mmr or query.profile == "composite":  # they read every candidate's vector
            stored = self._store.get_memories(namespace, list(rrf), with_embeddings=True)
            memories = {m.id: m for m in stored}
            fields = {m.id: RankFields.of(m) for m in stored}
        else:  # score every candidate on its rank fields; hydrate only what is returned
            fields = {f.memory_id: f for f in self._store.rank_fields(namespace, list(rrf))}
        timings["hydration"] = ms_since(mark)
        direct = direct_hits(hits, cfg.read.rescoring.direct_hit_rank)
        pool = [f for f in fields.values() if admissible(f, query, direct)]
        kept = confidence_gate(
            {f.memory_id: f.confidence for f in pool},
            min_confidence=cfg.read.ranking.min_confidence,
        )
        pool = [f for f in pool if f.memory_id in kept]
        support = (
            {}
            if without_session_support(plan)
            else self._session_support(namespace, {f.memory_id: rrf[f.memory_id] for f in pool})
        )
        scores: dict[str, RankScore] = {}
        for f in pool:
            fresh = freshness(
                days_between(now, f.last_observed_at),
                cfg.read.ranking.half_life_days[f.type],
                f.stability,
                floor=cfg.read.ranking.freshness_floor,
            )
            boost = access_boost(f.access_count)
            if query.profile == "composite":
                weight = self._composite(memories[f.memory_id], embedding, now)
                scores[f.memory_id] = RankScore(weight, fresh, boost)
            else:
                scores[f.memory_id] = rank_score(
                    rrf[f.memory_id] + support.get(f.memory_id, 0.0),
                    fresh,
                    boost,
                    freshness_mode=cfg.read.ranking.freshness_mode,
                    access_mode=cfg.read.ranking.access_mode,
                )
        return _Candidates(pool, scores, support, memories)

    def _about_the_question(
        self,
        namespace: str,
        ids: list[str],
        memories: Mapping[str, Memory],
        query: RecallQuery,
        shape: tuple[Plan, int, int, frozenset[str]],
        hits: Mapping[str, list[Hit]],
        embedding: Vector,
    ) -> tuple[list[Memory], dict[str, str]]:
        """The clear semantic leader first (:mod:`~graphmem.retrieval.ranking.lead`), then
        the asked attribute and person (:func:`~.attribute_rank.question_first`); ``shape``:
        plan, cut, attribute window, asked attributes. Returns the order and why each moved."""
        plan, cut, window, asked = shape
        cfg = self._settings
        cosines = {h.memory_id: h.score for h in hits.get("semantic", [])}
        # a question that names a time picks among like memories by their time, not wording
        margin = cfg.read.rescoring.semantic_lead_margin
        margin = 0.0 if plan.signals.get("temporal_precision") else margin
        ids, lead = semantic_lead(ids, cosines, plan.k, margin)
        order = [memories[i] for i in ids if i in memories]
        known = self._known(namespace)
        successor = (
            still_successor(self._store, namespace, query.text, known, asked, embedding, order)
            if window
            else None
        )
        order, why = question_first(
            order, query.text, known, window, cut, cfg, cosines, asked, self._examples, successor
        )
        return order, ({lead: LEAD_REASON} if lead else {}) | why

    def _prefer_newer(
        self,
        namespace: str,
        order: list[Memory],
        query: RecallQuery,
        hits: Mapping[str, list[Hit]],
    ) -> tuple[list[Memory], dict[str, str]]:
        """A newer memory ranks above an older one it contradicts (§9.9 at read time;
        :func:`graphmem.retrieval.ranking.currency.prefer_newer`). Returns the order and, per
        moved memory, the id of the older one it now outranks."""
        cfg = self._settings
        if cfg.read.rescoring.update_rank_margin < 0.0 or len(order) <= 1:
            return order, {}
        if query.profile == "composite":
            return order, {}
        by_id = {m.id: m for m in order}
        known = self._known(namespace)
        claims = {  # transcript turns and one-off events are no values of an attribute
            m.id: Claim.of(m) if known is None else claim_of(m, known)
            for m in order
            if not is_transcript(m.extractor, m.content) and m.type != "Event"
        }
        vectors = {m.id: _vector(m) for m in order if m.embedding is not None}
        present, voting = asks_present(query.text), [m for m in order if m.id in claims]
        ranked_ids, newer_than = prefer_newer(
            [m.id for m in order],
            claims,
            {m.id: m.last_observed_at for m in order},
            {h.memory_id: h.score for h in hits.get("semantic", [])},
            margin=cfg.read.rescoring.update_rank_margin,
            vectors=vectors,
            near=cfg.dynamics.consolidation_similarity,
            related=cfg.read.rescoring.update_rank_similarity,
            related_vectors=subject_masked(self._masked, claims, vectors),
            present=present,
            # masked nearness decides only what holds now (LoCoMo's past events: no)
            masked_near=cfg.read.rescoring.update_rank_masked_near if present else 2.0,
            asked=(asked := asked_attributes(query.text)),
            voted=votes_on(self._examples, voting, asked),
        )
        return [by_id[i] for i in ranked_ids], newer_than

    def _which_event(
        self, namespace: str, order: list[Memory], query: RecallQuery, why: dict[str, str]
    ) -> list[Memory]:
        """"First", "last", "in November": which like event the question asks for (``why``
        gets the reason; :func:`graphmem.retrieval.ranking.event_order.event_first`)."""
        if query.profile == "composite":
            return order
        asked_person = question_subject(query.text, self._known(namespace)) or ()
        order, picked = event_first(order, query.text, asked_person)
        why.update((i, "moved up: the event the question picks by its time") for i in picked)
        return order

    def _known(self, namespace: str) -> EntityDictionary | None:
        return self._dictionary(namespace) if self._dictionary is not None else None

    def _hit(
        self,
        m: Memory,
        plan: Plan,
        ranks: Mapping[str, Mapping[str, tuple[int, Hit]]],
        rrf: Mapping[str, float],
        found: _Candidates,
        moves: tuple[Mapping[str, str], Mapping[str, str]],
        rerank_note: str,
        formula: str,
    ) -> RecallHit:
        newer_than, reordered = moves  # the older memory it outranks; why a question rule moved it
        score = found.scores[m.id]
        per = {
            name: RetrieverScore(rank=r[m.id][0], score=r[m.id][1].score, detail=r[m.id][1].detail)
            for name, r in ranks.items()
            if m.id in r
        }
        explanation = Explanation(
            plan=plan.name,
            retrievers=per,
            rrf=rrf[m.id],
            freshness=score.freshness,
            access_boost=score.access_boost,
            confidence=m.confidence,
            weight=score.weight,
            rerank=rerank_note,
            renderable=renderable(
                m.confidence, render_gate=self._settings.read.ranking.render_gate
            ),
            session_support=found.support.get(m.id),
            newer_than=newer_than.get(m.id),
            reordered=reordered.get(m.id),
            formula=formula,
        )
        return RecallHit(
            memory=m.model_copy(update={"embedding": None}),
            weight=score.weight,
            explanation=explanation,
        )

    def _session_support(self, namespace: str, scores: dict[str, float]) -> dict[str, float]:
        """Session support of the admitted candidates (graphmem.retrieval.rescoring.support): one
        store call for their sessions, none when the setting is off."""
        cfg = self._settings
        if cfg.read.fusion.session_support <= 0.0 or not scores:
            return {}
        sessions = self._store.memory_sessions(namespace, list(scores))
        return session_support(
            scores,
            sessions,
            weight=cfg.read.fusion.session_support,
            depth=cfg.read.fusion.session_support_depth,
            above_chance=cfg.read.fusion.session_support_mode == "above_chance",
            noise=cfg.read.fusion.session_support_noise,
        )

    def _composite(self, m: Memory, embedding: Vector, now: datetime) -> float:
        """The composite profile (docs/spec.md §4): w1·similarity + w2·salience + w3·confidence."""
        cfg = self._settings
        sim = float(np.dot(_vector(m), embedding)) if m.embedding is not None else 0.0
        sal = decayed_salience(
            m.salience,
            days_between(now, m.last_accessed_at or m.last_observed_at),
            decay_rate=cfg.dynamics.salience_decay[m.type],
            stability=m.stability,
            stability_scaling=cfg.dynamics.salience_stability_scaling,
        )
        return composite_relevance(
            max(0.0, sim), sal, m.confidence, weights=cfg.read.ranking.composite_weights
        )


def _vector(m: Memory) -> Vector:
    return np.asarray(m.embedding, dtype=np.float32)
