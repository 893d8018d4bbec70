"""Concept nodes for the graph retriever on LoCoMo (issue 12, HippoRAG's approach),
measured offline on bench/graph_ablation.py's cache.

Each memory is linked to its *concepts*: the lemmatised heads of its noun chunks
(and the chunk itself when it has a modifier: "support group"), and its named
entities that are not people. Concepts carry IDF (``log(N / df)``); those in more
than ``max_df`` of a conversation's memories ("thing", "time") are dropped, so they
do not connect everything. A question's concepts (the same extraction), its linked
people and the semantic retriever's top memories seed a personalised PageRank over
the memory–concept graph; memories rank by their mass. The list replaces the graph
retriever's, and its weight is chosen leave-one-conversation-out, as in
graph_ablation.py's ``eval``.

    python bench/concept_graph.py ../shared/data/locomo-dev.json --corpus turns observations
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

sys.path.insert(0, str(Path(__file__).parent))
import calibrate
import graph_ablation

from graphmem import Settings
from graphmem.language.nlp import english_pipeline as _load

WORK = graph_ablation.WORK
_SKIP_POS = {"DET", "PRON", "PART", "PUNCT", "CCONJ", "ADP", "NUM", "SPACE", "AUX"}
_PEOPLE = {"PERSON"}
_DATES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}


def concepts(doc: Any) -> set[str]:
    """The lemmatised concepts of a parsed text (see the module docstring)."""
    out: set[str] = set()
    people = {t.i for ent in doc.ents if ent.label_ in _PEOPLE for t in ent}
    for chunk in doc.noun_chunks:
        root = chunk.root
        if root.i in people or root.pos_ in _SKIP_POS or root.is_stop or not root.is_alpha:
            continue
        out.add(root.lemma_.lower())
        words = [
            t.lemma_.lower()
            for t in chunk
            if t.pos_ not in _SKIP_POS and not t.is_stop and t.is_alpha and t.i not in people
        ]
        if len(words) > 1:
            out.add(" ".join(words))
    for ent in doc.ents:
        if ent.label_ in _PEOPLE or ent.label_ in _DATES:
            continue
        out.add(ent.text.lower())
    # verbs carry topics too ("paint", "adopt"): their lemmas, content verbs only
    for t in doc:
        if t.pos_ == "VERB" and not t.is_stop and t.is_alpha and len(t.lemma_) > 2:
            out.add("v:" + t.lemma_.lower())
    return out


def contents(store: str, namespaces: set[str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {n: {} for n in namespaces}
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as conn:
        for ns, mid, content in conn.execute("SELECT namespace, id, content FROM memories"):
            if ns in out:
                out[ns][mid] = content
    return out


def build_concepts(data: dict[str, Any], store: str) -> dict[str, Any]:
    nlp = _load()
    nss = set(data["graphs"])
    texts = contents(store, nss)
    memo: dict[str, dict[str, set[str]]] = {}
    for ns in sorted(nss):
        ids = [m for m in data["graphs"][ns]["mentions"] if m in texts[ns]]
        docs = nlp.pipe([texts[ns][m] for m in ids], batch_size=64)
        memo[ns] = {m: concepts(d) for m, d in zip(ids, docs, strict=True)}
    questions = [q["question"] for q in data["questions"]]
    qc = [concepts(d) for d in nlp.pipe(questions, batch_size=64)]
    return {"memories": memo, "questions": qc}


def concept_graph(
    mem_concepts: dict[str, set[str]], max_df: float, verbs: bool, min_df: int
) -> tuple[nx.Graph, dict[str, float]]:
    n = len(mem_concepts)
    df = Counter(c for cs in mem_concepts.values() for c in cs if verbs or not c.startswith("v:"))
    idf = {c: math.log(n / d) for c, d in df.items() if min_df <= d <= max_df * n}
    graph = nx.Graph()
    for mid, cs in mem_concepts.items():
        graph.add_node(("m", mid))
        for c in cs:
            if c in idf:
                graph.add_edge(("m", mid), ("c", c), weight=idf[c])
    return graph, idf


def ppr(
    graph: nx.Graph,
    idf: dict[str, float],
    q: dict[str, Any],
    q_concepts: set[str],
    options: dict[str, Any],
) -> list[str]:
    reset: dict[Any, float] = {}
    for c in q_concepts:
        if c in idf:
            reset[("c", c)] = idf[c] * options["concept_weight"]
    semantic = q["lists"]["semantic"]
    for rank, mid in enumerate(semantic[: options["seeds_top"]]):
        if ("m", mid) in graph:
            reset[("m", mid)] = reset.get(("m", mid), 0.0) + options["passage_weight"] / (1 + rank)
    if not reset:
        return []
    scores = nx.pagerank(
        graph, alpha=options["alpha"], personalization=reset, weight="weight", tol=1e-6
    )
    ranked = sorted(
        ((s, n[1]) for n, s in scores.items() if n[0] == "m" and s > 0),
        key=lambda x: (-x[0], x[1]),
    )
    return [mid for _, mid in ranked[:50]]


VARIANTS: dict[str, dict[str, Any]] = {
    "c-q": {"seeds_top": 0, "passage_weight": 0.0, "concept_weight": 1.0, "alpha": 0.5},
    "c-q+sem5": {"seeds_top": 5, "passage_weight": 1.0, "concept_weight": 0.2, "alpha": 0.5},
    "c-q+sem5-a85": {"seeds_top": 5, "passage_weight": 1.0, "concept_weight": 0.2, "alpha": 0.85},
    "c-sem5": {"seeds_top": 5, "passage_weight": 1.0, "concept_weight": 0.0, "alpha": 0.5},
    "c-q+sem10": {"seeds_top": 10, "passage_weight": 1.0, "concept_weight": 0.2, "alpha": 0.5},
}
GRAPHS = {"df20": (0.2, True, 2), "df10": (0.1, True, 2), "df5": (0.05, True, 2), "df2": (0.02, True, 2), "df5-noverb": (0.05, False, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", nargs="+", default=["turns"])
    parser.add_argument("--suffix", default="ner")
    parser.add_argument("--store", nargs="+", required=True, help="sqlite per corpus")
    parser.add_argument("--graphs", nargs="*", default=list(GRAPHS))
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    loaded = {c: pickle.loads((WORK / f"{c}-{args.suffix}.pkl").read_bytes()) for c in args.corpus}
    started = time.time()
    for (c, d), store in zip(loaded.items(), args.store, strict=True):
        cpath = WORK / f"concepts-{c}-{args.suffix}.pkl"
        if cpath.exists():
            d["concepts"] = pickle.loads(cpath.read_bytes())
        else:
            d["concepts"] = build_concepts(d, store)
            cpath.write_bytes(pickle.dumps(d["concepts"]))
        print(f"{c}: concepts in {time.time() - started:.0f}s", file=sys.stderr)
        for gname in args.graphs:
            max_df, verbs, min_df = GRAPHS[gname]
            graphs = {
                ns: concept_graph(mc, max_df, verbs, min_df)
                for ns, mc in d["concepts"]["memories"].items()
            }
            for vname in args.variants:
                for q, qc in zip(d["questions"], d["concepts"]["questions"], strict=True):
                    graph, idf = graphs[q["namespace"]]
                    name = f"graph:{gname}:{vname}"
                    q["lists"][name] = ppr(graph, idf, q, qc, VARIANTS[vname])
                    old = q["lists"]["graph"]
                    q["lists"][name + "+rel"] = old + [m for m in q["lists"][name] if m not in old]
                    alt: list[str] = []
                    for pair in itertools.zip_longest(q["lists"][name], old):
                        alt += [m for m in pair if m is not None and m not in alt]
                    q["lists"][name + "+alt"] = alt[:50]
                    g = d["graphs"][q["namespace"]]
                    for mid in q["lists"][name + "+rel"] + q["lists"][name + "+alt"]:
                        if mid not in q["meta"]:
                            q["meta"][mid] = g["meta"][mid]
                            q["sessions"][mid] = g["mentions"][mid][1]
                            q["units"][mid] = g["units"].get(mid, ())
        for q in d["questions"]:
            for old in [n for n in q["lists"] if n.startswith("graph:") and n.count(":") == 1]:
                del q["lists"][old]
        print(f"{c}: lists in {time.time() - started:.0f}s", file=sys.stderr)
    report(loaded, args.corpus)


def report(loaded: dict[str, Any], corpora: list[str]) -> None:
    settings = Settings(neo4j_uri=None)
    base = calibrate.current(settings)
    data = {c: d["questions"] for c, d in loaded.items()}
    convs = sorted({q["conv"] for qs in data.values() for q in qs})
    names = sorted({n for qs in data.values() for n in qs[0]["lists"] if n.startswith("graph")})
    weights = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0)

    def rows(graph: str, weight: float) -> dict[str, calibrate.Rows]:
        variant = {**base, "weights": {**base["weights"], "graph": weight}}
        out = {}
        for c, qs in data.items():
            for q in qs:
                q["lists"]["_graph"] = q["lists"]["graph"]
                q["lists"]["graph"] = q["lists"][graph]
                q.pop("_fresh", None)
            out[c] = calibrate.score_rows(qs, variant, settings)
            for q in qs:
                q["lists"]["graph"] = q["lists"].pop("_graph")
        return out

    without = rows("graph", 0.0)
    for c in corpora:
        print(f"{c:12s} without graph   {calibrate.fmt(calibrate.summary(without[c]))}")
    for graph in names:
        scored = {w: rows(graph, w) for w in weights}
        held: dict[str, calibrate.Rows] = {c: [] for c in corpora}
        chosen = []
        for test in convs:
            train = set(convs) - {test}
            best = max(
                weights,
                key=lambda w: sum(calibrate.objective(scored[w][c], train) for c in corpora),
            )
            chosen.append(best)
            for c in corpora:
                held[c].extend(r for r in scored[best][c] if r[0] == test)
        for c in corpora:
            loco = calibrate.summary(held[c])
            share = loco["R@10"] - calibrate.summary(without[c])["R@10"]
            print(
                f"{c:12s} {graph:28s} LOCO w={chosen}: {calibrate.fmt(loco)} share {share:+.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
