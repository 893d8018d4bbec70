"""The bench's peer row on a real Neo4j: neo4j-graphrag's HybridRetriever over graphmem's
indexes, kept to the question's conversation (see :mod:`bench.locomo.peer`).

Skipped when neo4j-graphrag (the ``peer`` extra) is not installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bench.locomo import Conversation, import_conversation, load_locomo, run_bench
from bench.locomo.peer import HybridPeer, open_peer
from graphmem import GraphMem, Settings
from tests.bench.test_locomo_ablation import _sample
from tests.fakes import HashEmbedder

if TYPE_CHECKING:
    from neo4j import Driver

    from tests.conftest import Neo4jServer

pytest.importorskip("neo4j_graphrag", reason="the peer extra is not installed")

pytestmark = [
    # neo4j-graphrag 1.x warns on every hybrid search that its result's "id" field will go
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
    with GraphMem(settings, embedder=HashEmbedder()) as mem:
        yield mem


def _conversations(tmp_path: Path) -> list[Conversation]:
    """The invented conversation twice, under two sample ids: same texts, two namespaces."""
    twin = dict(_sample(), sample_id="abl-twin")
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([_sample(), twin]), encoding="utf-8")
    return load_locomo(path)


def test_the_peer_answers_from_the_question_s_namespace_only(
    memory: GraphMem, tmp_path: Path
) -> None:
    first, twin = _conversations(tmp_path)
    import_conversation(memory, twin, "turns")  # identical memories in another namespace
    peer = open_peer(memory)
    assert isinstance(peer, HybridPeer)
    report = run_bench(memory, [first], "turns", retrievers=(), peer=peer)
    row: dict[str, Any] = report["peer"]
    assert row["questions"] == 7 and row["R@10"] is not None and row["R@10"] > 0.0
    assert row["system"].startswith("neo4j_graphrag.retrievers.HybridRetriever")
    (namespace,) = report["namespaces"]
    ids = peer.search(
        namespace, "Lena sister Berlin", memory.embedder.embed(["Lena sister Berlin"])[0], 10
    )
    found = memory.store.get_memories(namespace, ids)
    assert len(ids) == 10 and len(found) == 10  # every id is a memory of this namespace
    assert any("Lena" in m.content for m in found[:3])


def test_the_bench_command_prints_the_peer_row(
    neo4j_server: Neo4jServer,
    neo4j_driver: Driver,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from bench.cli import locomo_cmds

    monkeypatch.setattr(locomo_cmds, "make_embedder", lambda *a, **k: HashEmbedder())
    for key, value in {
        "GRAPHMEM_NEO4J_URI": neo4j_server.uri,
        "GRAPHMEM_NEO4J_USER": neo4j_server.user or "neo4j",
        "GRAPHMEM_NEO4J_DATABASE": neo4j_server.database,
        "GRAPHMEM_NEO4J_ALLOW_NO_AUTH": "1",
    }.items():
        monkeypatch.setenv(key, value)
    if neo4j_server.password is not None:
        monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", neo4j_server.password)
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([_sample()]), encoding="utf-8")
    from bench.cli.app import app

    out = tmp_path / "bench.json"
    args = ["locomo", str(path), "--corpus", "turns", "--store", "neo4j"]
    result = CliRunner().invoke(app, [*args, "--ablation", "--json-out", str(out)])
    assert result.exit_code == 0, result.output
    assert "peer: neo4j-graphrag HybridRetriever" in result.output
    report = json.loads(out.read_text())
    assert report["store"] == "neo4j" and report["replay_mismatches"] == 0
    assert report["peer"]["questions"] == 7 and "planner off" in report["ablation"]
