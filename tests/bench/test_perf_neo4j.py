"""Smoke of both performance benchmarks on a real Neo4j (docs/benchmarks.md "Speed and scale"):
they run and
report their documented keys; no timing is asserted (the full runs are in the README)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bench.perf.ingest import bench_ingest
from bench.perf.latency import bench_latency, bench_peer
from bench.perf.peers import bench_rows
from graphmem import GraphMem, Settings
from tests.bench.test_perf import LATENCY_KEYS, STAGES, _turns
from tests.conftest import SUPPORTED_SERVERS
from tests.fakes import HashEmbedder

if TYPE_CHECKING:
    from neo4j import Driver

    from tests.conftest import Neo4jServer

pytestmark = [
    pytest.mark.neo4j,
    pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning"),
]


@pytest.fixture
def memory(neo4j_server: Neo4jServer, neo4j_driver: Driver, tmp_path: Path) -> Iterator[GraphMem]:
    settings = Settings(
        neo4j_uri=neo4j_server.uri,
        neo4j_user=neo4j_server.user or "neo4j",
        neo4j_password=neo4j_server.password,
        neo4j_database=neo4j_server.database,
        neo4j_allow_no_auth=True,
        data_dir=tmp_path,
    )
    with GraphMem(settings, embedder=HashEmbedder(settings.embedding.embedding_dim)) as mem:
        yield mem


def test_latency_and_peer_smoke_on_neo4j(memory: GraphMem) -> None:
    namespace = "bench-latency-smoke"
    try:
        result = bench_latency(memory, 150, namespace=namespace, repeats=1)
    finally:
        memory.delete_namespace(namespace)
    assert set(result) >= LATENCY_KEYS and set(result["stages"]) >= STAGES
    assert result["store"] == "neo4j" and result["n"] == 150
    assert result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"]
    assert result["neo4j_version"].startswith(SUPPORTED_SERVERS)
    assert result["past_embedded_warn_size"] is False
    json.dumps(result)


def test_peer_timing_smoke_on_neo4j(memory: GraphMem) -> None:
    pytest.importorskip("neo4j_graphrag", reason="the peer extra is not installed")
    namespace = "bench-latency-150"
    try:
        result = bench_latency(memory, 150, repeats=2, peer=True)
        peer = bench_peer(memory, 150, repeats=1)
        rows = bench_rows(memory, namespace, peers=True)
        found = rows.searches["peer"]("Where does Ana live?")
        # Lucene's parser rejects the unescaped "/": counted, not raised
        rows.searches["peer_hybrid"]("Which music/bands does Ana like?")
    finally:
        memory.delete_namespace(namespace)
    assert peer["retriever"].endswith("HybridRetriever") and peer["p50_ms"] <= peer["p95_ms"]
    # every row interleaved with graphmem's recalls, and the ratios of the same run
    for key in ("peer", "peer_as_shipped", "peer_hybrid", "floor"):
        row = result[key]
        assert row["interleaved"] is True and row["retriever"], key
        assert row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"], key
    assert "VectorRetriever" in result["peer"]["retriever"]
    assert "in-index" in result["peer"]["retriever"]
    assert "HybridRetriever" in result["peer_hybrid"]["retriever"]
    assert result["ratio_p50"] == round(result["p50_ms"] / result["peer"]["p50_ms"], 2)
    assert result["ratio_p95"] == round(result["p95_ms"] / result["peer"]["p95_ms"], 2)
    assert result["ratio_to_floor_p50"] == round(result["p50_ms"] / result["floor"]["p50_ms"], 2)
    # the filtered peer answers from the namespace only: 10 of its 150 memories
    assert len(found.items) == 10
    assert rows.info["peer_hybrid"]["errors"] == 1
    # the hybrid peer's vector half, scored like graphmem's semantic stage (exact cosine)
    hybrid = result["peer_hybrid"]
    recall, foreign = hybrid["vector_recall_at_10"], hybrid["vector_other_namespaces"]
    assert 0.0 <= recall <= 1.0 and 0.0 <= foreign <= 1.0
    # a hit from another namespace is never one of the namespace's exact top 10
    assert recall <= 1.0 - foreign + 1e-4


def test_ingest_smoke_on_neo4j(memory: GraphMem) -> None:
    candidates = _turns(180)  # days repeat after 150: the last 30 restate earlier turns
    texts = [str(c["content"]) for c in candidates]
    result = bench_ingest(
        memory, (texts, candidates), namespace="bench-ingest-smoke", batch_size=32
    )
    assert result["store"] == "neo4j" and result["memories"] == 180
    assert result["merged"] > 0  # dedup ran on the server
    # the hash embedder encodes ~10^5 texts/s, so the ratio can round to 0.000 on a busy box
    assert result["ingest_per_s"] > 0 and result["ratio_to_encode"] >= 0
    assert memory.stats("bench-ingest-smoke")["memories"] == 0  # the bench cleans up
