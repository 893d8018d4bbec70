"""The graph retriever's relation walk, scored (docs/spec.md §3 "Graph traversal"; the
steps are in :mod:`graphmem.retrieval.retrievers.graph`'s docstring): each relation's
relevance to the question, the evidence of each path, the candidates and their hits,
and the path in words for the explanation.
"""

from __future__ import annotations

from graphmem.language.predicates import predicate_match
from graphmem.language.words import FUNCTION_WORDS, stem
from graphmem.models import Relation
from graphmem.retrieval.retrievers.base import Hit, RetrievalContext
from graphmem.scoring import PathStep, Reached
from graphmem.store.base import EntityHit
from graphmem.text import tokenize

__all__ = ["path_candidates", "path_evidence", "path_hits", "path_steps", "render_path"]


def render_path(ctx: RetrievalContext, path: Reached) -> str:
    """``Maya —SISTER_OF→ Priya Raman —WORKS_AT→ Lumen Labs`` (``←…—`` for a relation
    walked against its direction)."""

    def name(ident: str) -> str:
        entity = ctx.dictionary.get(ident) if ctx.dictionary is not None else None
        return entity.name if entity is not None else ident[:8]

    start = path.steps[0].source
    parts = [name(start)]
    walked = {link.entity_id: link for link in ctx.links if link.owner is not None}
    seen = {start}
    # "Maya's sister('s manager)": the relations the question walked to its entities
    while (link := walked.get(start)) is not None and (owner := link.owner) is not None:
        if owner in seen:
            break
        arrow = f" —{link.via}→ " if link.via_forward else f" ←{link.via}— "
        parts = [name(owner), arrow, *parts]
        start = owner
        seen.add(start)
    for step in path.steps:
        arrow = f" —{step.predicate}→ " if step.forward else f" ←{step.predicate}— "
        parts.append(arrow + name(step.target))
    return "".join(parts)


def explain(ctx: RetrievalContext, path: Reached, relevance: float, asserts: bool) -> str:
    matches = " × ".join(f"{s.relevance:.2f}" for s in path.steps)
    role = "asserts a relation on" if asserts else "mentions the end of"
    return (
        f"{role} {render_path(ctx, path)}: hop {path.hop_score:.2f} × weakest link "
        f"{path.path_confidence:.2f} × question match {matches} = {path.score:.3f};"
        f" × memory relevance {relevance:.2f}"
    )


def question_stems(ctx: RetrievalContext) -> set[str]:
    """The stems of the question's words that steer the walk."""
    # the nouns the question's relational links consumed ("sister" in "Maya's sister")
    # are walked already: they do not steer the rest of the path
    walked = {
        stem(link.surface.split(" (")[0].rsplit(" ", 1)[-1]) for link in ctx.links if link.via
    }
    return {stem(t) for t in tokenize(ctx.text) if t not in FUNCTION_WORDS} - walked


def path_steps(
    ctx: RetrievalContext, relations: list[Relation], cosines: dict[str, float]
) -> list[PathStep]:
    """The relations as traversal steps, each with its edge relevance to the question."""
    query_stems = question_stems(ctx)
    low = min(cosines.values(), default=0.0)
    spread = (max(cosines.values(), default=0.0) - low) or 1.0
    floor = ctx.settings.read.graph.graph_edge_floor

    def relevance(predicate: str, memory_id: str) -> float:
        semantic = (cosines[memory_id] - low) / spread if memory_id in cosines else 0.0
        term = predicate_match(predicate, query_stems)
        return floor + (1.0 - floor) * max(
            term, ctx.settings.read.graph.graph_semantic_share * semantic
        )

    return [
        PathStep(
            r.source_id,
            r.predicate,
            r.target_id,
            r.confidence,
            relevance(r.predicate, r.memory_id),
            r.memory_id,
        )
        for r in relations
    ]


def path_evidence(ctx: RetrievalContext, best: list[Reached]) -> dict[str, tuple[float, Reached]]:
    """The asserting memories of each path's relations, at the path's best score, and
    those of the relations the question walked to link its entities."""
    evidence: dict[str, tuple[float, Reached]] = {}
    for path in best:
        for step in path.steps:
            current = evidence.get(step.memory_id)
            if current is None or path.score > current[0]:
                evidence[step.memory_id] = (path.score, path)
    # the relations the question walked to link its entities ("Maya's sister"),
    # evidence at the best score of a path from the entity they link
    for link in ctx.links:
        if link.via is None or link.via_memory is None or link.owner is None:
            continue
        step = PathStep(
            link.owner,
            link.via,
            link.entity_id,
            link.confidence,
            1.0,
            link.via_memory,
            link.via_forward,
        )
        linked = Reached(link.entity_id, link.confidence, 1.0, link.confidence, 1.0, (step,))
        if link.via_memory not in evidence or linked.score > evidence[link.via_memory][0]:
            evidence[link.via_memory] = (linked.score, linked)
    return evidence


def path_candidates(
    ctx: RetrievalContext,
    best: list[Reached],
    evidence: dict[str, tuple[float, Reached]],
    rows: list[EntityHit],
    crowd: set[str],
    asserting_ids: set[str],
) -> dict[str, tuple[float, Reached, bool]]:
    """``memory id -> (score, path, asserts a path relation)``: the evidence, and the
    memories mentioning a reached entity (seeds' own ones and off-path ones discounted)."""
    by_entity = {r.entity_id: r for r in best}
    candidates: dict[str, tuple[float, Reached, bool]] = {}
    for mid, (score, path) in evidence.items():
        candidates[mid] = (score, path, True)
    for row in rows:
        path = max(
            (by_entity[e] for e in row.entity_ids if e in by_entity),
            key=lambda r: (r.score, r.entity_id),
        )
        share = 1.0 if row.memory_id not in crowd else ctx.settings.read.graph.graph_seed_share
        if share <= 0.0:
            continue  # the entity retriever ranks it already
        if row.memory_id in asserting_ids and row.memory_id not in {
            step.memory_id for step in path.steps
        }:
            share *= (
                ctx.settings.read.graph.graph_off_path_share
            )  # about another relation of the entity reached
        score = path.score * share
        if row.memory_id not in candidates or score > candidates[row.memory_id][0]:
            candidates[row.memory_id] = (score, path, False)
    return candidates


def path_hits(
    ctx: RetrievalContext,
    candidates: dict[str, tuple[float, Reached, bool]],
    sims: dict[str, float],
) -> list[Hit]:
    """The candidates near the best, each moved by its own relevance; the top ``k``."""
    best_sim = max(sims.values(), default=0.0) or 1.0
    hits: list[Hit] = []
    top_score = max((c[0] for c in candidates.values()), default=0.0)
    for mid, (score, path, asserts) in candidates.items():
        if score < ctx.settings.read.graph.graph_keep_share * top_score:
            continue  # far weaker than the question's best path: noise to the fusion
        own = (
            1.0
            - ctx.settings.read.graph.graph_own_share
            + ctx.settings.read.graph.graph_own_share * sims.get(mid, 0.0) / best_sim
        )
        hits.append(
            Hit(
                mid,
                score * own,
                detail=explain(ctx, path, own, asserts),
                associative=True,
            )
        )
    hits.sort(key=lambda h: (-h.score, h.memory_id))
    return hits[: ctx.k]
