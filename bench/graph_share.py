"""Where the graph retriever's share of LoCoMo R@10 comes from (docs/benchmarks-log.md).

The graph share is the full pipeline's R@10 minus the "without graph" ablation row.
This script reads the questions :mod:`bench.real_replay` cached (``import`` then
``run`` first, same ``REPLAY_DIR``) and replays the real pipeline's fusion and
ranking to say, per corpus:

- the share, per category, and the questions the graph list wins and loses;
- what the graph list holds: relation-walk memories against concept-walk ones
  (and which of them are gold), and the namespaces' relations by type;
- controls: the graph list replaced by the semantic list's top 5 (the concept
  walk's seeds), the graph list without those seeds, and no graph list with the
  semantic weight x1.5 (how much of the share only re-weights the semantic list);
- the graph list's fusion weight at 1.0 / 1.5 / 2.0.

    REPLAY_DIR=/tmp/replay python bench/graph_share.py ../shared/data/locomo-dev.json \
        --corpus turns observations [--questions]

Dev is also LoCoMo's reporting set: these are diagnostics, not a tuning run. The
question cache is pickled: after a change to the retrievers (or a module move, which
fails the unpickling) delete ``REPLAY_DIR/asked-*.pkl`` or set ``QTAG`` to a new tag.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
from collections import Counter
from collections.abc import Callable
from typing import Any

from bench.real_replay import WORK, Asked, ask_all, open_memory, score, summary, without_graph
from graphmem import GraphMem
from graphmem.retrieval.retrievers import Hit

Lists = Callable[[Asked], dict[str, Any]]


def _graph_weight(weight: float) -> Callable[[Asked], Any]:
    def change(a: Asked) -> Any:
        plan = a.cached.plan
        if plan.name == "relational" or plan.weights.get("graph", 0.0) <= 0:
            return plan
        return dataclasses.replace(plan, weights={**plan.weights, "graph": weight})

    return change


def _semantic_times(factor: float) -> Callable[[Asked], Any]:
    def change(a: Asked) -> Any:
        w = {**without_graph(a).weights}
        w["semantic"] = w.get("semantic", 0.0) * factor
        return dataclasses.replace(a.cached.plan, weights=w)

    return change


def _seeds(a: Asked, n: int) -> list[Hit]:
    return [Hit(h.memory_id, h.score) for h in a.cached.hits.get("semantic", [])[:n]]


def _first_gold(a: Asked, stands: dict[str, Any], ids: list[str]) -> int | None:
    units = stands[a.namespace]
    return next((i for i, m in enumerate(ids) if set(units.get(m, ())) & a.gold), None)


def composition(asked: list[Asked], stands: dict[str, Any]) -> Counter[str]:
    """Graph-list items by source (relation walk / concept walk), and gold among them."""
    out: Counter[str] = Counter()
    for a in asked:
        for h in a.cached.hits.get("graph", []):
            kind = "concept" if (h.detail or "").startswith("concept walk") else "relation"
            out[kind] += 1
            if set(stands[a.namespace].get(h.memory_id, ())) & a.gold:
                out[f"{kind}, gold"] += 1
    return out


def relations_by_type(memory: GraphMem) -> dict[str, Counter[str]]:
    store = memory.store
    out = {}
    for ns in sorted(store.namespaces()):
        entities = [e.id for e in store.list_entities(ns)]
        out[ns] = Counter(r.predicate for r in store.relation_subgraph(ns, entities, 1))
    return out


def report(corpus: str, path: str, questions: bool) -> None:
    stands = pickle.loads((WORK / f"stands-{corpus}.pkl").read_bytes())
    with open_memory(corpus) as memory:
        asked = [a for a in ask_all(memory, path, corpus) if a.category in (1, 2, 3, 4)]
        live = score(memory, asked, stands)
        bare = score(memory, asked, stands, without_graph)
        base = summary(bare)["R@10"]

        def row(name: str, plan: Callable[[Asked], Any] | None, lists: Lists | None) -> None:
            r10 = summary(score(memory, asked, stands, plan, lists))["R@10"]
            print(f"  {name:44s} R@10 {r10:.3f}  vs without graph {r10 - base:+.3f}")

        share = summary(live)["R@10"] - base
        print(f"{corpus}: {len(asked)} questions, R@10 {base + share:.3f}, share {share:+.3f}")
        delta = [lr[2]["R@10"] - br[2]["R@10"] for lr, br in zip(live, bare, strict=True)]
        for cat in (1, 2, 3, 4):
            got = [d for a, d in zip(asked, delta, strict=True) if a.category == cat]
            print(f"  category {cat}: {len(got)} questions, {sum(d > 0 for d in got)} won,"
                  f" {sum(d < 0 for d in got)} lost, share {sum(got) / len(asked):+.4f}")  # fmt: skip
        print("  graph list items:", dict(composition(asked, stands)))
        for ns, preds in relations_by_type(memory).items():
            print(f"  {ns}: relations {sum(preds.values())} {dict(preds.most_common(4))}")
        row("graph list := semantic top 5 (the seeds)", None, lambda a: {"graph": _seeds(a, 5)})
        row(
            "graph list without the seeds",
            None,
            lambda a: {
                "graph": [
                    h
                    for h in a.cached.hits.get("graph", [])
                    if h.memory_id not in {s.memory_id for s in _seeds(a, 5)}
                ]
            },
        )
        row("no graph list, semantic weight x1.5", _semantic_times(1.5), None)
        for weight in (1.0, 1.5, 2.0):
            row(f"graph weight {weight}", _graph_weight(weight), None)
        if questions:
            for a, d in zip(asked, delta, strict=True):
                if d == 0:
                    continue
                ranks = {
                    n: _first_gold(a, stands, [h.memory_id for h in hs])
                    for n, hs in a.cached.hits.items()
                }
                print(f"  {'won ' if d > 0 else 'lost'} {d:+.2f} c{a.category} {a.conv}"
                      f" first gold {ranks} | {a.cached.ctx.text[:70]}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="LoCoMo dev JSON (as given to real_replay.py)")
    parser.add_argument("--corpus", nargs="+", default=["turns", "observations"])
    parser.add_argument("--questions", action="store_true", help="list the won/lost questions")
    args = parser.parse_args()
    for corpus in args.corpus:
        report(corpus, args.path, args.questions)


if __name__ == "__main__":
    main()
