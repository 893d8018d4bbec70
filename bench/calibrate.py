"""Calibrate fusion and ranking on LoCoMo without re-running retrievers.

Step 1 (slow, once): import each conversation into an embedded store, run all
five retrievers for every question (candidate_k each) and cache their ranked
lists plus the metadata ranking needs (type, last_observed_at, stability,
access count, confidence) in a pickle.

Step 2 (seconds per variant): replay fusion + ranking offline for variants
(retriever weights, the planner's entity / temporal boosts, freshness on/off)
and score them with the bench's own metrics. ``--cv`` does leave-one-
conversation-out: a variant is chosen on four conversations and scored on the
fifth, so a gain must hold on conversations it was not tuned on.

    .venv/bin/python bench/calibrate.py cache ../shared/data/locomo-dev.json --corpus turns
    .venv/bin/python bench/calibrate.py eval --corpus turns
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem import GraphMem, RecallQuery, Settings
from graphmem.embedding import SentenceTransformerEmbedder
from graphmem.locomo import HEADLINE, gold_units, import_conversation, load_locomo, score_ranking
from graphmem.scoring import access_boost, confidence_gate, freshness, weighted_rrf
from graphmem.settings import RETRIEVERS

CACHE = Path(tempfile.gettempdir()) / "graphmem-calibrate-{corpus}.pkl"


def build_cache(path: str, corpus: str) -> None:
    convs = load_locomo(path)
    data_dir = Path(tempfile.mkdtemp(prefix="graphmem-calibrate-"))
    memory = GraphMem(Settings(data_dir=data_dir, neo4j_uri=None), embedder=SentenceTransformerEmbedder())
    questions: list[dict[str, Any]] = []
    started = time.time()
    with memory:
        for conv in convs:
            ns, stands_for, _ = import_conversation(memory, conv, corpus)  # type: ignore[arg-type]
            for qa in conv.qa:
                gold = gold_units(conv, qa, corpus)  # type: ignore[arg-type]
                if not gold:
                    continue
                timings: dict[str, float] = {}
                query = RecallQuery(text=qa.question, reference_time=conv.now, record_access=False)
                ctx, plan, now = memory._reader.prepare(ns, query, timings)
                hits = memory._reader.retrieve(ctx, list(RETRIEVERS), timings)
                ids = sorted({h.memory_id for hs in hits.values() for h in hs})
                meta = {
                    m.id: (m.type, m.last_observed_at, m.stability, m.access_count, m.confidence)
                    for m in memory.store.get_memories(ns, ids)
                }
                questions.append(
                    {
                        "conv": conv.sample_id,
                        "category": qa.category,
                        "gold": gold,
                        "plan": plan.name,
                        "window_end": ctx.window.end if ctx.window and ctx.window.precision != "vague" else None,
                        "has_window": ctx.window is not None,
                        "linked": bool(ctx.links),
                        "now": now,
                        "lists": {n: [h.memory_id for h in hs] for n, hs in hits.items()},
                        "meta": meta,
                        "units": {mid: stands_for.get(mid, ()) for mid in ids},
                    }
                )
            print(f"{conv.sample_id}: {len(questions)} questions cached, {time.time() - started:.0f}s", file=sys.stderr)
    CACHE.with_name(CACHE.name.format(corpus=corpus)).write_bytes(pickle.dumps(questions))


def rank(q: dict[str, Any], weights: dict[str, float], settings: Settings, *, use_freshness: bool) -> list[str]:
    """Offline replay of RecallPipeline fusion + ranking for one cached question."""
    fused = dict(weighted_rrf(q["lists"], weights, k=settings.rrf_k))
    meta = q["meta"]
    pool = [mid for mid in fused if mid in meta]
    kept = confidence_gate({mid: meta[mid][4] for mid in pool}, min_confidence=settings.min_confidence)
    now: datetime = q["now"] if q["window_end"] is None else min(q["now"], q["window_end"])
    cache = q.setdefault("_fresh", {})
    scored = {}
    for mid in pool:
        if mid not in kept:
            continue
        mtype, observed, stability, accesses, _ = meta[mid]
        fresh = 1.0
        if use_freshness:
            if mid not in cache:
                age = max(0.0, (now - observed).total_seconds() / 86400)
                cache[mid] = freshness(age, settings.half_life_days[mtype], stability, floor=settings.freshness_floor)
            fresh = cache[mid]
        scored[mid] = fused[mid] * fresh * access_boost(accesses)
    return sorted(scored, key=lambda mid: (-scored[mid], -meta[mid][4], mid))[:10]


def plan_weights(q: dict[str, Any], base: dict[str, float], entity_boost: float, temporal_boost: float) -> dict[str, float]:
    weights = dict(base)
    if q["plan"] == "entity-centric":
        weights["entity"] = entity_boost
    elif q["plan"] == "temporal-anchored":
        weights["temporal"] = temporal_boost
    return weights


def evaluate(questions: list[dict[str, Any]], variant: dict[str, Any], settings: Settings) -> dict[str, float]:
    by_cat: dict[int, list[dict[str, float]]] = defaultdict(list)
    for q in questions:
        weights = plan_weights(q, variant["weights"], variant["entity_boost"], variant["temporal_boost"])
        top = rank(q, weights, settings, use_freshness=variant["freshness"])
        by_cat[q["category"]].append(score_ranking([q["units"].get(m, ()) for m in top], q["gold"]))
    head = [s for c in HEADLINE for s in by_cat.get(c, [])]
    out = {"R@10": sum(s["R@10"] for s in head) / max(1, len(head))}
    for c in (1, 2, 3, 4, 5):
        rows = by_cat.get(c, [])
        out[f"c{c}"] = sum(s["R@10"] for s in rows) / max(1, len(rows))
    out["mh_all10"] = sum(s["All@10"] for s in by_cat.get(1, [])) / max(1, len(by_cat.get(1, [])))
    return out


def variants() -> list[dict[str, Any]]:
    grid = []
    for sem, bm, ent, tmp, gr, eb, fr in itertools.product(
        (1.0,), (1.0, 1.5, 2.0), (0.0, 0.5, 1.0), (1.0,), (0.0, 0.4, 0.8), (None, 2.0), (True, False)
    ):
        weights = {"semantic": sem, "bm25": bm, "entity": ent, "temporal": tmp, "graph": gr}
        grid.append(
            {"weights": weights, "entity_boost": eb if eb is not None else ent, "temporal_boost": 1.5 if tmp else 0.0, "freshness": fr}
        )
    return grid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("cache", "eval"))
    parser.add_argument("path", nargs="?")
    parser.add_argument("--corpus", default="turns", choices=("turns", "observations"))
    args = parser.parse_args()
    if args.step == "cache":
        build_cache(args.path, args.corpus)
        return
    questions = pickle.loads(CACHE.with_name(CACHE.name.format(corpus=args.corpus)).read_bytes())
    settings = Settings(neo4j_uri=None)
    spec = {"weights": dict(settings.retriever_weights), "entity_boost": 2.0, "temporal_boost": 1.5, "freshness": True}
    print("SPEC defaults:", evaluate(questions, spec, settings))
    print("SPEC weights, no freshness:", evaluate(questions, {**spec, "freshness": False}, settings))
    convs = sorted({q["conv"] for q in questions})
    grid = variants()
    held_out: list[float] = []
    for test in convs:
        train = [q for q in questions if q["conv"] != test]
        best = max(grid, key=lambda v: evaluate(train, v, settings)["R@10"])
        score = evaluate([q for q in questions if q["conv"] == test], best, settings)
        held_out.append(score["R@10"])
        print(f"held out {test}: R@10 {score['R@10']:.3f} with {best}")
    print(f"leave-one-conversation-out mean R@10: {sum(held_out) / len(held_out):.3f}")
    best_all = max(grid, key=lambda v: evaluate(questions, v, settings)["R@10"])
    print("best on all:", best_all, evaluate(questions, best_all, settings))


if __name__ == "__main__":
    main()
