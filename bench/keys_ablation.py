"""Contextual key variants on LoCoMo, replayed on cached retriever lists (issue 15).

A key (graphmem.write.keys) is what BM25 indexes: the session date, the turns
around a turn and the turn itself. This bench rebuilds the BM25 list of every
cached question under other keys — window sizes, and the claim written 1, 2 or 3
times (``Settings.key_claim_repeats``) — from the memories of the store that
``bench/graph_ablation.py cache`` built, replays fusion and ranking
(bench/calibrate.py) and chooses the variant leave-one-conversation-out (best
mean R@10 on the other four conversations, both corpora given summed).

    python bench/graph_ablation.py cache ../shared/data/locomo-dev.json --corpus turns observations
    python bench/keys_ablation.py --corpus turns observations
    python bench/keys_ablation.py --corpus turns --variants stored b1a1x1 b1a1x3 \
        --store turns=/tmp/graphmem-graph-ablation/ablation-turns-ner-XXXX

``stored`` is the keys the store holds (a check: its row matches the cached
lists'); a variant ``bBaAxR`` is B turns before, A after, the claim R times;
``off`` is the content alone. Memories whose key is None are keyed by content.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import calibrate
from graph_ablation import WORK

from graphmem import GraphMem, Settings
from graphmem.models import Memory
from graphmem.store._bm25 import BM25Index
from graphmem.store.base import memory_pages
from graphmem.text import tokenize
from graphmem.write.keys import keys_of_stored

DEFAULT_VARIANTS = ("stored", "off", "b1a1x1", "b1a1x2", "b1a1x3", "b1a0x1", "b2a1x2")


def variant_keys(memories: list[Memory], variant: str) -> dict[str, str]:
    """Memory id → the text BM25 indexes under ``variant``."""
    if variant == "stored":
        return {m.id: m.key or m.content for m in memories}
    if variant == "off":
        return {m.id: m.content for m in memories}
    before, after, repeats = (
        int(x) for x in variant[1:].replace("a", " ").replace("x", " ").split()
    )
    keys = keys_of_stored(memories, before=before, after=after, claim_repeats=repeats)
    return {m.id: keys[m.id] or m.content for m in memories}


def bm25_lists(data: dict[str, Any], store: Path, variant: str, settings: Settings) -> None:
    """Replace each question's BM25 list by one over ``variant``'s keys (the question's
    text as the query, the cached list's length), adding the ranking fields of
    memories the cached lists did not hold."""
    questions = data["questions"]
    k = max(len(q["lists"]["bm25"]) for q in questions)
    with GraphMem(Settings(data_dir=store, neo4j_uri=None)) as memory:
        indexes = {}
        for ns in sorted({q["namespace"] for q in questions}):
            memories = [m for p in memory_pages(memory.store, ns, 500) for m in p if m.is_current]
            keys = variant_keys(memories, variant)
            ids = sorted(keys)
            docs = [tokenize(keys[i]) for i in ids]
            indexes[ns] = (
                ids,
                BM25Index(docs, k1=settings.read.fusion.bm25_k1, b=settings.read.fusion.bm25_b),
            )
    for q in questions:
        ids, index = indexes[q["namespace"]]
        rows, scores = index.matches(tokenize(q["question"]))
        order = sorted(range(len(rows)), key=lambda i: (-scores[i], ids[rows[i]]))[:k]
        q["lists"]["bm25"] = [ids[rows[i]] for i in order if scores[i] > 0]
        graph = data["graphs"][q["namespace"]]
        for mid in q["lists"]["bm25"]:
            if mid not in q["meta"]:
                q["meta"][mid] = graph["meta"][mid]
                q["sessions"][mid] = graph["mentions"][mid][1]
                q["units"][mid] = graph["units"].get(mid, ())
        q.pop("_fresh", None)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", nargs="+", default=["turns"], choices=("turns", "observations"))
    parser.add_argument("--extractor", default="ner", choices=("ner", "capitalized"))
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS))
    parser.add_argument(
        "--store", nargs="*", default=[], help="CORPUS=DIR: the store a cache was built in"
    )
    args = parser.parse_args()
    settings = Settings(neo4j_uri=None)
    base = calibrate.current(settings)
    stores = dict(s.split("=", 1) for s in args.store)
    rows: dict[tuple[str, str], calibrate.Rows] = {}
    for corpus in args.corpus:
        data = pickle.loads((WORK / f"{corpus}-{args.extractor}.pkl").read_bytes())
        store = Path(stores.get(corpus) or data["store"])
        for variant in args.variants:
            bm25_lists(data, store, variant, settings)
            rows[(variant, corpus)] = calibrate.score_rows(data["questions"], base, settings)
            print(
                f"{corpus:12s} {variant:8s} {calibrate.fmt(calibrate.summary(rows[(variant, corpus)]))}"
            )
    convs = sorted({conv for r in rows.values() for conv, _, _ in r})
    held: dict[str, calibrate.Rows] = {c: [] for c in args.corpus}
    chosen = []
    for test in convs:
        train = set(convs) - {test}
        best = max(
            args.variants,
            key=lambda v: sum(calibrate.objective(rows[(v, c)], train) for c in args.corpus),
        )
        chosen.append(best)
        for c in args.corpus:
            held[c].extend(r for r in rows[(best, c)] if r[0] == test)
    for c in args.corpus:
        print(f"{c:12s} LOCO {chosen}: {calibrate.fmt(calibrate.summary(held[c]))}")


if __name__ == "__main__":
    main()
