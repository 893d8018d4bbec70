"""Calibrate fusion and ranking on LoCoMo without re-running retrievers.

Step 1 (slow, once): import each conversation into an embedded store, run all
five retrievers for every question (candidate_k each) and cache their ranked
lists plus the metadata ranking needs (type, last_observed_at, stability,
access count, confidence) in a pickle.

Step 2 (seconds per variant): replay fusion + ranking offline for variants
(RRF k, retriever weights, the planner's entity / temporal boosts, freshness
as weight or tie-break) and score them with the bench's own metrics. Every
variant is scored once per question; the grid is then chosen leave-one-
conversation-out: for each conversation, the variant with the best mean R@10
on the other four (averaged over the corpora given, so one setting serves
both) is scored on the held-out one. The held-out rows, pooled, give the
LOCO table per category, beside the current settings' table.

    .venv/bin/python bench/calibrate.py cache ../shared/data/locomo-dev.json --corpus turns
    .venv/bin/python bench/calibrate.py cache ../shared/data/locomo-dev.json --corpus observations
    .venv/bin/python bench/calibrate.py eval --corpus turns observations
    .venv/bin/python bench/calibrate.py profile --corpus turns observations
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
import tempfile
import time
from argparse import ArgumentParser
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from bench.locomo import (
    HEADLINE,
    Conversation,
    QAItem,
    gold_units,
    import_conversation,
    load_locomo,
    score_ranking,
)
from graphmem import GraphMem, RecallQuery, Settings
from graphmem.embedding import SentenceTransformerEmbedder
from graphmem.models import Memory
from graphmem.retrieval.planning.planner import Plan
from graphmem.retrieval.rescoring.support import session_support
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.scoring import (
    access_boost,
    composite_relevance,
    confidence_gate,
    decayed_salience,
    freshness,
    weighted_rrf,
)
from graphmem.settings import RETRIEVERS

CACHE = Path(tempfile.gettempdir()) / "graphmem-calibrate-{corpus}.pkl"


def ranking_fields(m: Memory) -> tuple[Any, ...]:
    """What the replay's ranking reads of a memory: (type, last_observed_at,
    stability, access count, confidence)."""
    return (m.type, m.last_observed_at, m.stability, m.access_count, m.confidence)


def retrieve_question(
    memory: GraphMem, namespace: str, conv: Conversation, qa: QAItem
) -> tuple[RetrievalContext, Plan, datetime, dict[str, list[Hit]]]:
    """The recall pipeline's own planning and five retrievers for one question, without
    fusion, ranking or an access write: (context, plan, now, hits per retriever)."""
    timings: dict[str, float] = {}
    query = RecallQuery(text=qa.question, reference_time=conv.now, record_access=False)
    pipeline = memory.recall_pipeline
    ctx, plan, now = pipeline.prepare(namespace, query, timings)
    return ctx, plan, now, pipeline.retrieve(ctx, list(RETRIEVERS), timings)


def question_record(
    conv: Conversation,
    qa: QAItem,
    gold: Any,
    retrieved: tuple[RetrievalContext, Plan, datetime, Any],
    lists: dict[str, list[str]],
    found: list[Memory],
    stands_for: dict[str, tuple[str, ...]],
) -> dict[str, Any]:
    """One cached question: what the offline replay (:func:`rank`) and the scoring read."""
    ctx, plan, now, _ = retrieved
    return {
        "conv": conv.sample_id,
        "category": qa.category,
        "gold": gold,
        "plan": plan.name,
        "window_end": ctx.window.end if ctx.window and ctx.window.precision != "vague" else None,
        "has_window": ctx.window is not None,
        "linked": bool(ctx.links),
        "now": now,
        "lists": lists,
        "meta": {m.id: ranking_fields(m) for m in found},
        "sessions": {m.id: tuple(sorted(m.session_ids)) for m in found},
        "units": {
            mid: stands_for.get(mid, ()) for mid in sorted({m for ls in lists.values() for m in ls})
        },
    }


def build_cache(path: str, corpus: str) -> None:
    convs = load_locomo(path)
    data_dir = Path(tempfile.mkdtemp(prefix="graphmem-calibrate-"))
    memory = GraphMem(
        Settings(data_dir=data_dir, neo4j_uri=None), embedder=SentenceTransformerEmbedder()
    )
    questions: list[dict[str, Any]] = []
    started = time.time()
    with memory:
        for conv in convs:
            ns, stands_for, _ = import_conversation(memory, conv, corpus)  # type: ignore[arg-type]
            for qa in conv.qa:
                gold = gold_units(conv, qa, corpus)  # type: ignore[arg-type]
                if not gold:
                    continue
                retrieved = retrieve_question(memory, ns, conv, qa)
                ctx, hits = retrieved[0], retrieved[3]
                lists = {n: [h.memory_id for h in hs] for n, hs in hits.items()}
                ids = sorted({m for ls in lists.values() for m in ls})
                found = memory.store.get_memories(ns, ids, with_embeddings=True)
                record = question_record(conv, qa, gold, retrieved, lists, found, stands_for)
                # for the composite profile (SPEC §4): cosine to the query, salience
                record["composite"] = {
                    m.id: (
                        float(np.dot(np.asarray(m.embedding, dtype=np.float32), ctx.embedding)),
                        m.salience,
                        m.last_accessed_at or m.last_observed_at,
                    )
                    for m in found
                    if m.embedding is not None
                }
                questions.append(record)
            print(
                f"{conv.sample_id}: {len(questions)} questions cached, {time.time() - started:.0f}s",
                file=sys.stderr,
            )
    CACHE.with_name(CACHE.name.format(corpus=corpus)).write_bytes(pickle.dumps(questions))


def rank(q: dict[str, Any], variant: dict[str, Any], settings: Settings) -> list[str]:
    """Offline replay of RecallPipeline fusion + ranking for one cached question.

    ``variant["freshness"]``: "weight" multiplies RRF by freshness (SPEC §3),
    "tiebreak" orders equal weights by it (the pipeline's default), "off"
    ignores it. Access counts are those cached (0 on a fresh import).
    """
    weights = plan_weights(
        q,
        variant["weights"],
        variant["entity_boost"],
        variant["temporal_boost"],
        planner=variant.get("planner", True),
    )
    fused = dict(
        weighted_rrf(q["lists"], weights, k=variant.get("rrf_k", settings.read.fusion.rrf_k))
    )
    meta = q["meta"]
    pool = [mid for mid in fused if mid in meta]
    kept = confidence_gate(
        {mid: meta[mid][4] for mid in pool}, min_confidence=settings.read.ranking.min_confidence
    )
    now: datetime = q["now"] if q["window_end"] is None else min(q["now"], q["window_end"])
    cache = q.setdefault("_fresh", {})
    # the exploratory plan diversifies with MMR (not replayed here) and gets no support
    support = (
        {}
        if q["plan"] == "exploratory"
        else session_support(
            {mid: fused[mid] for mid in pool if mid in kept},
            q["sessions"],
            weight=variant.get("session_support", settings.read.fusion.session_support),
            depth=variant.get("session_depth", settings.read.fusion.session_support_depth),
            above_chance=variant.get("above_chance", False),
        )
    )
    scored: dict[str, tuple[float, float]] = {}
    for mid in pool:
        if mid not in kept:
            continue
        mtype, observed, stability, accesses, _ = meta[mid]
        if mid not in cache:
            age = max(0.0, (now - observed).total_seconds() / 86400)
            cache[mid] = freshness(
                age,
                settings.read.ranking.half_life_days[mtype],
                stability,
                floor=settings.read.ranking.freshness_floor,
            )
        fresh = cache[mid] if variant["freshness"] != "off" else 1.0
        relevance = fused[mid] + support.get(mid, 0.0)
        weight = (
            relevance
            * access_boost(accesses)
            * (fresh if variant["freshness"] == "weight" else 1.0)
        )
        if variant.get("profile") == "composite":
            weight = _composite(q, mid, now, settings)
        scored[mid] = (weight, fresh)
    return sorted(scored, key=lambda mid: (-scored[mid][0], -scored[mid][1], -meta[mid][4], mid))[
        :10
    ]


def _composite(q: dict[str, Any], mid: str, now: datetime, settings: Settings) -> float:
    """Seed 004 composite profile, as RecallPipeline computes it (SPEC §4)."""
    mtype, _, stability, _, confidence = q["meta"][mid]
    sim, salience, since = q["composite"].get(mid, (0.0, 0.0, now))
    sal = decayed_salience(
        salience,
        max(0.0, (now - since).total_seconds() / 86400),
        decay_rate=settings.dynamics.salience_decay[mtype],
        stability=stability,
        stability_scaling=settings.dynamics.salience_stability_scaling,
    )
    return composite_relevance(
        max(0.0, sim), sal, confidence, weights=settings.read.ranking.composite_weights
    )


def plan_weights(
    q: dict[str, Any],
    base: dict[str, float],
    entity_boost: float,
    temporal_boost: float,
    *,
    planner: bool = True,
) -> dict[str, float]:
    weights = dict(base)
    if not planner:
        return weights
    if q["plan"] == "entity-centric":
        weights["entity"] = entity_boost
    elif q["plan"] == "temporal-anchored":
        weights["temporal"] = temporal_boost
    return weights


Rows = list[tuple[str, int, dict[str, float]]]  # (conversation, category, scores)


def score_rows(
    questions: list[dict[str, Any]], variant: dict[str, Any], settings: Settings
) -> Rows:
    rows: Rows = []
    for q in questions:
        top = rank(q, variant, settings)
        rows.append(
            (
                q["conv"],
                q["category"],
                score_ranking([q["units"].get(m, ()) for m in top], q["gold"]),
            )
        )
    return rows


def summary(rows: Rows) -> dict[str, float]:
    """Headline R@10 / All@10, R@10 per category 1-4, multi-hop All@10."""

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    head = [s for _, c, s in rows if c in HEADLINE]
    out = {"R@10": mean([s["R@10"] for s in head]), "All@10": mean([s["All@10"] for s in head])}
    for c in HEADLINE:
        out[f"c{c}"] = mean([s["R@10"] for _, cat, s in rows if cat == c])
    out["mh_All@10"] = mean([s["All@10"] for _, cat, s in rows if cat == 1])
    return out


def objective(rows: Rows, convs: set[str]) -> float:
    """Mean headline R@10 over the rows of ``convs``."""
    chosen = [s["R@10"] for conv, c, s in rows if conv in convs and c in HEADLINE]
    return sum(chosen) / len(chosen) if chosen else 0.0


def fmt(row: dict[str, float]) -> str:
    return "  ".join(f"{k} {v:.3f}" for k, v in row.items())


def current(settings: Settings) -> dict[str, Any]:
    """The settings as a replay variant. Every LoCoMo namespace is in the concept walk's
    size range (graphmem.retrieval.retrievers.concepts.concepts_apply), so the graph list has the
    planner's ``graph_concept_fusion_weight`` when ``graph_concepts`` is on."""
    weights = dict(settings.read.fusion.retriever_weights)
    if settings.read.graph.graph_concepts:
        weights["graph"] = settings.read.graph.graph_concept_fusion_weight
    return {
        "weights": weights,
        "entity_boost": settings.read.planning.entity_centric_weight,
        "temporal_boost": settings.read.planning.temporal_anchored_weight,
        "freshness": settings.read.ranking.freshness_mode,
        "rrf_k": settings.read.fusion.rrf_k,
        "session_support": settings.read.fusion.session_support,
        "session_depth": settings.read.fusion.session_support_depth,
    }


def variants(settings: Settings, grid: str) -> list[dict[str, Any]]:
    """The grids (semantic fixed at 1, temporal at 1.5: few questions carry a window).

    "fusion": RRF k jointly with the weights it interacts with. "session": RRF k,
    the entity-centric weight and session support (weight, depth), the other
    weights at what "fusion" chose in every fold (bm25 1.5, graph 0.1; entity 0.25,
    within 0.001 of the 0 it chose, kept for the precise plan).
    """
    out = []
    if grid == "fusion":
        for rrf_k, bm, ent, eb, gr in itertools.product(
            (10, 20, 60), (0.75, 1.0, 1.5), (0.0, 0.25), (0.5, 1.0, 2.0), (0.0, 0.1, 0.4)
        ):
            weights = {"semantic": 1.0, "bm25": bm, "entity": ent, "temporal": 1.5, "graph": gr}
            out.append(_variant(settings, weights, rrf_k, eb, 0.0))
        return out
    for rrf_k, eb, support, depth in itertools.product(
        (10, 20), (0.5, 1.0), (0.0, 0.1, 0.2, 0.3), (10, 20)
    ):
        weights = {"semantic": 1.0, "bm25": 1.5, "entity": 0.25, "temporal": 1.5, "graph": 0.1}
        out.append(_variant(settings, weights, rrf_k, eb, support, session_depth=depth))
    return out


def _variant(
    settings: Settings,
    weights: dict[str, float],
    rrf_k: int,
    entity_boost: float,
    session_support: float,
    **extra: Any,
) -> dict[str, Any]:
    """A grid variant: freshness as tie-break, the temporal boost as configured."""
    return {
        "weights": weights,
        "entity_boost": entity_boost,
        "temporal_boost": settings.read.planning.temporal_anchored_weight,
        "freshness": "tiebreak",
        "rrf_k": rrf_k,
        "session_support": session_support,
        **extra,
    }


def load(corpora: list[str]) -> dict[str, list[dict[str, Any]]]:
    return {
        c: pickle.loads(CACHE.with_name(CACHE.name.format(corpus=c)).read_bytes()) for c in corpora
    }


def cross_validate(
    data: dict[str, list[dict[str, Any]]], settings: Settings, grid_name: str
) -> None:
    grid = variants(settings, grid_name)
    started = time.time()
    scored = [{c: score_rows(qs, v, settings) for c, qs in data.items()} for v in grid]
    print(f"{len(grid)} variants scored in {time.time() - started:.0f}s", file=sys.stderr)
    convs = sorted({q["conv"] for qs in data.values() for q in qs})
    held: dict[str, Rows] = {c: [] for c in data}
    for test in convs:
        train = set(convs) - {test}
        best = max(
            range(len(grid)), key=lambda i: sum(objective(scored[i][c], train) for c in data)
        )
        print(f"held out {test}: chose {grid[best]}")
        for c in data:
            held[c].extend(r for r in scored[best][c] if r[0] == test)
    base = current(settings)
    for c, qs in data.items():
        print(f"{c} current settings : {fmt(summary(score_rows(qs, base, settings)))}")
        print(f"{c} LOCO held-out    : {fmt(summary(held[c]))}")
    best_all = max(
        range(len(grid)), key=lambda i: sum(objective(scored[i][c], set(convs)) for c in data)
    )
    print("best on all five:", grid[best_all])
    for c in data:
        print(f"{c} best on all five : {fmt(summary(scored[best_all][c]))}")


def profile(data: dict[str, list[dict[str, Any]]], settings: Settings) -> None:
    """Ranking-profile table (issue 4 item 6): freshness as weight / tie-break / off,
    the composite profile, the planner off (every question fused with the base
    weights), at the current settings."""
    base = current(settings)
    rows: list[tuple[str, dict[str, Any]]] = [
        ("current (freshness tie-break)", base),
        ("freshness as weight (SPEC)", {**base, "freshness": "weight"}),
        ("freshness off", {**base, "freshness": "off"}),
        ("composite profile", {**base, "profile": "composite"}),
        ("planner off", {**base, "planner": False}),
    ]
    for name, variant in rows:
        for c, qs in data.items():
            if variant.get("profile") == "composite" and not all("composite" in q for q in qs):
                print(f"{name:30s} {c:12s} (cache predates the composite fields: rebuild it)")
                continue
            print(f"{name:30s} {c:12s} {fmt(summary(score_rows(qs, variant, settings)))}")


def bench_parser(doc: str | None, steps: Sequence[str], *, path_nargs: str) -> ArgumentParser:
    """The LoCoMo replay benches' command line: a step, the data path(s), ``--corpus``."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("step", choices=steps)
    parser.add_argument("path", nargs=path_nargs)
    parser.add_argument("--corpus", nargs="+", default=["turns"], choices=("turns", "observations"))
    return parser


def main() -> None:
    parser = bench_parser(__doc__, ("cache", "eval", "profile"), path_nargs="?")
    parser.add_argument("--grid", default="session", choices=("fusion", "session"))
    args = parser.parse_args()
    if args.step == "cache":
        for corpus in args.corpus:
            build_cache(args.path, corpus)
        return
    settings = Settings(neo4j_uri=None)
    data = load(args.corpus)
    if args.step == "profile":
        profile(data, settings)
    else:
        cross_validate(data, settings, args.grid)


if __name__ == "__main__":
    main()
