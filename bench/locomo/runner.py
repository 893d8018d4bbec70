"""``run_bench``: import LoCoMo conversations as memories and score recall (docs/benchmarks.md
"Retrieval quality: LoCoMo").

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
from dataclasses import dataclass, field
from typing import Any

from bench.locomo.ablation import (
    CachedQuestion,
    ContentBM25,
    Variant,
    ablation_variants,
    alone,
    cache_question,
    replay,
)
from bench.locomo.baselines import score_baselines
from bench.locomo.corpus import CORPORA, Corpus, gold_units, import_conversation, unit_candidates
from bench.locomo.dataset import Conversation, total_report
from bench.locomo.metrics import (
    CATEGORIES,
    HEADLINE,
    Row,
    score_ranking,
    summarize,
    with_categories,
)
from bench.locomo.peer import PeerSearch
from bench.perf.latency import percentile
from graphmem.errors import InvalidInputError
from graphmem.memory import GraphMem
from graphmem.models import Memory, RecallQuery
from graphmem.retrieval.pipeline import RecallPipeline
from graphmem.retrieval.ranking.rerank import NoopReranker
from graphmem.retrieval.retrievers import Hit
from graphmem.settings import RETRIEVERS
from graphmem.store.base import memory_pages

__all__ = ["Progress", "run_bench"]

Progress = Callable[[str, int, int], None]  # (phase, advance, phase total)
_ABLATION = ("without ", "planner ", "aggregate ", "rerank ", "keys ", "event-time ", "question ")


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
    ``ablation``, the rows of :func:`~bench.locomo.ablation.ablation_variants`
    are replayed from one run of every retriever per question (see
    :mod:`bench.locomo.ablation`); the replay of the question's own plan is
    checked against the live recall and mismatches are counted. With
    ``baseline``, docs/benchmarks.md's baselines are scored on the same memories;
    with ``peer`` (a :class:`~bench.locomo.peer.PeerSearch`, or the reason it
    is unavailable), the peer's top ``k`` for the same questions. With
    ``asked_twice`` (docs/benchmarks.md "Asked twice"), after everything else every question is
    asked once more with access recording on, in the file's order, then all of
    them again: ``report["asked_twice"]`` holds both passes' overall metrics
    and the R@10 change (second − first). Returns the
    report described in the module docstring of :mod:`bench.cli.locomo_cmds`.

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
    on_import = tick(f"import {corpus}", n_units)
    imported = [
        import_conversation(memory, c, corpus, batch_size=batch_size, progress=on_import)
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
    tally = _Tally()
    for conv, (namespace, stands_for, _), questions in zip(
        conversations, imported, asked, strict=True
    ):
        # "keys off" (issue 15): BM25 over the content, as the store ranks without keys
        content = ContentBM25(_all_memories(memory, namespace)) if ablation else None
        for qa, gold in questions:
            asking = _Question(namespace, stands_for, gold, qa.category, content)
            base = RecallQuery(text=qa.question, k=k, reference_time=conv.now, record_access=False)
            _ask(memory, asking, base, variants, peer, tally, k)
            advance(1)
    report = _report(memory, conversations, corpus, n_units, imported, retrievers, tally)
    report["seconds"] = {"import": round(import_s, 2)} | {
        name: round(value, 2) for name, value in tally.seconds.items()
    }
    if variants:
        report["replay_mismatches"] = tally.mismatches
    if ablation:
        report["ablation"] = _ablation_rows(reader, variants, tally)
    if isinstance(peer, PeerSearch):
        report["peer"] = with_categories(tally.rows["peer"]) | peer.describe()
    elif peer is not None:
        report["peer"] = {"skipped": peer}
    if baseline:
        started = time.perf_counter()
        report["baselines"] = score_baselines(memory, imported, asked)
        report["seconds"]["baselines"] = round(time.perf_counter() - started, 2)
    if asked_twice:
        started = time.perf_counter()
        on_ask = tick(f"asked twice {corpus}", 2 * sum(map(len, asked)))
        report["asked_twice"] = _asked_twice(memory, conversations, imported, asked, k, on_ask)
        report["seconds"]["asked_twice"] = round(time.perf_counter() - started, 2)
    return report


def _latency(samples: dict[str, list[float]]) -> dict[str, Any]:
    """Each question asked once, as an agent asks it (issue 13: the latency bench repeats
    its nine queries, so caches the first ask fills — the name-masked texts' embeddings,
    the concept index — serve its later passes): ``p50`` / ``p95`` of the live recall
    and of the peer's search (``peer_p50`` / ``peer_p95``, with ``--store neo4j``), and
    ``stages``, the median ms of each stage of ``RecallResult.timings_ms`` over the
    questions that ran it. Nearest-rank percentiles (:func:`bench.perf.latency.percentile`)."""
    out: dict[str, Any] = {}
    for name, prefix in (("recall", ""), ("peer", "peer_")):
        if samples.get(name):
            out[f"{prefix}p50"] = round(percentile(samples[name], 50), 2)
            out[f"{prefix}p95"] = round(percentile(samples[name], 95), 2)
    out["stages"] = {
        name.removeprefix("stage."): round(percentile(values, 50), 2)
        for name, values in sorted(samples.items())
        if name.startswith("stage.") and values
    }
    return out


@dataclass(slots=True)
class _Tally:
    """What the questions of a run add up to: scored rows per variant, rows and counts
    per plan, replay mismatches, seconds per phase."""

    rows: dict[str, list[Row]] = field(default_factory=lambda: defaultdict(list))
    by_plan: dict[str, list[Row]] = field(default_factory=lambda: defaultdict(list))
    plans: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    mismatches: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    #: ms per question of the live recall, of each of its stages, and of the peer's search
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


@dataclass(frozen=True, slots=True)
class _Question:
    """One question's scoring context: its namespace, the units each memory stands for,
    the gold units and the category."""

    namespace: str
    stands_for: dict[str, tuple[str, ...]]
    gold: set[str]
    category: int
    content: ContentBM25 | None = None

    def score(self, ids: Sequence[str]) -> Row:
        ranked = [self.stands_for.get(mid, ()) for mid in ids]
        return (self.category, score_ranking(ranked, self.gold))


def _ask(
    memory: GraphMem,
    question: _Question,
    base: RecallQuery,
    variants: Sequence[Variant],
    peer: PeerSearch | str | None,
    tally: _Tally,
    k: int,
) -> None:
    """Ask one question of the live pipeline, replay it for every variant, ask the peer."""
    mark = time.perf_counter()
    result = memory.recall(question.namespace, base)
    took = time.perf_counter() - mark
    tally.seconds["recall"] += took
    tally.latency["recall"].append(took * 1000)
    for stage, ms in result.timings_ms.items():
        tally.latency[f"stage.{stage}"].append(ms)
    live = [h.memory.id for h in result.hits]
    tally.plans[str(question.category)][result.plan] += 1
    tally.rows["pipeline"].append(question.score(live))
    tally.by_plan[result.plan].append(tally.rows["pipeline"][-1])
    if variants:
        mark = time.perf_counter()
        reader = memory.recall_pipeline
        cached = cache_question(reader, question.namespace, base)
        tally.mismatches += replay(reader, cached, cached.plan) != live
        for variant in variants:
            ids = replay(reader, cached, cached.plan_for(variant, memory.settings))
            tally.rows[variant.name].append(question.score(ids))
        if question.content is not None:  # the issue-15 rows (only with --ablation)
            _issue15_rows(reader, question, cached, tally)
        tally.seconds["replay"] += time.perf_counter() - mark
    if isinstance(peer, PeerSearch):
        mark = time.perf_counter()
        vector = memory.embedder.embed([base.text])[0]
        ids = peer.search(question.namespace, base.text, vector, k)
        tally.rows["peer"].append(question.score(ids))
        took = time.perf_counter() - mark
        tally.seconds["peer"] += took
        tally.latency["peer"].append(took * 1000)


def _issue15_rows(
    reader: RecallPipeline, question: _Question, cached: CachedQuestion, tally: _Tally
) -> None:
    """The issue-15 rows. "keys off": the BM25 list over the content, not the keys;
    "event-time ranking off": no temporal list for a question without a time window
    (a 'when' question's); "question resolution off": the question's retrieval and plan
    from its text as asked."""
    assert question.content is not None
    plain = {"bm25": question.content.search(cached.ctx.text, cached.ctx.k)}
    tally.rows["keys off"].append(question.score(replay(reader, cached, cached.plan, plain)))
    no_when: dict[str, list[Hit]] = {"temporal": []} if cached.ctx.window is None else {}
    ids = replay(reader, cached, cached.plan, no_when)
    tally.rows["event-time ranking off"].append(question.score(ids))
    # "question resolution off": the question searched as asked (only re-run when the
    # resolution changed its text)
    unresolved = cached
    if cached.ctx.text != cached.query.text:
        unresolved = cache_question(reader, question.namespace, cached.query, resolve=False)
    ids = replay(reader, unresolved, unresolved.plan)
    tally.rows["question resolution off"].append(question.score(ids))


def _report(
    memory: GraphMem,
    conversations: Sequence[Conversation],
    corpus: Corpus,
    n_units: int,
    imported: Sequence[tuple[str, dict[str, tuple[str, ...]], int]],
    retrievers: Sequence[str],
    tally: _Tally,
) -> dict[str, Any]:
    """The report's headline part: the run's shape, the pipeline's metrics overall, per
    category and per plan, each retriever alone, and the recall's latency."""
    rows = tally.rows
    return {
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
        "plans": {c: dict(sorted(counts.items())) for c, counts in sorted(tally.plans.items())},
        "by_plan": {p: summarize(r, HEADLINE) for p, r in sorted(tally.by_plan.items())},
        "import": total_report(conversations).as_dict(),
        "namespaces": [ns for ns, _, _ in imported],
        "recall_latency_ms": _latency(tally.latency),
    }


def _ablation_rows(
    reader: RecallPipeline, variants: Sequence[Variant], tally: _Tally
) -> dict[str, Any]:
    """The ablation rows (``without``, ``planner``, ``rerank`` variants, ``keys off``)."""
    out: dict[str, Any] = {
        v.name: with_categories(tally.rows[v.name])
        for v in variants
        if v.name.startswith(_ABLATION)
    }
    for name in ("keys off", "event-time ranking off", "question resolution off"):
        if name in tally.rows:
            out[name] = with_categories(tally.rows[name])
    if isinstance(reader.reranker, NoopReranker):
        out["rerank"] = {
            "skipped": "no reranker configured (GRAPHMEM_RERANKER_MODEL): rerank on = off"
        }
    return out


def _all_memories(memory: GraphMem, namespace: str) -> list[Memory]:
    """Every memory of ``namespace`` (for the "keys off" row's content BM25)."""
    return [m for page in memory_pages(memory.store, namespace, 1000) for m in page]


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
