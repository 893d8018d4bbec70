"""The real pipeline's lists on LoCoMo, cached once, replayed with other graph lists.

bench/concept_graph.py replays fusion and ranking with calibrate.py's own copy of the
ranking; this script replays :meth:`RecallPipeline.fuse_and_rank` itself (name
masking, answer type, currency, session support: everything the live recall does) on
the lists :func:`bench.locomo.ablation.cache_question` gives, so a graph-list
variant scores as the full run would score it.

    python bench/real_replay.py import ../shared/data/locomo-dev.json --corpus turns
    python bench/real_replay.py import ../shared/data/locomo-dev.json --corpus observations
    python bench/real_replay.py variants ../shared/data/locomo-dev.json \
        --specs live seeds=sem seeds=masked --weights 1.0 1.5 2.0

``import`` writes each corpus to an embedded store under ``REPLAY_DIR`` (default
``$TMPDIR/graphmem-real-replay``); ``variants`` asks every question once (cached there:
delete ``asked-*.pkl`` after a change to the retrievers), rebuilds the graph list per
spec (:class:`Walks`: concept-walk seeds ``sem`` raw cosine, ``masked`` the semantic
list as ranked, ``fused`` the other lists' RRF, ``bm`` BM25, ``mix``; ``source=key``
an index over the contextual keys; ``drop``/``only``/``needq`` controls) and scores
each spec x graph weight on both corpora, then chooses one leave-one-conversation-out.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.cli.locomo_cmds import CachedQueryEmbedder
from bench.locomo import HEADLINE, gold_units, import_conversation, load_locomo, score_ranking
from bench.locomo.ablation import CachedQuestion, cache_question, replay
from bench.locomo.corpus import namespace_for
from bench.locomo.metrics import summarize
from graphmem import GraphMem, RecallQuery, Settings
from graphmem.embedding import make_embedder
from graphmem.retrieval.retrievers import Hit
from graphmem.retrieval.retrievers.concepts import ConceptIndex, parse_concepts
from graphmem.scoring import weighted_rrf
from graphmem.store.base import memory_pages
from graphmem.text import tokenize

WORK = Path(os.environ.get("REPLAY_DIR", Path(tempfile.gettempdir()) / "graphmem-real-replay"))


def open_memory(corpus: str, **overrides: Any) -> GraphMem:
    settings = Settings(
        neo4j_uri=None, data_dir=WORK / f"store-{corpus}", extractor="ner", **overrides
    )
    return GraphMem(settings, embedder=CachedQueryEmbedder(make_embedder(settings)))


def do_import(path: str, corpus: str) -> None:
    convs = load_locomo(path)
    out = {}
    with open_memory(corpus) as memory:
        for conv in convs:
            ns, stands_for, _ = import_conversation(memory, conv, corpus)  # type: ignore[arg-type]
            out[ns] = stands_for
            print(f"imported {ns}: {len(stands_for)}", file=sys.stderr, flush=True)
    (WORK / f"stands-{corpus}.pkl").write_bytes(pickle.dumps(out))


@dataclasses.dataclass
class Asked:
    conv: str
    namespace: str
    category: int
    gold: set[str]
    cached: CachedQuestion


def ask_all(memory: GraphMem, path: str, corpus: str) -> list[Asked]:
    cache = WORK / f"asked-{corpus}{os.environ.get('QTAG', '')}.pkl"
    if cache.exists():
        return pickle.loads(cache.read_bytes())  # type: ignore[no-any-return]
    out = _ask_all(memory, path, corpus)
    cache.write_bytes(pickle.dumps(out))
    return out


def _ask_all(memory: GraphMem, path: str, corpus: str) -> list[Asked]:
    convs = load_locomo(path)
    reader = memory.recall_pipeline
    out: list[Asked] = []
    started = time.time()
    for conv in convs:
        ns = namespace_for(conv, corpus)
        for qa in conv.qa:
            gold = gold_units(conv, qa, corpus)  # type: ignore[arg-type]
            if not gold:
                continue
            query = RecallQuery(
                text=qa.question, k=10, reference_time=conv.now, record_access=False
            )
            out.append(
                Asked(conv.sample_id, ns, qa.category, gold, cache_question(reader, ns, query))
            )
        print(
            f"{conv.sample_id}: {len(out)} asked {time.time() - started:.0f}s",
            file=sys.stderr,
            flush=True,
        )
    return out


Row = tuple[str, int, dict[str, float]]


def score(
    memory: GraphMem,
    asked: list[Asked],
    stands: dict[str, dict[str, tuple[str, ...]]],
    plan_change: Callable[[Asked], Any] | None = None,
    lists: Callable[[Asked], dict[str, Any]] | None = None,
) -> list[Row]:
    reader = memory.recall_pipeline
    rows: list[Row] = []
    for a in asked:
        plan = plan_change(a) if plan_change else a.cached.plan
        ids = replay(reader, a.cached, plan, lists(a) if lists else None)
        ranked = [stands[a.namespace].get(m, ()) for m in ids]
        rows.append((a.conv, a.category, score_ranking(ranked, a.gold)))
    return rows


def summary(rows: list[Row], convs: set[str] | None = None) -> dict[str, Any]:
    picked = [(c, s) for conv, c, s in rows if convs is None or conv in convs]
    out = summarize(picked, HEADLINE)
    out["mh_all10"] = summarize(picked, (1,))["All@10"]
    out["mh_r10"] = summarize(picked, (1,))["R@10"]
    out["temporal"] = summarize(picked, (2,))["R@10"]
    return out


def fmt(s: dict[str, Any]) -> str:
    return (
        f"R@10 {s['R@10']:.3f} MH R@10 {s['mh_r10']:.3f} MH All@10 {s['mh_all10']:.3f}"
        f" temporal {s['temporal']:.3f}"
    )


def without_graph(a: Asked) -> Any:
    return dataclasses.replace(a.cached.plan, weights={**a.cached.plan.weights, "graph": 0.0})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("cmd", choices=["import", "run"])
    parser.add_argument("path")
    parser.add_argument("--corpus", default="turns")
    args = parser.parse_args()
    if args.cmd == "import":
        do_import(args.path, args.corpus)
        return
    stands = pickle.loads((WORK / f"stands-{args.corpus}.pkl").read_bytes())
    with open_memory(args.corpus) as memory:
        asked = ask_all(memory, args.path, args.corpus)
        live = score(memory, asked, stands)
        bare = score(memory, asked, stands, without_graph)
        print("live         ", fmt(summary(live)))
        print("without graph", fmt(summary(bare)))
        dump = [
            {
                "conv": a.conv,
                "category": a.category,
                "gold": a.gold,
                "text": a.cached.ctx.text,
                "plan": a.cached.plan.name,
                "weights": a.cached.plan.weights,
                "aggregate": a.cached.plan.aggregate,
                "lists": {n: [h.memory_id for h in hs] for n, hs in a.cached.hits.items()},
                "live": lr[2],
                "bare": br[2],
            }
            for a, lr, br in zip(asked, live, bare, strict=True)
        ]
        (WORK / f"dump-{args.corpus}.pkl").write_bytes(pickle.dumps({"q": dump, "stands": stands}))


# ---------------------------------------------------------------- variants
# python bench/real_replay.py variants FILE --specs live seeds=masked "seeds=bm,source=key"
#   --weights 1.0 1.5 2.0   (a spec: comma-separated Walks.graph_list options; "live": the
#   cached graph list; each spec x weight scored on both corpora, then chosen LOCO)


class Walks:
    """Concept-walk graph lists for one corpus's questions under variant seeds/indexes."""

    def __init__(self, memory: GraphMem, asked: list[Asked]) -> None:
        self.memory = memory
        self.asked = asked
        self.retr = memory.recall_pipeline._retrievers["graph"]  # type: ignore[attr-defined]
        self.store = memory.store
        self.cfg = memory.settings
        self.related: dict[int, tuple[list[Hit], set[str]]] = {}
        self.sem: dict[int, list[str]] = {}
        self.bm: dict[int, list[str]] = {}
        self.key_index: dict[str, ConceptIndex] = {}
        for i, a in enumerate(asked):
            ctx = a.cached.ctx
            self.related[i] = self.retr._related(self.store, ctx)
            self.sem[i] = [
                r.memory_id
                for r in self.store.vector_search(ctx.namespace, ctx.embedding[None, :], 20)[0]
            ]
            self.bm[i] = [
                r.memory_id
                for r in self.store.text_search(
                    ctx.namespace, ctx.text, ctx.k, include_history=ctx.include_history
                )
            ][:20]

    def index(self, ns: str, source: str) -> ConceptIndex | None:
        base = self.retr._concepts.get(self.store, ns, self.cfg)
        if source == "content" or base is None:
            return base
        if ns not in self.key_index:
            mems = [
                m
                for page in memory_pages(self.store, ns, 500)
                for m in page
                if m.superseded_by is None and m.retrievable
            ]
            parsed = parse_concepts([m.key or m.content for m in mems])
            people = {
                w
                for e in self.store.list_entities(ns)
                if e.kind == "Person"
                for name in (e.name, *e.aliases)
                for w in name.casefold().split()
            }
            lemmas: dict[str, set[str]] = {}
            for _, words in parsed:
                for w, c in words:
                    lemmas.setdefault(w, set()).add(c)
            self.key_index[ns] = ConceptIndex(
                {
                    m.id: frozenset(c for c in cs if people.isdisjoint(c.split()))
                    for m, (cs, _) in zip(mems, parsed, strict=True)
                },
                {w: frozenset(cs) for w, cs in lemmas.items()},
                max_df=self.cfg.read.graph.graph_concept_max_df,
            )
        return self.key_index[ns]

    def seeds(self, i: int, kind: str, n: int) -> list[str]:
        if kind == "sem":
            return self.sem[i][:n]
        if kind == "masked":  # the semantic list as ranked (name-masked cosine)
            return [h.memory_id for h in self.asked[i].cached.hits["semantic"][:n]]
        if kind == "fused":  # the plan's fusion of the other lists, best first
            c = self.asked[i].cached
            lists = {k: [h.memory_id for h in v] for k, v in c.hits.items() if k != "graph"}
            return [
                m for m, _ in weighted_rrf(lists, c.plan.weights, k=self.cfg.read.fusion.rrf_k)
            ][:n]
        if kind == "bm":
            return self.bm[i][:n]
        if kind == "mix":  # alternate, nearest first
            out: list[str] = []
            for s, b in zip(self.sem[i], self.bm[i], strict=False):
                for m in (s, b):
                    if m not in out:
                        out.append(m)
            return out[:n]
        raise ValueError(kind)

    def graph_list(
        self,
        i: int,
        *,
        seeds: str = "sem",
        n: int = 5,
        source: str = "content",
        alpha: float | None = None,
        cw: float | None = None,
        drop: float = 0.0,
        keep: int = 0,
        only: float = 0.0,
        needq: float = 0.0,
    ) -> list[Hit]:
        a = self.asked[i]
        ctx = a.cached.ctx
        if any(link.via is not None for link in ctx.links):
            return a.cached.hits["graph"]
        related, matched = self.related[i]
        index = self.index(ctx.namespace, source)
        if index is None:
            return related
        question = index.question_concepts(tokenize(ctx.text))
        chosen = self.seeds(i, seeds, n)
        walked = index.walk(
            question,
            chosen,
            alpha=alpha or self.cfg.read.graph.graph_concept_alpha,
            concept_weight=self.cfg.read.graph.graph_concept_weight if cw is None else cw,
            k=ctx.k + len(chosen),
        )
        if drop:  # the seeds are the semantic list's top: leave them out (keep the first `keep`)
            dropped = set(chosen[int(keep) :])
            walked = [h for h in walked if h.memory_id not in dropped]
        if only:  # control: the seeds alone, in the walk's order
            walked = [h for h in walked if h.memory_id in set(chosen)]
        if needq and not question:  # no question concept: no walk
            return related
        walked = walked[: ctx.k]
        if not walked:
            return related
        first = [h for h in related if h.memory_id in matched]
        have = {h.memory_id for h in first}
        concepts = [
            Hit(h.memory_id, h.mass, associative=True) for h in walked if h.memory_id not in have
        ]
        have |= {h.memory_id for h in concepts}
        rest = [h for h in related if h.memory_id not in have]
        return (first + concepts + rest)[: ctx.k]


def variants_main(path: str, corpora: list[str], specs: list[str], weights: list[float]) -> None:
    runs = {}
    for c in corpora:
        stands = pickle.loads((WORK / f"stands-{c}.pkl").read_bytes())
        memory = open_memory(c).__enter__()
        asked = ask_all(memory, path, c)
        runs[c] = (memory, asked, stands, Walks(memory, asked))
        print(f"{c}: walks ready", file=sys.stderr, flush=True)
    table: dict[tuple[str, float], dict[str, list[Row]]] = {}
    bare = {c: score(m, a, s, without_graph) for c, (m, a, s, _) in runs.items()}
    for spec in specs:
        opts = dict(kv.split("=") for kv in spec.split(",") if kv) if spec != "live" else {}
        typed: dict[str, Any] = {
            k: (v if k in ("seeds", "source") else float(v)) for k, v in opts.items()
        }
        for key in ("n", "keep"):
            if key in typed:
                typed[key] = int(typed[key])
        lists = {}
        for c, (_, a, _, w) in runs.items():
            lists[c] = [None if spec == "live" else w.graph_list(i, **typed) for i in range(len(a))]
        for wt in weights:
            rows = {}
            for c, (m, a, s, _) in runs.items():
                idx = {id(x): i for i, x in enumerate(a)}

                def plan_change(x: Asked, wt: float = wt) -> Any:
                    g = x.cached.plan.weights.get("graph", 0.0)
                    # only where the concept walk runs and the plan is not relational
                    if x.cached.plan.name == "relational":
                        return x.cached.plan
                    return dataclasses.replace(
                        x.cached.plan,
                        weights={**x.cached.plan.weights, "graph": wt if g > 0 else 0.0},
                    )

                def lister(
                    x: Asked, got_all: list[Any] = lists[c], idx: dict[int, int] = idx
                ) -> dict[str, Any]:
                    got = got_all[idx[id(x)]]
                    return {} if got is None else {"graph": got}

                rows[c] = score(m, a, s, plan_change, lister)
            table[(spec, wt)] = rows
            print(
                f"{spec:40s} w={wt}: "
                + " | ".join(
                    f"{c} {fmt(summary(rows[c]))} share {summary(rows[c])['R@10'] - summary(bare[c])['R@10']:+.3f}"
                    for c in corpora
                ),
                flush=True,
            )
    for c in corpora:
        print(f"{c} without graph: {fmt(summary(bare[c]))}")
    convs = sorted({r[0] for rows in bare.values() for r in rows})
    held: dict[str, list[Row]] = {c: [] for c in corpora}
    chosen = []
    for test in convs:
        train = set(convs) - {test}
        best = max(
            table, key=lambda key: sum(summary(table[key][c], train)["R@10"] for c in corpora)
        )
        chosen.append(best)
        for c in corpora:
            held[c].extend(r for r in table[best][c] if r[0] == test)
    print("LOCO choices:", chosen)
    for c in corpora:
        s, b = summary(held[c]), summary(bare[c])
        print(f"{c} LOCO: {fmt(s)} share {s['R@10'] - b['R@10']:+.3f}")
    (WORK / "table.pkl").write_bytes(pickle.dumps(table))


if __name__ == "__main__":
    if sys.argv[1] == "variants":
        p = argparse.ArgumentParser()
        p.add_argument("cmd")
        p.add_argument("path")
        p.add_argument("--corpus", nargs="+", default=["turns", "observations"])
        p.add_argument("--specs", nargs="+", default=["live"])
        p.add_argument("--weights", nargs="+", type=float, default=[1.5])
        a = p.parse_args()
        variants_main(a.path, a.corpus, a.specs, a.weights)
    else:
        main()
