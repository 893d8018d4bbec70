"""The Neo4j the tests run against is real and is the one graphmem is written for.

These pin down the server facts graphmem relies on (version, vector and fulltext indexes, how
scores are computed, datetime typing), so a wrong server or a changed default shows up here
first rather than as a subtle retrieval bug.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from neo4j import Driver
from neo4j.time import DateTime

from tests.conftest import SUPPORTED_SERVERS

if TYPE_CHECKING:
    from tests.conftest import Neo4jServer

VECTOR_INDEX = "probe_embedding_idx"
FULLTEXT_INDEX = "probe_content_idx"


def _query(driver: Driver, server: Neo4jServer, cypher: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(cypher, params, database_=server.database)
    return [record.data() for record in records]


@pytest.fixture
def probe_indexes(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> Iterator[None]:
    """Drops this module's indexes before and after each test that asks for it."""

    def drop() -> None:
        for name in (VECTOR_INDEX, FULLTEXT_INDEX):
            _query(neo4j_driver, neo4j_server, f"DROP INDEX {name} IF EXISTS")

    drop()
    yield
    drop()


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def test_server_is_a_supported_neo4j_community(
    neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    rows = _query(
        neo4j_driver,
        neo4j_server,
        "CALL dbms.components() YIELD name, versions, edition "
        "WHERE name = 'Neo4j Kernel' RETURN versions[0] AS version, edition",
    )
    assert len(rows) == 1
    assert rows[0]["version"].startswith(SUPPORTED_SERVERS), rows[0]
    assert rows[0]["edition"] == "community", rows[0]
    # A working, empty user database: the fixture wiped it.
    assert _query(neo4j_driver, neo4j_server, "MATCH (n) RETURN count(n) AS n") == [{"n": 0}]


@pytest.mark.usefixtures("probe_indexes")
def test_vector_index_returns_nearest_node(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    _query(
        neo4j_driver,
        neo4j_server,
        f"CREATE VECTOR INDEX {VECTOR_INDEX} IF NOT EXISTS FOR (p:Probe) ON p.embedding "
        "OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
    )
    _query(neo4j_driver, neo4j_server, "CALL db.awaitIndex($name, 60)", name=VECTOR_INDEX)
    [index] = _query(
        neo4j_driver,
        neo4j_server,
        "SHOW VECTOR INDEXES YIELD name, state, options WHERE name = $name RETURN state, options",
        name=VECTOR_INDEX,
    )
    assert index["state"] == "ONLINE"
    config = index["options"]["indexConfig"]
    assert config["vector.dimensions"] == 3
    assert config["vector.similarity_function"] == "COSINE"

    vectors = {
        "x": [1.0, 0.0, 0.0],
        "y": [0.0, 1.0, 0.0],
        "z": [0.0, 0.0, 1.0],
        "xy": [0.7, 0.7, 0.0],
    }
    # Both ways of storing a vector: a plain float list, and the compact procedure.
    _query(
        neo4j_driver,
        neo4j_server,
        "UNWIND $rows AS row CREATE (:Probe {name: row.name, embedding: row.embedding})",
        rows=[{"name": n, "embedding": v} for n, v in vectors.items() if n != "xy"],
    )
    _query(
        neo4j_driver,
        neo4j_server,
        "CREATE (p:Probe {name: 'xy'}) "
        "WITH p CALL db.create.setNodeVectorProperty(p, 'embedding', $v)",
        v=vectors["xy"],
    )

    query = [0.9, 0.2, 0.1]
    rows = _query(
        neo4j_driver,
        neo4j_server,
        "CALL db.index.vector.queryNodes($index, 2, $q) YIELD node, score "
        "RETURN node.name AS name, score, vector.similarity.cosine(node.embedding, $q) AS exact",
        index=VECTOR_INDEX,
        q=query,
    )
    assert [r["name"] for r in rows] == ["x", "xy"]
    for row in rows:
        expected = (1 + _cosine(query, vectors[row["name"]])) / 2  # cosine score is (1 + cos) / 2
        assert row["exact"] == pytest.approx(expected, abs=1e-6)
        # The index score is close to, but not exactly, the exact one: on 5.26 vector indexes
        # are quantized by default (`vector.quantization.enabled`), so rank and re-score.
        assert row["score"] == pytest.approx(expected, abs=5e-3)


@pytest.mark.usefixtures("probe_indexes")
def test_fulltext_index_uses_bm25(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    _query(
        neo4j_driver,
        neo4j_server,
        f"CREATE FULLTEXT INDEX {FULLTEXT_INDEX} IF NOT EXISTS FOR (p:Probe) ON EACH [p.content]",
    )
    _query(neo4j_driver, neo4j_server, "CALL db.awaitIndex($name, 60)", name=FULLTEXT_INDEX)
    [index] = _query(
        neo4j_driver,
        neo4j_server,
        "SHOW FULLTEXT INDEXES YIELD name, state, options WHERE name = $name RETURN state, options",
        name=FULLTEXT_INDEX,
    )
    assert index["state"] == "ONLINE"
    assert index["options"]["indexConfig"] == {
        "fulltext.analyzer": "standard-no-stop-words",
        "fulltext.eventually_consistent": False,
    }

    docs = [
        "graph memory for agents",
        "graph graph database",
        "vector search engine",
        "knowledge graph",
    ]
    _query(neo4j_driver, neo4j_server, "UNWIND $docs AS c CREATE (:Probe {content: c})", docs=docs)
    rows = _query(
        neo4j_driver,
        neo4j_server,
        "CALL db.index.fulltext.queryNodes($index, 'graph') YIELD node, score "
        "RETURN node.content AS content, score",
        index=FULLTEXT_INDEX,
    )
    assert [r["content"] for r in rows] == [
        "graph graph database",
        "knowledge graph",
        "graph memory for agents",
    ]
    # The similarity is not shown in the index options; the scores identify it: Lucene's BM25
    # with k1 = 1.2, b = 0.75 (Lucene >= 8 form, without the (k1 + 1) factor).
    k1, b = 1.2, 0.75
    n_docs, n_hits = len(docs), 3
    avgdl = sum(len(d.split()) for d in docs) / n_docs
    idf = math.log(1 + (n_docs - n_hits + 0.5) / (n_hits + 0.5))
    for row in rows:
        tokens = row["content"].split()
        tf, dl = tokens.count("graph"), len(tokens)
        bm25 = idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))
        assert row["score"] == pytest.approx(bm25, rel=1e-5), row


def test_only_aware_datetimes_compare_with_stored_datetimes(
    neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    aware = datetime(2024, 5, 6, 7, 8, 9, tzinfo=UTC)
    naive = aware.replace(tzinfo=None)
    _query(
        neo4j_driver,
        neo4j_server,
        "CREATE (:Probe {name: 't', at: $aware, naive_at: $naive})",
        aware=aware,
        naive=naive,
    )
    [row] = _query(
        neo4j_driver,
        neo4j_server,
        "MATCH (p:Probe {name: 't'}) "
        "RETURN valueType(p.at) AS at_type, valueType(p.naive_at) AS naive_type, p.at AS at",
    )
    # An aware datetime is stored as a zoned DATETIME and round-trips unchanged ...
    assert row["at_type"] == "ZONED DATETIME NOT NULL"
    assert isinstance(row["at"], DateTime)
    assert row["at"].to_native() == aware
    # ... a naive one becomes a LOCAL DATETIME,
    assert row["naive_type"] == "LOCAL DATETIME NOT NULL"

    # ... which never compares with a zoned one: the filter silently matches nothing.
    def count_since(since: datetime) -> int:
        [r] = _query(
            neo4j_driver,
            neo4j_server,
            "MATCH (p:Probe) WHERE p.at >= $since RETURN count(p) AS n",
            since=since,
        )
        return int(r["n"])

    assert count_since(aware - timedelta(days=1)) == 1
    assert count_since(naive - timedelta(days=1)) == 0
