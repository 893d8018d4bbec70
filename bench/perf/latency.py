"""Speed and scale benchmarks (docs/benchmarks.md "Speed and scale"): ingest throughput and
recall latency.

Both report ratios and percentiles measured in one run, with the
configuration they ran under (store, N, model, batch sizes, Neo4j version);
neither is a timed test.

- ingest throughput (``bench ingest``) is in :mod:`bench.perf.ingest`.
- :func:`bench_latency` builds a namespace of ``n`` synthetic memories through
  the store's bulk write path and times full recalls (query embedding, all
  retrievers, fusion, ranking, access update) for a fixed query set covering
  the entity-centric, temporal-anchored, hybrid and exploratory plans (the
  precise plan needs a specificity of 0.8 that no question over this data
  reaches).

Synthetic memories (:mod:`bench.perf.synthetic`): sentences from templates, each
mentioning a person and a place, with a seeded **random unit embedding**. The query
embedding is real; the semantic retriever's results are then meaningless, its cost
is not.
"""

from __future__ import annotations

import math
import os
import resource
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from bench.perf.peers import bench_rows
from bench.perf.synthetic import bench_queries, synthetic_batches
from graphmem.memory import GraphMem
from graphmem.types import Vector
from graphmem.write.scores import compute_confidence

Progress = Callable[[int], None]


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in (0, 100])."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def peak_rss_mb() -> float:
    """Peak resident set size of this process, MiB (Linux ru_maxrss is KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def configuration(memory: GraphMem) -> dict[str, Any]:
    """What a benchmark ran under: store (and Neo4j version), model, batch sizes, threads."""
    config: dict[str, Any] = {
        "store": memory.store.name,
        "model": memory.embedder.name,
        "embedding_batch_size": memory.settings.embedding.embedding_batch_size,
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    if memory.store.name == "neo4j":
        info = memory.store.server_info()
        config["neo4j_version"] = f"{info.version} {info.edition}"
    return config


def build_namespace(
    memory: GraphMem, namespace: str, n: int, *, progress: Progress | None = None
) -> float:
    """(Re)build ``namespace`` with ``n`` synthetic memories; returns the seconds it took.

    The next batch is generated while the store writes the current one (one
    writer thread), so a server-side commit overlaps the client's work.
    """
    memory.delete_namespace(namespace)
    started = time.perf_counter()
    conf = compute_confidence(memory.settings, 0.95, 1, 1.0, 0.85, "supported")
    done = 0
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-build") as writer:
        pending: Future[None] | None = None
        for batch in synthetic_batches(
            namespace, n, memory.settings.embedding.embedding_dim, confidence=conf
        ):
            if pending is not None:
                pending.result()
                if progress:
                    progress(done)
            pending = writer.submit(memory.store.write, namespace, batch)
            done += len(batch.memories)
        if pending is not None:
            pending.result()
    if progress:
        progress(done)
    return time.perf_counter() - started


def bench_latency(
    memory: GraphMem,
    n: int,
    *,
    namespace: str | None = None,
    repeats: int = 5,
    rebuild: bool = False,
    peer: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Recall latency at ``n`` memories; see the module docstring.

    Each query is answered right after graphmem's by the floor (the query embedding plus
    one filtered vector search) and, with ``peer`` (Neo4j), by the three peer rows of
    :mod:`bench.perf.peers`, so all see the same machine load (on a shared machine it
    drifts by 2x within minutes): the ratios are the measure.

    Returns
    -------
    dict
        ``p50_ms``, ``p95_ms``, ``p99_ms`` (nearest rank over ``repeats`` passes of
        the query set), ``n``, ``store``, ``stages`` (median ms per stage of
        ``RecallResult.timings_ms``: embed, plan, each retriever, retrievers (the
        concurrent block), fusion, hydration, ranking, access_submit, total),
        ``stages_p95``, ``plans``, ``build_s``, ``peak_rss_mb``,
        ``past_embedded_warn_size``, ``semantic_recall_at_10`` (the store's vector search
        against exact cosine on the bench's query embeddings), ``index_recall_at_10`` (on
        ``index_recall_sample`` stored embeddings; :mod:`graphmem.store.recall_monitor`),
        ``vector_recall_alert``, ``load_avg_1m_start`` and the configuration
        (:func:`configuration`, its ``load_avg_1m`` taken at the end); ``floor`` and
        ``ratio_to_floor_p50`` / ``_p95``; with ``peer``, ``peer``, ``peer_as_shipped``
        and ``peer_hybrid`` (each its ``retriever``, ``version`` and percentiles, or
        ``skipped``; the hybrid one also its vector half's ``vector_recall_at_10`` and
        ``vector_other_namespaces``, :func:`_peer_vector_recall`) and ``ratio_p50`` /
        ``ratio_p95`` (graphmem's over the in-index ``peer``'s).
    """
    ns = namespace or f"bench-latency-{n}"
    memory.open()
    build_s = 0.0
    if rebuild or memory.store.count_memories(ns) != n:
        build_s = build_namespace(memory, ns, n, progress=progress)
    rows = bench_rows(memory, ns, peers=peer)
    load_start = round(os.getloadavg()[0], 2)
    passes = _timed_passes(memory, ns, bench_queries(n), repeats, rows.searches)
    memory.flush()
    truth = _Truth.of(memory, ns, bench_queries(n))
    recall = _semantic_recall(memory, ns, truth)
    if "peer_hybrid" in rows.searches:
        rows.info["peer_hybrid"].update(_peer_vector_recall(memory, truth))
    result: dict[str, Any] = {
        **configuration(memory),
        "load_avg_1m_start": load_start,
        "n": n,
        "queries": len(passes.plans),
        "repeats": repeats,
        "plans": passes.plans,
        "build_s": round(build_s, 2),
        **_percentiles(passes.totals),
        **recall,
        "stages": {k: round(statistics.median(v), 2) for k, v in sorted(passes.stages.items())},
        "stages_p95": {k: round(percentile(v, 95), 2) for k, v in sorted(passes.stages.items())},
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "past_embedded_warn_size": memory.store.name == "embedded"
        and n > memory.settings.store.embedded_warn_size,
    }
    result.update(row_results(result, rows.info, passes.rows))
    return result


def row_results(
    ours: dict[str, Any], info: dict[str, dict[str, Any]], totals: dict[str, list[float]]
) -> dict[str, Any]:
    """The rows timed beside graphmem's (:mod:`bench.perf.peers`): each key's info and
    percentiles, and graphmem's ratios to the peer (``ratio_p50`` / ``ratio_p95``) and to
    the floor (``ratio_to_floor_p50`` / ``ratio_to_floor_p95``) where they ran."""
    out: dict[str, Any] = {}
    for key, about in info.items():
        timed = totals.get(key)
        out[key] = {**about, "interleaved": True, **_percentiles(timed)} if timed else about
    for key, prefix in (("peer", "ratio"), ("floor", "ratio_to_floor")):
        if totals.get(key):
            out[f"{prefix}_p50"] = round(ours["p50_ms"] / out[key]["p50_ms"], 2)
            out[f"{prefix}_p95"] = round(ours["p95_ms"] / out[key]["p95_ms"], 2)
    return out


@dataclass
class _Passes:
    """What :func:`_timed_passes` measured: graphmem's totals (ms), each row's (JSON key →
    ms, :mod:`bench.perf.peers`), the stage timings and the plan of each query."""

    totals: list[float] = field(default_factory=list)
    rows: dict[str, list[float]] = field(default_factory=dict)
    stages: dict[str, list[float]] = field(default_factory=dict)
    plans: dict[str, str] = field(default_factory=dict)


def _timed_passes(
    memory: GraphMem,
    namespace: str,
    queries: Sequence[str],
    repeats: int,
    rows: Mapping[str, Callable[[str], object]],
) -> _Passes:
    """``repeats`` passes over ``queries``: each one recalled by graphmem, then searched
    by each row in turn, after one warm-up pass of all (the model, caches, plans)."""
    reference = datetime(2025, 1, 1, tzinfo=UTC)
    for q in queries:
        memory.recall(namespace, q, reference_time=reference, record_access=False)
        for search in rows.values():
            search(q)
    out = _Passes()
    for _ in range(repeats):
        for q in queries:
            started = time.perf_counter()
            result = memory.recall(namespace, q, reference_time=reference)
            out.totals.append((time.perf_counter() - started) * 1000)
            out.plans[q] = result.plan
            for stage, ms in result.timings_ms.items():
                out.stages.setdefault(stage, []).append(ms)
            for key, search in rows.items():
                started = time.perf_counter()
                search(q)
                out.rows.setdefault(key, []).append((time.perf_counter() - started) * 1000)
    return out


@dataclass(frozen=True)
class _Truth:
    """What recall@10 is scored against, read once per bench run: the namespace's
    searchable ids and unit vectors (:func:`~graphmem.store.recall_monitor.exact_searchable`)
    and the bench queries' embeddings, shape (queries, dim)."""

    exact: tuple[list[str], npt.NDArray[np.float64]]
    vectors: Vector

    @classmethod
    def of(cls, memory: GraphMem, namespace: str, queries: Sequence[str]) -> _Truth:
        from graphmem.store.recall_monitor import exact_searchable

        exact = exact_searchable(memory.store, namespace)
        return cls(exact, memory.embedder.embed(list(queries)))


def _semantic_recall(memory: GraphMem, namespace: str, truth: _Truth) -> dict[str, Any]:
    """Recall@10 of the store's vector search (the semantic stage) against exact cosine, so
    that speed is never bought with silent misses (SPEC §10): for the bench's own query
    embeddings, and for 100 stored embeddings as queries (what ``doctor --index-recall``
    measures)."""
    from graphmem.store.recall_monitor import index_recall

    search_k = memory.settings.read.fusion.candidate_k  # what the semantic retriever asks for
    on_queries = index_recall(
        memory.store, namespace, queries=truth.vectors, exact=truth.exact, search_k=search_k
    )
    sampled = index_recall(
        memory.store, namespace, sample=100, exact=truth.exact, search_k=search_k
    )
    return {
        "semantic_recall_at_10": on_queries.recall,
        "index_recall_at_10": sampled.recall,
        "index_recall_sample": sampled.queries,
        "vector_recall_alert": memory.settings.guards.vector_recall_alert,
    }


def _peer_vector_recall(memory: GraphMem, truth: _Truth) -> dict[str, Any]:
    """Recall@10 of the peer's vector half against the namespace's exact cosine top 10, on
    the bench's query embeddings: neo4j-graphrag's ``VectorRetriever`` with the
    ``HybridRetriever``'s defaults (top 10, ``effective_search_ratio`` 1: the index is asked
    for 10 neighbours). Its index has no namespace filter, so another namespace's memory in
    its top 10 counts as a miss, as it would be one for the namespace's user
    (``vector_other_namespaces``: the share of its top 10 from elsewhere). Beside
    graphmem's ``semantic_recall_at_10``, it says what each side's speed is bought with."""
    from neo4j_graphrag.retrievers import VectorRetriever
    from neo4j_graphrag.types import RetrieverResultItem

    from graphmem.store.neo4j import Neo4jStore
    from graphmem.store.recall_monitor import recall_at_k

    store = memory.store
    ids, unit = truth.exact
    if not isinstance(store, Neo4jStore) or not ids:
        return {}
    retriever = VectorRetriever(
        store.driver,
        "memory_embedding",
        return_properties=["id"],
        result_formatter=lambda record: RetrieverResultItem(content=str(record["node"]["id"])),
    )
    recalls: list[float] = []
    foreign: list[float] = []
    searchable = set(ids)
    for vector in truth.vectors:
        found = retriever.search(query_vector=vector.tolist(), top_k=10)
        returned = [str(item.content) for item in found.items]
        exact = unit @ np.asarray(vector, dtype=np.float64)
        recalls.append(recall_at_k(returned, exact, ids, 10))
        foreign.append(sum(r not in searchable for r in returned) / max(1, len(returned)))
    return {
        "vector_recall_at_10": round(float(np.mean(recalls)), 4),
        "vector_other_namespaces": round(float(np.mean(foreign)), 4),
    }


def bench_peer(memory: GraphMem, n: int, *, repeats: int = 5) -> dict[str, Any]:
    """neo4j-graphrag's ``HybridRetriever`` on the same Neo4j memories (docs/benchmarks.md
    "Speed and scale"),
    on its own (:func:`bench_latency` with ``peer=True`` times it interleaved with
    graphmem's recalls instead, the fair comparison on a machine whose load drifts).

    The peer embeds the query with the same embedder, then runs the
    ``memory_embedding`` vector index and the ``memory_content`` fulltext index
    (two lists, max-normalised and merged) for the same query set, top 10. It
    searches the whole index (it has no namespace filter; its unfielded Lucene query
    matches the index's ``content`` and ``search_text`` fields) and returns ``id`` and
    ``content``. Needs the ``peer`` extra (``pip install 'graphmem[peer]'``);
    returns ``{"skipped": reason}`` without it or on the embedded store.

    Returns
    -------
    dict
        ``p50_ms``, ``p95_ms``, ``p99_ms``, ``queries``, ``repeats``, ``version``.
    """
    search, info = _peer(memory)
    if search is None:
        return info
    queries = bench_queries(n)
    for q in queries:  # warm the server's plans, as for graphmem
        search(q)
    totals: list[float] = []
    for _ in range(repeats):
        for q in queries:
            started = time.perf_counter()
            search(q)
            totals.append((time.perf_counter() - started) * 1000)
    return {**info, "queries": len(queries), "repeats": repeats, **_percentiles(totals)}


def _percentiles(totals: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(totals, 50), 2),
        "p95_ms": round(percentile(totals, 95), 2),
        "p99_ms": round(percentile(totals, 99), 2),
    }


def _peer(memory: GraphMem) -> tuple[Callable[[str], object] | None, dict[str, Any]]:
    """The peer's search of one query text (top 10) and what it is, or None and why not."""
    if memory.store.name != "neo4j":
        return None, {"skipped": "the peer runs on Neo4j only"}
    from graphmem.store.neo4j import Neo4jStore

    store = memory.store
    if not isinstance(store, Neo4jStore):
        return None, {"skipped": "the peer runs on graphmem's Neo4jStore only"}
    try:
        from importlib.metadata import version

        from neo4j_graphrag.embeddings.base import Embedder as PeerEmbedder
        from neo4j_graphrag.retrievers import HybridRetriever
    except ImportError:
        return None, {"skipped": "neo4j-graphrag is not installed (pip install 'graphmem[peer]')"}
    ours = memory.embedder

    class _Embedder(PeerEmbedder):  # type: ignore[misc,unused-ignore]  # Any without the extra
        def embed_query(self, text: str) -> list[float]:
            vector: list[float] = ours.embed([text])[0].tolist()
            return vector

    retriever = HybridRetriever(
        store.driver,  # the store's own connection pool
        vector_index_name="memory_embedding",
        fulltext_index_name="memory_content",
        embedder=_Embedder(),
        return_properties=["id", "content"],
    )
    info = {
        "retriever": "neo4j_graphrag.retrievers.HybridRetriever",
        "version": version("neo4j-graphrag"),
    }
    return lambda text: retriever.search(query_text=text, top_k=10), info
