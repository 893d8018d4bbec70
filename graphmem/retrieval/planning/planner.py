"""The query planner: specificity → plan (docs/spec.md §3 "Query planner").

``specificity = 0.35·entity_density + 0.25·temporal_precision
+ 0.25·lexical_rarity + 0.15·type_cue_strength``; plans, first match wins:
precise (≥ 0.8) → entity-centric (a link with confidence > 0.85) →
temporal-anchored (a time window) → exploratory (< 0.4) → hybrid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from graphmem.entities import EntityLink
from graphmem.language.question_type import asks_for_several, asks_when
from graphmem.language.timeparse import TimeWindow
from graphmem.language.words import FUNCTION_WORDS
from graphmem.models import PlanName
from graphmem.retrieval.retrievers.concepts import concepts_apply
from graphmem.scoring import specificity
from graphmem.settings import RETRIEVERS, Settings
from graphmem.store.base import TermStats
from graphmem.store.lucene import lucene_idf
from graphmem.text import tokenize

#: Words that name a memory type outright (1.0) or imply one (0.5).
EXPLICIT_TYPE_WORDS = frozenset(
    {"fact", "facts", "preference", "preferences", "event", "events", "entity", "relation",
     "relationship", "relationships"}
)  # fmt: skip
IMPLIED_TYPE_WORDS = frozenset(
    {"prefer", "prefers", "like", "likes", "favorite", "favourite", "love", "loves", "hate",
     "happened", "happen", "met", "meet", "attend", "attended", "visited", "know", "knows"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Plan:
    """A retrieval plan: which retrievers, with which RRF weights, and options."""

    name: PlanName
    weights: dict[str, float]
    k: int
    rerank: bool
    mmr: bool
    specificity: float
    signals: dict[str, float] = field(default_factory=dict)
    # the answer gathers several memories (question.asks_for_several): no session support
    aggregate: bool = False


def lexical_rarity(terms: list[str], stats: TermStats) -> float:
    """Mean IDF of the query terms found in the namespace / the namespace's max IDF.

    IDF is the BM25 one (:func:`graphmem.store.lucene.lucene_idf`); the maximum
    is that of a term in one document. Terms absent from the namespace carry no
    evidence and are skipped. Result in [0, 1].
    """
    n_docs = stats.n_docs
    if n_docs == 0:
        return 0.0
    present = [stats.df[t] for t in terms if stats.df.get(t, 0) > 0]
    if not present:
        return 0.0
    idf = [lucene_idf(n_docs, min(df, n_docs)) for df in present]
    max_idf = lucene_idf(n_docs, 1)
    return min(1.0, (sum(idf) / len(idf)) / max_idf) if max_idf > 0 else 0.0


def type_cue_strength(terms: list[str]) -> float:
    """1.0 when the query names a memory type, 0.5 when it implies one, else 0."""
    if any(t in EXPLICIT_TYPE_WORDS for t in terms):
        return 1.0
    if any(t in IMPLIED_TYPE_WORDS for t in terms):
        return 0.5
    return 0.0


def choose_plan(
    text: str,
    links: tuple[EntityLink, ...],
    window: TimeWindow | None,
    stats: TermStats,
    settings: Settings,
    *,
    k: int,
) -> Plan:
    """Compute specificity and pick the plan (docs/spec.md §3). ``k`` is the requested size.

    The namespace's user (``EntityLink.is_user``, docs/spec.md §9.14) is the subject of nearly
    every memory of their namespace, so a link to them ("Where do I live?", "What does
    Chloe eat?" in Chloe's namespace) narrows nothing: it does not make the plan
    entity-centric (relations walked from the user, "my daughter", link someone else),
    nor exploratory: it is a question about someone (hybrid).

    A question whose answer gathers several memories (:func:`asks_for_several`,
    ``Settings.read.planning.aggregate_questions``) gets its plan with ``aggregate`` set: the
    ranking gives it no session support."""
    plan = _pick_plan(text, links, window, stats, settings, k=k)
    if settings.read.planning.aggregate_questions and asks_for_several(text):
        return replace(plan, aggregate=True)
    return plan


def _pick_plan(
    text: str,
    links: tuple[EntityLink, ...],
    window: TimeWindow | None,
    stats: TermStats,
    settings: Settings,
    *,
    k: int,
) -> Plan:
    """Compute specificity and pick the plan (docs/spec.md §3). ``k`` is the requested size."""
    terms = tokenize(text)
    density = min(1.0, len(links) / max(1, len(terms)))
    precision = settings.read.planning.temporal_precision[window.precision] if window else 0.0
    rarity = lexical_rarity(terms, stats)
    cue = type_cue_strength(terms)
    score = specificity(density, precision, rarity, cue, weights=settings.read.planning.specificity_weights)
    signals = {
        "entity_density": density,
        "temporal_precision": precision,
        "lexical_rarity": rarity,
        "type_cue_strength": cue,
    }
    base = dict(settings.read.fusion.retriever_weights)
    if concepts_apply(settings, stats.n_docs):
        # the graph list carries the concept walk (graphmem.retrieval.retrievers.concepts)
        base["graph"] = settings.read.graph.graph_concept_fusion_weight
    if window is None and settings.read.planning.event_time_ranking and asks_when(text):
        # a 'when' question's temporal list: its neighbours that carry an event time
        # (graphmem.retrieval.retrievers.temporal), at their own weight
        base["temporal"] = settings.read.planning.when_weight
    if score >= settings.read.planning.specificity_precise:
        weights = {
            name: (base[name] if name in ("semantic", "entity") else 0.0) for name in RETRIEVERS
        }
        return Plan("precise", weights, min(k, settings.read.planning.precise_k), False, False, score, signals)
    if any(link.via is not None for link in links):
        # the question walks a stored relation ("Maya's sister"): its answer is what the
        # graph reaches, which no lexical or semantic list ranks
        base["graph"] = settings.read.planning.relational_graph_weight
        return Plan("relational", base, k, False, False, score, signals)
    if any(
        link.confidence > settings.read.planning.entity_plan_confidence and not link.is_user
        for link in links
    ):
        base["entity"] = settings.read.planning.entity_centric_weight
        return Plan("entity-centric", base, k, False, False, score, signals)
    if window is not None:
        base["temporal"] = settings.read.planning.temporal_anchored_weight
        return Plan("temporal-anchored", base, k, False, False, score, signals)
    about_user = any(link.is_user for link in links)
    if score < settings.read.planning.specificity_exploratory and not about_user:
        # a question about the user ("Which truck am I driving now?") is not vague
        return Plan("exploratory", base, k, True, True, score, signals)
    return Plan("hybrid", base, k, False, False, score, signals)


def lexical_evidence(plan: Plan, text: str, links: Sequence[EntityLink], stats: TermStats) -> Plan:
    """BM25 needs a content term: when no query word other than a linked entity's name
    occurs in the namespace ("Where does Dana live?" against memories that say "lives"),
    BM25 ranks memories by the name alone — shortest first — and RRF, which reads ranks,
    not scores, would fuse that noise at full weight. The list then gets weight 0 for
    this recall (the entity retriever already carries the name). Function words are no
    content: "What is Elena's hobby?" against memories without "hobby" would rank
    "Jasper is Elena's brother" first on "is" and the possessive "s"."""
    if plan.weights.get("bm25", 0.0) <= 0.0:
        return plan
    names = {t for link in links for t in tokenize(link.surface)}
    terms = set(tokenize(text)) - names - FUNCTION_WORDS
    content = [t for t in terms if stats.df.get(t, 0) > 0]
    if content:
        return plan
    return replace(
        plan,
        weights={**plan.weights, "bm25": 0.0},
        signals={**plan.signals, "bm25_content_terms": 0.0},
    )
