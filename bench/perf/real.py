"""``bench latency --locomo``: recall latency on real input (docs/benchmarks.md
"Speed and scale"; docs/performance.md).

Synthetic memories with random vectors skip the paths real conversations take (name
masking over transcripts, the concept walk, the answer-type list). This mode imports
LoCoMo conversations (turns and observations, one namespace per conversation and corpus,
as ``bench locomo`` does) and asks every question that has gold evidence once, as an
agent asks it: access recording off, in file order, with the conversation's last session
as "now". The model is loaded before the first timed question; nothing else is warmed.
Each question is also answered, right after graphmem's, by the floor and (``peers``, on
Neo4j) by the peer rows of :mod:`bench.perf.peers`, so all see the same load.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.locomo import gold_units, import_conversation, load_locomo
from bench.locomo.dataset import Conversation
from bench.perf.latency import configuration, peak_rss_mb, percentile, row_results
from bench.perf.peers import bench_rows
from graphmem.memory import GraphMem
from graphmem.models import RecallQuery

CORPORA = ("turns", "observations")


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(values, 50), 2),
        "p95_ms": round(percentile(values, 95), 2),
        "p99_ms": round(percentile(values, 99), 2),
    }


def bench_real(
    memory: GraphMem,
    path: Path,
    *,
    corpora: Sequence[str] = CORPORA,
    limit_conversations: int | None = None,
    peers: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Recall latency on LoCoMo, each question asked once; see the module docstring.

    Parameters
    ----------
    path : Path
        A file in LoCoMo's format (``bench.locomo.load_locomo``).
    corpora : sequence of str
        ``"turns"`` and/or ``"observations"``.
    limit_conversations : int, optional
        Only the first N conversations.
    peers : bool
        Also time the peer rows (Neo4j with the ``peer`` extra; else ``skipped``).
    progress : callable, optional
        ``progress(label, done, total)`` after each import and question.

    Returns
    -------
    dict
        The configuration (:func:`bench.perf.latency.configuration`), ``source``,
        ``conversations``, and per corpus: ``memories``, ``questions``, ``import_s``,
        ``p50_ms`` / ``p95_ms`` / ``p99_ms`` (nearest rank), ``stages`` and
        ``stages_p95`` (median and p95 ms of each stage of ``RecallResult.timings_ms``
        over the questions that ran it), the rows (``floor``; with ``peers``,
        ``peer``, ``peer_as_shipped``, ``peer_hybrid``) with the ratios
        (:func:`bench.perf.latency.row_results`); ``peak_rss_mb``, ``load_avg_1m_start``.

    Raises
    ------
    InvalidInputError
        When the file is not in LoCoMo's format.
    ValueError
        For a corpus other than turns or observations.
    """
    unknown = set(corpora) - set(CORPORA)
    if unknown:
        raise ValueError(f"corpus must be turns or observations, not {sorted(unknown)}")
    conversations = load_locomo(path)[:limit_conversations]
    memory.open()
    memory.embedder.embed(["warm-up"])  # the model loads outside the timings
    result: dict[str, Any] = {
        "source": str(path),
        "conversations": len(conversations),
        "load_avg_1m_start": round(os.getloadavg()[0], 2),
    }
    for corpus in corpora:
        result[corpus] = _corpus(memory, conversations, corpus, peers, progress)
    return {**configuration(memory), **result, "peak_rss_mb": round(peak_rss_mb(), 1)}


def _corpus(
    memory: GraphMem,
    conversations: Sequence[Conversation],
    corpus: Any,
    peers: bool,
    progress: Callable[[str, int, int], None] | None,
) -> dict[str, Any]:
    started = time.perf_counter()
    imported = []
    for i, conv in enumerate(conversations):
        imported.append(import_conversation(memory, conv, corpus))
        if progress:
            progress(f"import {corpus}", i + 1, len(conversations))
    import_s = time.perf_counter() - started
    asked = [[qa for qa in conv.qa if gold_units(conv, qa, corpus)] for conv in conversations]
    total, done = sum(map(len, asked)), 0
    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    row_totals: dict[str, list[float]] = {}
    info: dict[str, dict[str, Any]] = {}
    try:
        for conv, (namespace, _, _), questions in zip(conversations, imported, asked, strict=True):
            rows = bench_rows(memory, namespace, peers=peers)
            errors = {k: v.get("errors", 0) for k, v in info.items()}  # the earlier ones'
            info = rows.info
            for qa in questions:
                query = RecallQuery(text=qa.question, reference_time=conv.now, record_access=False)
                mark = time.perf_counter()
                answer = memory.recall(namespace, query)
                totals.append((time.perf_counter() - mark) * 1000)
                for stage, ms in answer.timings_ms.items():
                    stages.setdefault(stage, []).append(ms)
                for key, search in rows.searches.items():
                    mark = time.perf_counter()
                    search(qa.question)
                    row_totals.setdefault(key, []).append((time.perf_counter() - mark) * 1000)
                done += 1
                if progress:
                    progress(f"recall {corpus}", done, total)
            for key, count in errors.items():
                if count:
                    info[key]["errors"] = info[key].get("errors", 0) + count
    finally:  # real embeddings would crowd later searches of the store
        for namespace, _, _ in imported:
            memory.delete_namespace(namespace)
    out: dict[str, Any] = {
        "memories": sum(len(stands_for) for _, stands_for, _ in imported),
        "questions": len(totals),
        "import_s": round(import_s, 2),
        **_percentiles(totals),
        "stages": {k: round(statistics.median(v), 2) for k, v in sorted(stages.items())},
        "stages_p95": {k: round(percentile(v, 95), 2) for k, v in sorted(stages.items())},
    }
    out.update(row_results(out, info, row_totals))
    return out
