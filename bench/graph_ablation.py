"""The graph retriever on LoCoMo, side by side (issue 12): extractors (capitalized vs
ner) and traversals (classic SPEC §3, the guided traversal, personalised PageRank),
each with its share — full minus "without graph" — chosen leave-one-conversation-out.

Step 1 (``cache``, minutes): import each conversation into an embedded store with the
chosen extractor, run the five retrievers for every question (the pipeline's own
code) plus the graph variants, and cache the lists with what ranking needs (the same
fields as bench/calibrate.py, whose replay this reuses). Vectors come from a text →
vector cache on disk (filled from earlier stores with ``--vectors-from`` and by the
model for what is missing), so a rebuild costs the extraction, not the encoder.

Step 2 (``eval``, seconds): for each graph variant and graph weight, the replayed
R@10 / All@10 with the graph list and with the graph weight at 0; the weight chosen
leave-one-conversation-out (best mean R@10 on the other four, both corpora).

    python bench/graph_ablation.py cache ../shared/data/locomo-dev.json --corpus turns \
        --extractor ner --vectors-from old.sqlite
    python bench/graph_ablation.py eval --corpus turns observations --extractor ner
"""

from __future__ import annotations

import pickle
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import calibrate

from bench.locomo import gold_units, import_conversation, load_locomo
from graphmem import GraphMem, Settings
from graphmem.embedding import EmbedderWrapper, SentenceTransformerEmbedder
from graphmem.retrieval.retrievers.base import RetrievalContext
from graphmem.retrieval.retrievers.graph import GraphRetriever
from graphmem.types import Vector

WORK = Path(tempfile.gettempdir()) / "graphmem-graph-ablation"
VECTORS = WORK / "vectors.pkl"


class DiskVectors(EmbedderWrapper):
    """Text → vector from a pickle on disk; the model encodes only what is missing."""

    def __init__(self) -> None:
        super().__init__(SentenceTransformerEmbedder())
        self.table: dict[str, np.ndarray] = (
            pickle.loads(VECTORS.read_bytes()) if VECTORS.exists() else {}
        )
        self.misses = 0

    def embed(self, texts: Sequence[str]) -> Vector:
        missing = [t for t in dict.fromkeys(texts) if t not in self.table]
        if missing:
            self.misses += len(missing)
            for text, vector in zip(missing, self._inner.embed(missing), strict=True):
                self.table[text] = np.asarray(vector, dtype=np.float32)
        return np.stack([self.table[t] for t in texts]).astype(np.float32)

    def save(self) -> None:
        VECTORS.write_bytes(pickle.dumps(self.table))


def seed_vectors(paths: Sequence[str]) -> None:
    """Add the (content, embedding) pairs of earlier embedded stores to the disk cache."""
    table: dict[str, np.ndarray] = pickle.loads(VECTORS.read_bytes()) if VECTORS.exists() else {}
    for path in paths:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            for content, blob in conn.execute("SELECT content, embedding FROM memories"):
                if blob is not None:
                    table.setdefault(content, np.frombuffer(blob, dtype=np.float32).copy())
    VECTORS.write_bytes(pickle.dumps(table))
    print(f"{len(table)} vectors cached", file=sys.stderr)


# ------------------------------------------------------------------ PPR
def ppr_lists(
    memory: GraphMem,
    namespace: str,
    ctx: RetrievalContext,
    semantic: list[str],
    *,
    seeds_top: int,
    passage_weight: float,
    alpha: float,
    relations: bool,
) -> list[str]:
    """Personalised PageRank over the namespace's entity–memory graph (HippoRAG 2):
    reset mass on the query's linked entities and, ``passage_weight`` as much, on the
    semantic retriever's top ``seeds_top`` memories; memories ranked by their mass,
    the seeds themselves left out (the semantic list has them)."""
    graph = _graph(memory, namespace, relations)
    links = [(link.entity_id, link.confidence) for link in ctx.links]
    reset = _reset_mass(graph, links, semantic, seeds_top, passage_weight)
    if not reset:
        return []
    return _ranked_by_pagerank(graph, reset, set(semantic[:seeds_top]), alpha, 1e-8, ctx.k)


def _reset_mass(
    graph: nx.Graph,
    links: Sequence[tuple[str, float]],
    semantic: Sequence[str],
    seeds_top: int,
    passage_weight: float,
) -> dict[Any, float]:
    """PPR's reset mass: each linked entity its link confidence, each of the semantic
    top ``seeds_top`` memories ``passage_weight / (1 + rank)`` (nodes in ``graph`` only)."""
    reset: dict[Any, float] = {}
    for entity, confidence in links:
        if ("e", entity) in graph:
            reset[("e", entity)] = reset.get(("e", entity), 0.0) + confidence
    for rank, mid in enumerate(semantic[:seeds_top]):
        if ("m", mid) in graph:
            reset[("m", mid)] = reset.get(("m", mid), 0.0) + passage_weight / (1 + rank)
    return reset


def _ranked_by_pagerank(
    graph: nx.Graph, reset: dict[Any, float], seeds: set[str], alpha: float, tol: float, limit: int
) -> list[str]:
    """Memories by personalised PageRank mass (ties by id), the seeds and massless left out."""
    scores = nx.pagerank(graph, alpha=alpha, personalization=reset, weight="weight", tol=tol)
    ranked = sorted(
        ((s, n[1]) for n, s in scores.items() if n[0] == "m" and n[1] not in seeds and s > 0),
        key=lambda x: (-x[0], x[1]),
    )
    return [mid for _, mid in ranked[:limit]]


_GRAPHS: dict[tuple[str, bool], nx.Graph] = {}


def _graph(memory: GraphMem, namespace: str, relations: bool) -> nx.Graph:
    key = (namespace, relations)
    if key in _GRAPHS:
        return _GRAPHS[key]
    graph = nx.Graph()
    after = None
    while True:
        page = memory.list_memories(namespace, after_id=after, limit=500)
        if not page:
            break
        for m in page:
            if not m.is_current:
                continue
            for mention in m.mentions:
                graph.add_edge(("m", m.id), ("e", mention.entity_id), weight=1.0)
        after = page[-1].id
    if relations:
        entities = [e.id for e in memory.store.list_entities(namespace)]
        for r in memory.store.relation_subgraph(namespace, entities, 1):
            if r.predicate != "CO_OCCURS_WITH":
                graph.add_edge(("e", r.source_id), ("e", r.target_id), weight=r.confidence)
    _GRAPHS[key] = graph
    return graph


PPR_VARIANTS = {
    "ppr": {"seeds_top": 5, "passage_weight": 0.5, "alpha": 0.5, "relations": True},
    "ppr-entities": {"seeds_top": 0, "passage_weight": 0.0, "alpha": 0.5, "relations": True},
}


# ------------------------------------------------------------------ cache
def build(path: str, corpus: str, extractor: str) -> None:
    convs = load_locomo(path)
    data_dir = Path(tempfile.mkdtemp(prefix=f"ablation-{corpus}-{extractor}-", dir=WORK))
    embedder = DiskVectors()
    settings = Settings(data_dir=data_dir, neo4j_uri=None, extractor=extractor)
    classic = replace_settings(settings, graph_traversal="classic")
    questions: list[dict[str, Any]] = []
    units: dict[str, dict[str, tuple[str, ...]]] = {}
    started = time.time()
    with GraphMem(settings, embedder=embedder) as memory:
        for conv in convs:
            ns, stands_for, _ = import_conversation(memory, conv, corpus)  # type: ignore[arg-type]
            units[ns] = stands_for
            print(f"{conv.sample_id}: imported {time.time() - started:.0f}s", file=sys.stderr)
            for qa in conv.qa:
                gold = gold_units(conv, qa, corpus)  # type: ignore[arg-type]
                if not gold:
                    continue
                retrieved = calibrate.retrieve_question(memory, ns, conv, qa)
                ctx, hits = retrieved[0], retrieved[3]
                lists = {n: [h.memory_id for h in hs] for n, hs in hits.items()}
                lists["graph:classic"] = [
                    h.memory_id
                    for h in GraphRetriever().retrieve(memory.store, replace(ctx, settings=classic))
                ]
                for name, options in PPR_VARIANTS.items():
                    lists[f"graph:{name}"] = ppr_lists(
                        memory, ns, ctx, lists["semantic"], **options
                    )
                ids = sorted({m for ls in lists.values() for m in ls})
                found = memory.store.get_memories(ns, ids)
                record = calibrate.question_record(
                    conv, qa, gold, retrieved, lists, found, stands_for
                )
                record["question"] = qa.question
                record["links"] = [(link.entity_id, link.confidence) for link in ctx.links]
                record["namespace"] = ns
                questions.append(record)
            print(f"{conv.sample_id}: {len(questions)} questions", file=sys.stderr)
        stats = {
            "entities": sum(len(memory.store.list_entities(n)) for n in memory.namespaces()),
            "relations": sum(memory.stats(n).get("relations", 0) for n in memory.namespaces()),
        }
        graphs = {n: _edges(memory, n) | {"units": units[n]} for n in units}
    embedder.save()
    out = WORK / f"{corpus}-{extractor}.pkl"
    cached = {"questions": questions, "stats": stats, "graphs": graphs, "store": str(data_dir)}
    out.write_bytes(pickle.dumps(cached))  # the store: bench/keys_ablation.py reads it
    print(f"cached {out} ({stats}; {embedder.misses} texts encoded)", file=sys.stderr)


def _edges(memory: GraphMem, namespace: str) -> dict[str, Any]:
    """The namespace's graph for offline variants: memory → (entity ids, sessions),
    relations (source, predicate, target, confidence)."""
    mentions: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    meta: dict[str, tuple[Any, ...]] = {}
    after = None
    while page := memory.list_memories(namespace, after_id=after, limit=500):
        for m in page:
            if m.is_current:
                mentions[m.id] = (
                    tuple(x.entity_id for x in m.mentions),
                    tuple(sorted(m.session_ids)),
                )
                meta[m.id] = calibrate.ranking_fields(m)
        after = page[-1].id
    entities = [e.id for e in memory.store.list_entities(namespace)]
    relations = [
        (r.source_id, r.predicate, r.target_id, r.confidence)
        for r in memory.store.relation_subgraph(namespace, entities, 1)
    ]
    return {"mentions": mentions, "relations": relations, "meta": meta}


def replace_settings(settings: Settings, **update: Any) -> Settings:
    return settings.model_copy(update=update)


# ------------------------------------------------------------------ eval
WEIGHTS = (0.1, 0.25, 0.5, 1.0)


OFFLINE = {
    # name: (semantic seeds, passage weight, alpha, relations, sessions)
    "ppr3": (3, 1.0, 0.5, True, False),
    "ppr10": (10, 1.0, 0.5, True, False),
    "ppr5-a85": (5, 1.0, 0.85, True, False),
    "ppr5-sessions": (5, 1.0, 0.5, True, True),
    "ppr5-norel": (5, 1.0, 0.5, False, False),
}


def offline_ppr(q: dict[str, Any], graph: nx.Graph, options: tuple[Any, ...]) -> list[str]:
    top, passage, alpha, _, _ = options
    semantic = q["lists"]["semantic"]
    reset = _reset_mass(graph, q["links"], semantic, top, passage)
    if not reset:
        return []
    return _ranked_by_pagerank(graph, reset, set(semantic[:top]), alpha, 1e-6, 50)


def offline_graph(edges: dict[str, Any], relations: bool, sessions: bool) -> nx.Graph:
    graph = nx.Graph()
    for mid, (entities, sess) in edges["mentions"].items():
        graph.add_node(("m", mid))
        for entity in entities:
            graph.add_edge(("m", mid), ("e", entity), weight=1.0)
        if sessions:
            for sid in sess:
                graph.add_edge(("m", mid), ("s", sid), weight=1.0)
    if relations:
        for source, predicate, target, confidence in edges["relations"]:
            if predicate != "CO_OCCURS_WITH":
                graph.add_edge(("e", source), ("e", target), weight=confidence)
    return graph


def evaluate(corpora: list[str], extractor: str) -> None:
    settings = Settings(neo4j_uri=None)
    base = calibrate.current(settings)
    loaded = {c: pickle.loads((WORK / f"{c}-{extractor}.pkl").read_bytes()) for c in corpora}
    data = {c: d["questions"] for c, d in loaded.items()}
    for d in loaded.values():
        if "graphs" not in d:
            continue
        for name, options in OFFLINE.items():
            graphs = {n: offline_graph(e, options[3], options[4]) for n, e in d["graphs"].items()}
            for q in d["questions"]:
                q["lists"][f"graph:{name}"] = offline_ppr(q, graphs[q["namespace"]], options)
        # memories the offline lists bring need their ranking fields
        for q in d["questions"]:
            g = d["graphs"][q["namespace"]]
            for name in OFFLINE:
                for mid in q["lists"][f"graph:{name}"]:
                    if mid not in q["meta"]:
                        q["meta"][mid] = g["meta"][mid]
                        q["sessions"][mid] = g["mentions"][mid][1]
                        q["units"][mid] = g["units"].get(mid, ())
    convs = sorted({q["conv"] for qs in data.values() for q in qs})
    names = sorted({n for qs in data.values() for n in qs[0]["lists"] if n.startswith("graph")})

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
        print(
            f"{extractor} {c:12s} without graph      {calibrate.fmt(calibrate.summary(without[c]))}"
        )
    for graph in names:
        scored = {w: rows(graph, w) for w in WEIGHTS}
        held: dict[str, calibrate.Rows] = {c: [] for c in corpora}
        chosen = []
        for test in convs:
            train = set(convs) - {test}
            best = max(
                WEIGHTS,
                key=lambda w: sum(calibrate.objective(scored[w][c], train) for c in corpora),
            )
            chosen.append(best)
            for c in corpora:
                held[c].extend(r for r in scored[best][c] if r[0] == test)
        for c in corpora:
            at = calibrate.summary(scored[base["weights"]["graph"]][c])
            loco = calibrate.summary(held[c])
            share = loco["R@10"] - calibrate.summary(without[c])["R@10"]
            print(
                f"{extractor} {c:12s} {graph:18s} w={base['weights']['graph']}: "
                f"{calibrate.fmt(at)} | LOCO w={chosen}: {calibrate.fmt(loco)} share {share:+.3f}"
            )


def main() -> None:
    parser = calibrate.bench_parser(__doc__, ("cache", "eval", "vectors"), path_nargs="*")
    parser.add_argument("--extractor", default="ner", choices=("ner", "capitalized"))
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    if args.step == "vectors":
        seed_vectors(args.path)
    elif args.step == "cache":
        for corpus in args.corpus:
            build(args.path[0], corpus, args.extractor)
    else:
        evaluate(args.corpus, args.extractor)


if __name__ == "__main__":
    main()
