"""The Neo4j store against a real Neo4j 5.26 server (marker ``neo4j``), and its packaging.

What the contract suite cannot see: the schema and its idempotence, that the queries run on
the indexes (profiled plans), the HNSW path and its exact fallback, retried and concurrent
writes, time zones, namespace isolation on a shared server, the open() checks, the Browser
queries, and that the wheel ships the Cypher files.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import zipfile
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from neo4j import Driver, GraphDatabase
from neo4j.exceptions import SessionExpired

from graphmem.errors import (
    AuthenticationError,
    ConfigurationError,
    InvalidInputError,
    StoreUnavailableError,
)
from graphmem.store import _cypher
from graphmem.store.base import AccessUpdate, WriteBatch
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j import _lookups as lookups
from graphmem.store.neo4j import store as neo4j_module
from graphmem.store.neo4j._params import REQUIRED_INDEXES
from tests.conftest import SUPPORTED_SERVERS
from tests.contract.builders import DIM, T0, make_entity, make_memory, make_relation, queries

if TYPE_CHECKING:
    from tests.conftest import Neo4jServer

REPO = Path(__file__).resolve().parents[2]
Calls = list[tuple[str, dict[str, Any]]]


# -- fixtures ---------------------------------------------------------------------------
def _store(server: Neo4jServer, **options: Any) -> Neo4jStore:
    return Neo4jStore(
        server.uri,
        user=server.user or "neo4j",
        password=server.password,
        database=server.database,
        dim=options.pop("dim", DIM),
        allow_no_auth=options.pop("allow_no_auth", True),
        **options,
    )


@pytest.fixture
def store(neo4j_server: Neo4jServer) -> Iterator[Neo4jStore]:
    opened = _store(neo4j_server)
    opened.open()
    yield opened
    opened.close()


@pytest.fixture
def driver(neo4j_server: Neo4jServer) -> Iterator[Driver]:
    with GraphDatabase.driver(neo4j_server.uri, auth=neo4j_server.auth) as plain:
        yield plain


@pytest.fixture
def namespaces(store: Neo4jStore) -> Iterator[Callable[[], str]]:
    made: list[str] = []

    def make() -> str:
        made.append(f"it-{len(made)}-{np.random.default_rng().integers(1 << 40):x}")
        return made[-1]

    yield make
    for namespace in made:
        store.delete_namespace(namespace)


@pytest.fixture
def ns(namespaces: Callable[[], str]) -> str:
    return namespaces()


def _query(driver: Driver, server: Neo4jServer, cypher: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(cypher, params, database_=server.database)
    return [record.data() for record in records]


def _spy(store: Neo4jStore, monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Record every (statement, params) the store runs through its seam."""
    calls: Calls = []
    original = store.executor.run

    def run(name: str, params: Mapping[str, Any], **options: Any) -> list[dict[str, Any]]:
        calls.append((name, dict(params)))
        return original(name, params, **options)

    monkeypatch.setattr(store.executor, "run", run)
    return calls


def _operators(plan: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """(operator, details, rows) of every operator of a profiled plan."""
    found = [
        (
            str(plan["operatorType"]).split("@")[0],
            str(plan.get("args", {}).get("Details", "")),
            int(plan.get("rows", 0)),
        )
    ]
    for child in plan.get("children", []):
        found.extend(_operators(child))
    return found


def _profile(driver: Driver, server: Neo4jServer, name: str, params: Mapping[str, Any]) -> Any:
    result = driver.execute_query(
        "PROFILE " + _cypher.load(name), dict(params), database_=server.database
    )
    assert result.summary.profile is not None
    return _operators(result.summary.profile)


def _counts(driver: Driver, server: Neo4jServer, namespace: str) -> dict[str, int]:
    [row] = _query(
        driver,
        server,
        "RETURN COUNT { MATCH (m:Memory {namespace: $ns}) } AS memories,"
        " COUNT { MATCH (:Memory {namespace: $ns})-[:MENTIONS]->() } AS mentions,"
        " COUNT { MATCH (:Memory {namespace: $ns})-[:OBSERVED_IN]->() } AS observed,"
        " COUNT { MATCH (e:Entity {namespace: $ns}) } AS entities,"
        " COUNT { MATCH ()-[:RELATES_TO {namespace: $ns}]->() } AS relations,"
        " COUNT { MATCH (t:Turn {namespace: $ns}) } AS turns,"
        " COUNT { MATCH (s:Session {namespace: $ns}) } AS sessions",
        ns=namespace,
    )
    return row


def _graph_batch(namespace: str) -> WriteBatch:
    alice, bob, paris = (make_entity(namespace, n) for n in ("Alice", "Bob", "Paris"))
    memory = make_memory(
        namespace,
        "Alice met Bob in Paris",
        sessions=("s1", "s2"),
        mentions=((alice.id, "subject"), (bob.id, "object"), (paris.id, "mention")),
    )
    other = make_memory(namespace, "Bob lives in Paris", mentions=((bob.id, "subject"),))
    return WriteBatch(
        memories=[memory, other],
        entities=[alice, bob, paris],
        relations=[
            make_relation(namespace, alice, "knows", bob, memory=memory),
            make_relation(namespace, bob, "lives_in", paris, memory=other),
        ],
    )


# -- schema ---------------------------------------------------------------------------
@pytest.mark.neo4j
def test_schema_is_applied_once_and_every_index_is_online(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = [n.partition("/")[2] for n in _cypher.names() if n.startswith("schema/")]
    recorded = _query(driver, neo4j_server, "MATCH (s:SchemaMigration) RETURN s.name AS name")
    assert sorted(r["name"] for r in recorded) == sorted(schema)
    states = store.index_states()
    for index in REQUIRED_INDEXES:
        assert states[index]["state"] == "ONLINE", (index, states[index])
    vector = states["memory_embedding"]["options"]["indexConfig"]
    assert vector["vector.dimensions"] == DIM
    assert vector["vector.similarity_function"] == "COSINE"

    again = _store(neo4j_server)
    calls = _spy(again, monkeypatch)
    again.open()
    again.close()
    assert not [name for name, _ in calls if name.startswith("schema/")]
    assert len(_query(driver, neo4j_server, "MATCH (s:SchemaMigration) RETURN s")) == len(schema)


@pytest.mark.neo4j
def test_schema_statements_run_again_change_nothing(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver
) -> None:
    def schema_now() -> list[dict[str, Any]]:
        return _query(
            driver,
            neo4j_server,
            "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options"
            " RETURN name, type, labelsOrTypes, properties, options ORDER BY name",
        )

    before = schema_now()
    for name in (n for n in _cypher.names() if n.startswith("schema/")):
        params = {"dimensions": DIM} if "dimensions" in neo4j_module.QUERY_PARAMS[name] else {}
        driver.execute_query(_cypher.load(name), params, database_=neo4j_server.database)
    assert schema_now() == before


@pytest.mark.neo4j
def test_a_vector_index_of_another_dimension_is_refused(
    store: Neo4jStore, neo4j_server: Neo4jServer
) -> None:
    other = _store(neo4j_server, dim=DIM // 2)
    with pytest.raises(ConfigurationError, match=f"{DIM} dimensions.*dim={DIM // 2}"):
        other.open()
    with pytest.raises(StoreUnavailableError, match="not open"):
        other.count_memories("x")


@pytest.mark.neo4j
def test_server_info_names_the_server(store: Neo4jStore, neo4j_server: Neo4jServer) -> None:
    info = store.server_info()
    assert (info.backend, info.location) == ("neo4j", neo4j_server.uri)
    assert info.version.startswith(SUPPORTED_SERVERS)
    assert info.details["agent"] == f"Neo4j/{info.version}"
    # the statements follow the server: in-index filtered vector search from 2026.06 on
    assert info.details["cypher"] == ("cypher25" if info.version.startswith("2026.") else "cypher5")
    assert info.details["database"] == neo4j_server.database
    assert info.edition in ("community", "enterprise")


# -- the queries run on the indexes -------------------------------------------------------
@pytest.mark.neo4j
def test_retrievers_run_on_their_indexes(
    neo4j_server: Neo4jServer, driver: Driver, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(neo4j_server, exact_search_max=0)  # force the HNSW path
    store.open()
    try:
        batch = _graph_batch(ns)
        more = [make_memory(ns, f"note number {i} about Paris") for i in range(20)]
        batch.memories.extend(more)
        store.write(ns, batch)
        calls = _spy(store, monkeypatch)
        memory = batch.memories[0]
        store.vector_search(ns, queries("Alice met Bob"), 3)
        store.text_search(ns, "Paris", 3)
        store.get_memories(ns, [memory.id])
        store.find_by_hashes(ns, [memory.content_hash])
        store.entity_search(ns, [batch.entities[0].id], 3)
        store.time_window_search(ns, T0 - timedelta(days=1), T0 + timedelta(days=1), 3)
        store.relation_subgraph(ns, [batch.entities[0].id], 3)
        store.memories_in_session(ns, "s2")
    finally:
        store.close()
    expected = {
        "read/vector_search": ("ProcedureCall", "db.index.vector.queryNodes"),
        "read/text_search": ("ProcedureCall", "db.index.fulltext.queryNodes"),
        "read/get_memories": ("NodeUniqueIndexSeek", "Memory(namespace, id)"),
        "read/find_by_hashes": ("NodeIndexSeek", "Memory(namespace, content_hash)"),
        "read/entity_search": ("NodeUniqueIndexSeek", "Entity(namespace, id)"),
        "read/time_window_search": ("NodeIndexSeek", "Memory(namespace, time_anchor)"),
        "read/relation_subgraph": ("VarLengthExpand", "RELATES_TO*0..2"),
        "read/memories_in_session": ("NodeUniqueIndexSeek", "Session(namespace, id)"),
    }
    seen = {name: params for name, params in calls}
    assert set(expected) <= set(seen)
    for name, (operator, detail) in expected.items():
        plan = _profile(driver, neo4j_server, name, seen[name])
        hits = [row for row in plan if row[0].startswith(operator) and detail in row[1]]
        assert hits, (name, plan)
        assert plan[0][2] > 0, (name, "the statement returned no rows", plan)
        assert not [row for row in plan if "Scan" in row[0]], (name, plan)


@pytest.mark.neo4j
def test_write_statements_seek_their_nodes(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver, ns: str
) -> None:
    batch = _graph_batch(ns)
    store.write(ns, batch)
    fillers = [make_memory(ns, f"filler {i}") for i in range(30)]
    store.write(ns, WriteBatch(memories=fillers))
    first, second = batch.memories
    # every write/ statement runs: `first` superseded ends its relations, `second`
    # deleted, and the entities pruned where nothing mentions them any more
    again = WriteBatch(
        memories=[first.model_copy(update={"superseded_by": fillers[0].id})],
        entities=batch.entities,
        relations=batch.relations[:1],
        deleted_memory_ids=[second.id],
        prune_entity_ids=[e.id for e in batch.entities],
    )
    access = [codec.access_row(AccessUpdate(first.id, T0, 0.2, 0.6, "s3"))]
    plans: dict[str, list[tuple[str, str, int]]] = {}

    class ProfilingTx:
        def __init__(self, tx: Any) -> None:
            self._tx = tx

        def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
            result = self._tx.run("PROFILE " + _cypher.load(name), dict(params))
            rows = [record.data() for record in result]
            profile = result.consume().profile
            assert profile is not None
            plans[name] = _operators(profile)
            return rows

    def work(tx: Any) -> None:
        profiling = ProfilingTx(tx)
        codec.apply_batch(profiling, ns, again, DIM)
        profiling.run("write/record_access", {"namespace": ns, "rows": access})

    with driver.session(database=neo4j_server.database) as session:
        session.execute_write(work)
    assert set(plans) == {n for n in _cypher.names() if n.startswith("write/")}
    for name, plan in plans.items():
        assert not [row for row in plan if "Scan" in row[0]], (name, plan)
        # 2026.x plans a MERGE on a uniqueness constraint as one MergeUniqueNode (a seek)
        assert [row for row in plan if "Seek" in row[0] or "MergeUniqueNode" in row[0]], (
            name,
            plan,
        )
    assert [m.id for m in store.get_memories(ns, [first.id, second.id])] == [first.id]


# -- vector search: HNSW path and exact fallback ---------------------------------------------
@pytest.mark.neo4j
def test_hnsw_path_agrees_with_the_exact_search(
    store: Neo4jStore, neo4j_server: Neo4jServer, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(300, DIM)).astype(np.float32)
    memories = [
        make_memory(ns, f"random memory {i}", embedding=tuple(float(x) for x in vectors[i]))
        for i in range(len(vectors))
    ]
    store.write(ns, WriteBatch(memories=memories))
    probes = (vectors[:5] + rng.normal(scale=0.3, size=(5, DIM))).astype(np.float32)
    exact = store.vector_search(ns, probes, 10)
    hnsw_store = _store(neo4j_server, exact_search_max=0)
    hnsw_store.open()
    try:
        calls = _spy(hnsw_store, monkeypatch)
        hnsw = hnsw_store.vector_search(ns, probes, 10)
    finally:
        hnsw_store.close()
    assert [name for name, _ in calls if name.startswith("read/vector")] == ["read/vector_search"]
    assert hnsw == exact
    assert exact[0][0].memory_id == memories[0].id


@pytest.mark.neo4j
def test_hnsw_falls_back_to_exact_when_the_namespace_filter_leaves_too_few(
    neo4j_server: Neo4jServer, namespaces: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    crowded, small = namespaces(), namespaces()
    rng = np.random.default_rng(11)
    centre = rng.normal(size=DIM).astype(np.float32)
    near = centre + rng.normal(scale=0.05, size=(400, DIM)).astype(np.float32)
    far = rng.normal(size=(5, DIM)).astype(np.float32)
    store = _store(neo4j_server, exact_search_max=0)
    store.open()
    try:
        store.write(
            crowded,
            WriteBatch(
                memories=[
                    make_memory(crowded, f"near {i}", embedding=tuple(map(float, v)))
                    for i, v in enumerate(near)
                ]
            ),
        )
        small_memories = [
            make_memory(small, f"far {i}", embedding=tuple(map(float, v)))
            for i, v in enumerate(far)
        ]
        store.write(small, WriteBatch(memories=small_memories))
        # Over-fetch is sized by the namespace's share of the index; pretend the index holds
        # only this namespace, so that the crowded one fills both HNSW attempts.
        counted = store.executor.run

        def run(name: str, params: Mapping[str, Any], **options: Any) -> list[dict[str, Any]]:
            if name == "read/count_all_memories":
                return [{"count": len(small_memories)}]
            return counted(name, params, **options)

        monkeypatch.setattr(store.executor, "run", run)
        calls = _spy(store, monkeypatch)
        [hits] = store.vector_search(small, centre[None, :], 5)
        filtered = store.server_info().details["cypher"] == "cypher25"
    finally:
        store.close()
    assert sorted(h.memory_id for h in hits) == sorted(m.id for m in small_memories)
    if filtered:  # 2026.x: the index filters in its walk, the crowded namespace costs nothing
        assert [n for n, _ in calls if n.startswith("read/vector")] == ["read/vector_search"]
        return
    assert [n for n, _ in calls if n.startswith("read/vector")] == [
        "read/vector_search",
        "read/vector_search",  # ten times as many neighbours
        "read/vector_search_exact",
    ]


# -- writes ----------------------------------------------------------------------------------
@pytest.mark.neo4j
def test_a_write_repeated_or_retried_leaves_no_duplicate(
    store: Neo4jStore,
    neo4j_server: Neo4jServer,
    driver: Driver,
    ns: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    batch = _graph_batch(ns)
    store.write(ns, batch)
    once = _counts(driver, neo4j_server, ns)
    assert once == {
        "memories": 2,
        "mentions": 4,
        "observed": 3,
        "entities": 3,
        "relations": 2,
        "turns": 2,
        "sessions": 2,
    }
    store.write(ns, batch)
    assert _counts(driver, neo4j_server, ns) == once

    # The driver re-runs a transaction function after a retryable failure: the work of the
    # failed attempt is rolled back, the retry's lands once.
    attempts: list[int] = []
    apply_batch = codec.apply_batch

    def flaky(tx: Any, namespace: str, batch: WriteBatch, dim: int) -> None:
        apply_batch(tx, namespace, batch, dim)
        attempts.append(1)
        if len(attempts) == 1:
            raise SessionExpired("simulated connection loss after the statements ran")

    monkeypatch.setattr(codec, "apply_batch", flaky)
    store.write(ns, _graph_batch(ns))
    assert len(attempts) == 2
    assert _counts(driver, neo4j_server, ns) == once


@pytest.mark.neo4j
def test_concurrent_writers_of_one_memory_make_one_node(
    neo4j_server: Neo4jServer, driver: Driver, ns: str
) -> None:
    batch = _graph_batch(ns)
    stores = [_store(neo4j_server) for _ in range(2)]
    for each in stores:
        each.open()
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def writer(i: int) -> None:
        try:
            start.wait()
            memory = batch.memories[0].model_copy(update={"access_count": i})
            stores[i % 2].write(ns, WriteBatch(memories=[memory], entities=batch.entities))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for each in stores:
        each.close()
    assert errors == []
    counts = _counts(driver, neo4j_server, ns)
    assert (counts["memories"], counts["entities"], counts["mentions"]) == (1, 3, 3)
    assert (counts["observed"], counts["turns"], counts["sessions"]) == (2, 2, 2)


@pytest.mark.neo4j
def test_deleting_memories_prunes_their_provenance(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver, ns: str
) -> None:
    batch = _graph_batch(ns)
    store.write(ns, batch)
    first, second = batch.memories
    store.write(ns, WriteBatch(deleted_memory_ids=[first.id]))
    counts = _counts(driver, neo4j_server, ns)
    # s2 was observed only by the deleted memory; s1 still holds the other one.
    assert (counts["sessions"], counts["turns"], counts["relations"]) == (1, 1, 1)
    assert [m.id for m in store.memories_in_session(ns, "s1")] == [second.id]
    assert store.memories_in_session(ns, "s2") == []


# -- time -------------------------------------------------------------------------------------
@pytest.mark.neo4j
def test_datetimes_round_trip_aware_in_any_zone(store: Neo4jStore, ns: str) -> None:
    new_york = datetime(2024, 3, 10, 1, 30, tzinfo=ZoneInfo("America/New_York"))
    kolkata = datetime(2024, 3, 9, 8, 0, 0, 123456, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    memory = make_memory(ns, "the launch happened", event_time=new_york, observed_at=kolkata)
    store.write(ns, WriteBatch(memories=[memory]))
    [back] = store.get_memories(ns, [memory.id], with_embeddings=True)
    assert back == memory.model_copy(update={"version": 1})  # the store counts its writes
    for value in (back.event_time, back.created_at, back.observations[0].observed_at):
        assert value is not None and value.utcoffset() is not None
    assert back.event_time is not None and back.event_time.utcoffset() == timedelta(hours=-5)
    # The window is given in UTC; the anchor was stored in New York time: same instant.
    at = new_york.astimezone(UTC)
    hits = store.time_window_search(ns, at, at + timedelta(microseconds=1), 5)
    assert [h.memory_id for h in hits] == [memory.id]
    assert (
        store.time_window_search(ns, at + timedelta(microseconds=1), at + timedelta(hours=1), 5)
        == []
    )
    with pytest.raises(InvalidInputError, match="end"):
        store.time_window_search(ns, at, at.replace(tzinfo=None), 5)


# -- namespaces --------------------------------------------------------------------------------
@pytest.mark.neo4j
def test_namespaces_are_isolated_on_a_shared_server(
    neo4j_server: Neo4jServer, namespaces: Callable[[], str]
) -> None:
    first, second = namespaces(), namespaces()
    store = _store(neo4j_server, exact_search_max=0)
    store.open()
    try:
        ids: dict[str, set[str]] = {}
        for namespace, word in ((first, "apples"), (second, "oranges")):
            batch = _graph_batch(namespace)
            # The same memory id in both namespaces, with different content.
            batch.memories[0] = batch.memories[0].model_copy(
                update={"id": "shared-id", "content": f"Alice likes {word}"}
            )
            store.write(namespace, batch)
            ids[namespace] = {m.id for m in batch.memories}
        alice = make_entity(first, "Alice").id  # entity ids are the same in both
        for namespace, word, other in ((first, "apples", "oranges"), (second, "oranges", "apples")):
            [memory] = store.get_memories(namespace, ["shared-id"])
            assert memory.content == f"Alice likes {word}"
            assert store.text_search(namespace, other, 5) == []
            assert [h.memory_id for h in store.text_search(namespace, word, 5)] == ["shared-id"]
            [hits] = store.vector_search(namespace, queries(f"Alice likes {word}"), 10)
            assert {h.memory_id for h in hits} == ids[namespace]
            assert hits[0].memory_id == "shared-id"
            assert len(store.entity_search(namespace, [alice], 10)) == 1
            assert len(store.relation_subgraph(namespace, [alice], 3)) == 2
            assert store.stats(namespace)["memories"] == 2
        assert store.delete_namespace(first) == 2
        assert store.stats(first)["memories"] == 0
        assert store.stats(second)["memories"] == 2
        assert first not in store.namespaces() and second in store.namespaces()
    finally:
        store.close()


# -- open() checks ------------------------------------------------------------------------------
@pytest.mark.neo4j
def test_a_server_without_authentication_is_refused_unless_allowed(
    neo4j_server: Neo4jServer,
) -> None:
    if neo4j_server.password is not None:  # authentication is on: wrong or no credentials
        wrong = Neo4jStore(neo4j_server.uri, password="not-the-password", dim=DIM)
        with pytest.raises(AuthenticationError, match="refused the credentials"):
            wrong.open()
        anonymous = Neo4jStore(neo4j_server.uri, password=None, dim=DIM, allow_no_auth=True)
        with pytest.raises(AuthenticationError, match="GRAPHMEM_NEO4J_PASSWORD"):
            anonymous.open()
        return
    for password in (None, "any-password-works-without-auth"):
        refused = Neo4jStore(neo4j_server.uri, password=password, dim=DIM)
        with pytest.raises(ConfigurationError, match="GRAPHMEM_NEO4J_ALLOW_NO_AUTH"):
            refused.open()
        refused.close()


def test_an_unreachable_server_says_how_to_start_one() -> None:
    store = Neo4jStore("bolt://127.0.0.1:9", dim=DIM, allow_no_auth=True)
    with pytest.raises(StoreUnavailableError, match="neo4j-local start"):
        store.open()
    store.close()


@pytest.mark.parametrize(
    "uri",
    ["http://127.0.0.1:7474", "127.0.0.1:7687", "bolt://:7687", "bolt://h:x", "bolt://h:99999"],
)
def test_a_malformed_uri_is_refused_without_connecting(uri: str) -> None:
    with pytest.raises(ConfigurationError, match="invalid Neo4j URI"):
        Neo4jStore(uri, dim=DIM, allow_no_auth=True)


# -- Neo4j Browser queries ---------------------------------------------------------------------
@pytest.mark.neo4j
def test_explore_queries_run_as_written(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver, ns: str
) -> None:
    batch = _graph_batch(ns)
    store.write(ns, batch)
    values = {
        "namespace": ns,
        "name": "alice",
        "memory_id": batch.memories[0].id,
        "session_id": "s1",
        "query": "Paris",
    }
    for name in (n for n in _cypher.names() if n.startswith("explore/")):
        statement = _cypher.load(name)
        declared = re.findall(r"^//\s+:param (\w+) => (.+)$", statement, flags=re.MULTILINE)
        params = {key: values[key] for key, _ in declared}
        rows = _query(driver, neo4j_server, statement, **params)
        assert rows, name


# -- packaging -----------------------------------------------------------------------------------
def test_the_wheel_ships_the_cypher_files(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    [wheel] = tmp_path.glob("graphmem-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {n for n in archive.namelist() if n.startswith("graphmem/_cypher/")}
        archive.extractall(tmp_path / "site")
    expected = {f"graphmem/_cypher/{name}.cypher" for name in _cypher.names()}
    expected |= {
        f"graphmem/_cypher/{dialect}/{name}.cypher"
        for dialect in _cypher.DIALECTS
        for name in _cypher.variants(dialect)
    }
    assert shipped == expected
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from graphmem.store import _cypher;"
        "print(_cypher.root()); print(_cypher.load('read/vector_search'))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "site")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    root, _, text = run.stdout.partition("\n")
    assert Path(root) == tmp_path / "site" / "graphmem" / "_cypher"
    assert "db.index.vector.queryNodes" in text


# -- one round trip for rank fields and sessions --------------------------------------------
@pytest.mark.neo4j
def test_rank_fields_bring_the_sessions_of_the_same_recall(
    store: Neo4jStore, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = make_memory(ns, "first note", sessions=("s1", "s2"))
    b = make_memory(ns, "second note", sessions=("s3",))
    store.write(ns, WriteBatch(memories=[a, b]))
    expected = store.memory_sessions(ns, [a.id, b.id])
    assert expected == {a.id: ("s1", "s2"), b.id: ("s3",)}
    calls = _spy(store, monkeypatch)
    store.rank_fields(ns, [a.id, b.id, "missing"])
    assert store.memory_sessions(ns, [b.id, a.id]) == expected  # no query of its own
    assert [name for name, _ in calls] == ["read/rank_fields"]
    # answered once; another namespace, other ids or a write in between read afresh
    assert store.memory_sessions(ns, [a.id]) == {a.id: ("s1", "s2")}
    store.rank_fields(ns, [a.id])
    assert store.memory_sessions(ns, [a.id, b.id]) == expected
    store.rank_fields(ns, [a.id, b.id])
    store.write(ns, WriteBatch(memories=[make_memory(ns, "first note", sessions=("s4",))]))
    # an upsert replaces the observations: the stale ("s1", "s2") must not come back
    assert store.memory_sessions(ns, [a.id, b.id])[a.id] == ("s4",)
    assert [name for name, _ in calls].count("read/memory_sessions") == 3


@pytest.mark.neo4j
def test_rank_fields_bring_the_memories_a_recall_hydrates_next(
    store: Neo4jStore, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    memories = [make_memory(ns, f"note {i}", sessions=(f"s{i}",)) for i in range(3)]
    store.write(ns, WriteBatch(memories=memories))
    ids = [m.id for m in memories]
    expected = store.get_memories(ns, ids)  # read on its own
    monkeypatch.setattr(lookups, "HYDRATE_AHEAD", 2)
    calls = _spy(store, monkeypatch)
    store.rank_fields(ns, [ids[2], ids[0], ids[1]])  # the first two come whole
    assert store.get_memories(ns, [ids[0], ids[2]]) == [expected[0], expected[2]]
    assert [name for name, _ in calls] == ["read/rank_fields"]
    # answered once: the next call reads afresh; one past the first two is read
    store.rank_fields(ns, [ids[2], ids[0], ids[1]])
    assert store.get_memories(ns, ids) == expected
    assert [name for name, _ in calls][-1] == "read/get_memories"
    assert calls[-1][1]["ids"] == [ids[1]]
    # with embeddings too (newer over older reads them): the same as a read of its own
    own = store.get_memories(ns, ids, with_embeddings=True)
    assert own[0].embedding is not None
    store.rank_fields(ns, [ids[2], ids[0], ids[1]])
    before = len(calls)
    assert store.get_memories(ns, [ids[0], ids[2]], with_embeddings=True) == [own[0], own[2]]
    assert len(calls) == before  # no query of its own
    # after a write, everything is read afresh
    store.rank_fields(ns, ids)
    changed = memories[0].model_copy(update={"content": "note 0, changed"})
    store.write(ns, WriteBatch(memories=[changed]))
    assert store.get_memories(ns, ids[:1])[0].content == "note 0, changed"


@pytest.mark.neo4j
def test_text_search_asks_again_only_when_lucene_had_more(
    store: Neo4jStore, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.write(ns, WriteBatch(memories=[make_memory(ns, f"lonely word {i}") for i in range(3)]))
    calls = _spy(store, monkeypatch)
    assert len(store.text_search(ns, "lonely", 5)) == 3  # fewer than k, and all of them
    assert [name for name, _ in calls if name == "read/text_search"] == ["read/text_search"]
    # the counts behind the namespace's own IDF were read first, and are cached now
    assert [name for name, _ in calls][-1] == "read/text_search"
    assert "read/bm25_term_df" in [name for name, _ in calls]
    del calls[:]
    assert len(store.text_search(ns, "lonely", 5)) == 3
    assert [name for name, _ in calls] == ["read/text_search"]


@pytest.mark.neo4j
def test_a_database_from_before_contextual_keys_is_backfilled(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver, ns: str
) -> None:
    # issue 15: memories written before the search_text property and its index exist
    # are searched by their content once the schema step that adds them has run
    old = make_memory(ns, "the lighthouse keeper paints gulls")
    store.write(ns, WriteBatch(memories=[old]))
    _query(driver, neo4j_server, "MATCH (m:Memory {namespace: $ns}) REMOVE m.search_text", ns=ns)
    _old_fulltext_index(driver, neo4j_server, search_text=False)
    again = _store(neo4j_server)
    again.open()
    try:
        assert [h.memory_id for h in again.text_search(ns, "gulls", 5)] == [old.id]
    finally:
        again.close()


@pytest.mark.neo4j
def test_the_two_fulltext_indexes_of_older_databases_become_one(
    store: Neo4jStore, neo4j_server: Neo4jServer, driver: Driver, ns: str
) -> None:
    # before issue 13 every write went to two fulltext indexes: memory_content (content, for
    # the peer and Browser) and memory_search_text (the BM25 retriever's key)
    keyed = make_memory(ns, "Nia moved", key="[7 May 2023] we packed the van to Bergen")
    store.write(ns, WriteBatch(memories=[keyed]))
    _old_fulltext_index(driver, neo4j_server, search_text=True)
    assert {"memory_content", "memory_search_text"} <= set(store.index_states())
    again = _store(neo4j_server)
    again.open()
    try:
        states = again.index_states()
        assert "memory_search_text" not in states
        assert states["memory_content"]["properties"] == ["content", "search_text", "ns_key"]
        assert [h.memory_id for h in again.text_search(ns, "van Bergen", 5)] == [keyed.id]
        assert again.text_search(ns, "moved", 5) == []  # the key is searched, not the content
        content = _query(
            driver,
            neo4j_server,
            "CALL db.index.fulltext.queryNodes('memory_content', 'content:moved') YIELD node"
            " WHERE node.namespace = $ns RETURN node.id AS id",
            ns=ns,
        )
        assert [row["id"] for row in content] == [keyed.id]  # the peer's and Browser's field
    finally:
        again.close()


def _old_fulltext_index(driver: Driver, neo4j_server: Neo4jServer, *, search_text: bool) -> None:
    """The fulltext indexes as a database from before issue 13 had them: memory_content on
    content alone, and memory_search_text when ``search_text`` (after issue 15)."""
    _query(driver, neo4j_server, "DROP INDEX memory_content IF EXISTS")
    _query(
        driver,
        neo4j_server,
        "CREATE FULLTEXT INDEX memory_content FOR (m:Memory) ON EACH [m.content, m.ns_key]",
    )
    if search_text:
        _query(
            driver,
            neo4j_server,
            "CREATE FULLTEXT INDEX memory_search_text FOR (m:Memory)"
            " ON EACH [m.search_text, m.ns_key]",
        )
    _query(driver, neo4j_server, "CALL db.awaitIndexes(300)")
