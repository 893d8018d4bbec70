"""``run_bench``: import LoCoMo conversations as memories and score recall (BENCHMARKS.md §1).

The protocol, in short: one namespace per conversation and corpus; two
corpora — **turns** (every dialog turn a verbatim memory) and
**observations** (every gpt-3.5-turbo observation a strong-inference
memory); "now" is the conversation's last session; categories 1–4 are the
headline, category 5 (adversarial) is reported apart.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from graphmem.errors import InvalidInputError
from graphmem.locomo.ablation import ablation_variants, alone, cache_question, replay
from graphmem.locomo.baselines import score_baselines
from graphmem.locomo.corpus import CORPORA, Corpus, gold_units, import_conversation, unit_candidates
from graphmem.locomo.dataset import Conversation, total_report
from graphmem.locomo.metrics import (
    CATEGORIES,
    HEADLINE,
    Row,
    score_ranking,
    summarize,
    with_categories,
)
from graphmem.locomo.peer import PeerSearch
from graphmem.memory import GraphMem
from graphmem.models import RecallQuery
from graphmem.retrieval.rerank import NoopReranker
from graphmem.settings import RETRIEVERS

__all__ = ["Progress", "run_bench"]

Progress = Callable[[str, int, int], None]  # (phase, advance, phase total)
_ABLATION = ("without ", "planner ", "rerank ")


def run_bench(
    memory: GraphMem,
    conversations: Sequence[Conversation],
    corpus: Corpus,
    *,
    k: int = 10,
    retrievers: Sequence[str] = RETRIEVERS,
    progress: Progress | None = None,
    baseline: bool = False,
    ablation: bool = False,
    peer: PeerSearch | str | None = None,
    batch_size: int = 256,
    asked_twice: bool = False,
) -> dict[str, Any]:
    """Import ``conversations`` (each into a fresh namespace) and score recall.

    Every question is asked of the full pipeline with ``k``, ``reference_time``
    = the conversation's last session and ``record_access=False`` (the bench
    changes nothing it reads). Each retriever alone (``retrievers``) and, with
    ``ablation``, the rows of :func:`~graphmem.locomo.ablation.ablation_variants`
    are replayed from one run of every retriever per question (see
    :mod:`graphmem.locomo.ablation`); the replay of the question's own plan is
    checked against the live recall and mismatches are counted. With
    ``baseline``, BENCHMARKS.md's baselines are scored on the same memories;
    with ``peer`` (a :class:`~graphmem.locomo.peer.PeerSearch`, or the reason it
    is unavailable), the peer's top ``k`` for the same questions. With
    ``asked_twice`` (BENCHMARKS.md §3), after everything else every question is
    asked once more with access recording on, in the file's order, then all of
    them again: ``report["asked_twice"]`` holds both passes' overall metrics
    and the R@10 change (second − first). Returns the
    report described in the module docstring of :mod:`graphmem.cli.locomo_cmds`.

    Raises
    ------
    InvalidInputError
        For an unknown corpus or ``k < 10``.
    """
    if corpus not in CORPORA:
        raise InvalidInputError(f"corpus must be one of {CORPORA}, got {corpus!r}", field="corpus")
    if k < 10:
        raise InvalidInputError("k must be >= 10 (metrics are at 5 and 10)", field="k")

    def tick(phase: str, total: int) -> Callable[[int], None]:
        return lambda n: progress(phase, n, total) if progress is not None else None

    started = time.perf_counter()
    n_units = sum(len(unit_candidates(c, corpus)) for c in conversations)
    imported = [
        import_conversation(
            memory, c, corpus, batch_size=batch_size, progress=tick(f"import {corpus}", n_units)
        )
        for c in conversations
    ]
    import_s = time.perf_counter() - started
    if isinstance(peer, PeerSearch):
        peer.start()
    asked = [
        [(qa, gold) for qa in conv.qa if (gold := gold_units(conv, qa, corpus))]
        for conv in conversations
    ]
    advance = tick(f"recall {corpus}", sum(map(len, asked)))
    reader = memory.recall_pipeline  # the bench replays its fuse-and-rank step
    variants = [alone(name) for name in retrievers]
    if ablation:
        variants.extend(ablation_variants(rerank=not isinstance(reader.reranker, NoopReranker)))
    rows: dict[str, list[Row]] = defaultdict(list)
    by_plan: dict[str, list[Row]] = defaultdict(list)
    plans: dict[str, Counter[str]] = defaultdict(Counter)
    mismatches = 0
    seconds: dict[str, float] = defaultdict(float)
    for conv, (namespace, stands_for, _), questions in zip(
        conversations, imported, asked, strict=True
    ):

        def score(ids: Sequence[str], gold: set[str]) -> dict[str, float]:
            return score_ranking([stands_for.get(mid, ()) for mid in ids], gold)  # noqa: B023

        for qa, gold in questions:
            base = RecallQuery(text=qa.question, k=k, reference_time=conv.now, record_access=False)
            mark = time.perf_counter()
            result = memory.recall(namespace, base)
            seconds["recall"] += time.perf_counter() - mark
            live = [h.memory.id for h in result.hits]
            plans[str(qa.category)][result.plan] += 1
            rows["pipeline"].append((qa.category, score(live, gold)))
            by_plan[result.plan].append(rows["pipeline"][-1])
            if variants:
                mark = time.perf_counter()
                cached = cache_question(reader, namespace, base)
                mismatches += replay(reader, cached, cached.plan) != live
                for variant in variants:
                    ids = replay(reader, cached, cached.plan_for(variant, memory.settings))
                    rows[variant.name].append((qa.category, score(ids, gold)))
                seconds["replay"] += time.perf_counter() - mark
            if isinstance(peer, PeerSearch):
                mark = time.perf_counter()
                vector = memory.embedder.embed([qa.question])[0]
                ids = peer.search(namespace, qa.question, vector, k)
                rows["peer"].append((qa.category, score(ids, gold)))
                seconds["peer"] += time.perf_counter() - mark
            advance(1)
    report: dict[str, Any] = {
        "corpus": corpus,
        "store": str(getattr(memory.store, "name", type(memory.store).__name__)),
        "model": memory.embedder.name,
        "conversations": len(conversations),
        "candidates": n_units,
        "memories": sum(len(sf) for _, sf, _ in imported),
        "merged": sum(m for _, _, m in imported),
        "overall": summarize(rows["pipeline"], HEADLINE),
        "by_category": {str(c): summarize(rows["pipeline"], (c,)) for c in CATEGORIES},
        "retrievers": {name: with_categories(rows[f"alone {name}"]) for name in retrievers},
        "plans": {c: dict(sorted(counts.items())) for c, counts in sorted(plans.items())},
        "by_plan": {p: summarize(r, HEADLINE) for p, r in sorted(by_plan.items())},
        "import": total_report(conversations).as_dict(),
        "namespaces": [ns for ns, _, _ in imported],
        "seconds": {"import": round(import_s, 2)}
        | {name: round(value, 2) for name, value in seconds.items()},
    }
    if variants:
        report["replay_mismatches"] = mismatches
    if ablation:
        report["ablation"] = {
            v.name: with_categories(rows[v.name]) for v in variants if v.name.startswith(_ABLATION)
        }
        if isinstance(reader.reranker, NoopReranker):
            report["ablation"]["rerank"] = {
                "skipped": "no reranker configured (GRAPHMEM_RERANKER_MODEL): rerank on = off"
            }
    if isinstance(peer, PeerSearch):
        report["peer"] = with_categories(rows["peer"]) | peer.describe()
    elif peer is not None:
        report["peer"] = {"skipped": peer}
    if baseline:
        started = time.perf_counter()
        report["baselines"] = score_baselines(memory, imported, asked)
        report["seconds"]["baselines"] = round(time.perf_counter() - started, 2)
    if asked_twice:
        started = time.perf_counter()
        report["asked_twice"] = _asked_twice(
            memory,
            conversations,
            imported,
            asked,
            k,
            tick(f"asked twice {corpus}", 2 * sum(map(len, asked))),
        )
        report["seconds"]["asked_twice"] = round(time.perf_counter() - started, 2)
    return report


def _asked_twice(
    memory: GraphMem,
    conversations: Sequence[Conversation],
    imported: Sequence[tuple[str, dict[str, tuple[str, ...]], int]],
    asked: Sequence[Sequence[tuple[Any, set[str]]]],
    k: int,
    advance: Callable[[int], None],
) -> dict[str, Any]:
    """Two passes over every question with access recording on (the default): the
    second pass sees what the first recorded (access counts, stability, salience,
    reactivation). Use must not degrade recall (SPEC §9.12)."""
    passes: list[list[Row]] = []
    for _ in range(2):
        rows: list[Row] = []
        for conv, (namespace, stands_for, _), questions in zip(
            conversations, imported, asked, strict=True
        ):
            for qa, gold in questions:
                query = RecallQuery(text=qa.question, k=k, reference_time=conv.now)
                ids = [h.memory.id for h in memory.recall(namespace, query).hits]
                rows.append(
                    (qa.category, score_ranking([stands_for.get(m, ()) for m in ids], gold))
                )
                advance(1)
        memory.flush()  # the pass's access updates are written before the next reads
        passes.append(rows)
    first, second = (summarize(rows, HEADLINE) for rows in passes)
    return {
        "first": first,
        "second": second,
        "R@10 change": round(second["R@10"] - first["R@10"], 4),
    }
