"""Faults between graphmem and Neo4j during a bulk ingest (issue 6 §5 "faults").

The driver talks to the server through :class:`tests.reliability._proxy.FaultyProxy`,
which cuts connections at exact protocol points:

- mid-transaction: when the write transaction sends its ``add_observations``
  statement (memories and mentions already upserted, nothing committed), the
  connection is reset; the server rolls the transaction back;
- lost COMMIT reply: the COMMIT of a write reaches the server, the answer never
  reaches the client (it cannot tell whether the write landed);
- outage: the server vanishes mid-transaction and refuses connections until it
  is "restarted".

Why a proxy and not a killed server: ``tools/neo4j-local`` runs Neo4j's test
harness, which starts a fresh empty database on every start, so data cannot be
inspected after a real restart; and the proxy injects the fault at a known
statement instead of at a random moment, without a second JVM. To the client a
reset connection is exactly what a SIGKILLed server looks like.

Every test compares the namespace, field by field, with a clean run of the same
ingest written directly to the server (``reference``).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import neo4j
import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import GraphMemError, StoreUnavailableError, TransactionTimeoutError
from graphmem.store.base import AccessUpdate
from graphmem.store.neo4j import Neo4jStore
from tests.conftest import Neo4jServer
from tests.fakes import HashEmbedder
from tests.reliability._checks import ingest_batches, sessions_of, snapshot
from tests.reliability._proxy import BOLT_COMMIT, FaultyProxy
from tests.reliability.conftest import FixedClock, add_figure

pytestmark = pytest.mark.neo4j

BATCHES = ingest_batches(5)
SESSIONS = sessions_of(BATCHES)
#: The text of ``cypher/write/add_observations.cypher`` that no other statement has:
#: sent inside every write transaction after the memories and mentions are upserted.
MID_WRITE = b"ON CREATE SET o.observed_at"
OUTAGE_RETRY_S = 2.0  # the driver's retry budget in the outage test (default 30 s)


def _store(server: Neo4jServer, uri: str | None = None) -> Neo4jStore:
    return Neo4jStore(
        uri or server.uri,
        user=server.user or "neo4j",
        password=server.password,
        database=server.database,
        dim=384,
        allow_no_auth=True,
    )


def _facade(store: Neo4jStore) -> GraphMem:
    return GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=FixedClock())


def _ingest(gm: GraphMem, ns: str, batches: list[list[dict[str, Any]]]) -> None:
    for batch in batches:
        gm.remember(ns, batch)


@pytest.fixture(scope="module")
def reference(neo4j_server: Neo4jServer) -> Iterator[list[dict[str, Any]]]:
    """Snapshots of a clean ingest: ``reference[b]`` after the first ``b`` batches."""
    ns = f"reliab-ref-{uuid.uuid4().hex[:10]}"
    gm = _facade(_store(neo4j_server))
    try:
        snaps = [snapshot(gm.open().store, ns, SESSIONS)]
        for batch in BATCHES:
            gm.remember(ns, batch)
            snaps.append(snapshot(gm.store, ns, SESSIONS))
        yield snaps
    finally:
        gm.delete_namespace(ns)
        gm.close()


@pytest.fixture
def direct(neo4j_server: Neo4jServer) -> Iterator[Neo4jStore]:
    """A store straight to the server (no proxy), to inspect what landed."""
    with _store(neo4j_server) as store:
        yield store


@pytest.fixture
def fault_ns(direct: Neo4jStore) -> Iterator[str]:
    ns = f"reliab-fault-{uuid.uuid4().hex[:10]}"
    yield ns
    direct.delete_namespace(ns)


@pytest.fixture
def proxy(neo4j_server: Neo4jServer) -> Iterator[FaultyProxy]:
    parts = urlsplit(neo4j_server.uri)
    with FaultyProxy((parts.hostname or "127.0.0.1", parts.port or 7687)) as p:
        yield p


@pytest.fixture
def proxied(neo4j_server: Neo4jServer, proxy: FaultyProxy) -> Iterator[GraphMem]:
    """A facade whose store reaches the server through the proxy."""
    gm = _facade(_store(neo4j_server, proxy.uri))
    try:
        yield gm.open()
    finally:
        gm.close()


@pytest.fixture
def short_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drivers made during the test give up retrying after OUTAGE_RETRY_S (the
    default, 30 s, is right for production but too long for CI)."""
    original: Callable[..., neo4j.Driver] = neo4j.GraphDatabase.driver

    def driver(uri: str, **config: Any) -> neo4j.Driver:
        config.setdefault("max_transaction_retry_time", OUTAGE_RETRY_S)
        return original(uri, **config)

    monkeypatch.setattr(neo4j.GraphDatabase, "driver", driver)


def check_graph(server: Neo4jServer, ns: str) -> None:
    """No half-written memory in the graph itself: every Memory node has its required
    properties and embedding; its OBSERVED_IN links are exactly the (session, turn)
    pairs of its observations; no entity is a stub; no turn or session is orphaned."""
    with server.driver() as driver:
        records, _, _ = driver.execute_query(
            """
            MATCH (m:Memory {namespace: $ns})
            OPTIONAL MATCH (m)-[:OBSERVED_IN]->(t:Turn)
            WITH m, collect(t.session_id + '|' + t.id) AS turns
            RETURN m.id AS id, m.observations_json AS observations, turns,
                   [k IN ['type', 'content', 'content_hash', 'n', 'confidence', 'created_at',
                          'last_observed_at', 'time_anchor', 'ns_key', 'embedding']
                    WHERE m[k] IS NULL] AS missing,
                   COUNT { (m)-[:MENTIONS]->() } AS mentions
            """,
            ns=ns,
            database_=server.database,
        )
        orphans, _, _ = driver.execute_query(
            """
            RETURN COUNT { MATCH (e:Entity {namespace: $ns}) WHERE e.name IS NULL } AS stubs,
                   COUNT { MATCH (t:Turn {namespace: $ns})
                           WHERE NOT EXISTS { (t)<-[:OBSERVED_IN]-(:Memory) } } AS turns,
                   COUNT { MATCH (s:Session {namespace: $ns})
                           WHERE NOT EXISTS { (s)<-[:IN_SESSION]-(:Turn) } } AS sessions
            """,
            ns=ns,
            database_=server.database,
        )

    for record in records:
        assert record["missing"] == [], (record["id"], record["missing"])
        pairs = {
            f"{o['session_id']}|{o['turn_id'] or ''}" for o in json.loads(record["observations"])
        }
        assert set(record["turns"]) == pairs, record["id"]
        assert record["mentions"] >= 1, record["id"]  # every ingest fact names a person
    assert dict(orphans[0]) == {"stubs": 0, "turns": 0, "sessions": 0}


def test_dropped_connection_mid_write_is_retried_and_lands_once(
    proxied: GraphMem,
    proxy: FaultyProxy,
    direct: Neo4jStore,
    fault_ns: str,
    neo4j_server: Neo4jServer,
    reference: list[dict[str, Any]],
) -> None:
    """Each batch's write transaction loses its connection once, mid-transaction;
    the driver retries the transaction function and every batch lands exactly once."""
    for b, batch in enumerate(BATCHES):
        proxy.arm(MID_WRITE)
        proxied.remember(fault_ns, batch)
        assert proxy.fired.is_set(), f"batch {b}: the fault did not fire"
        assert snapshot(direct, fault_ns, SESSIONS) == reference[b + 1]
    assert proxy.faults == len(BATCHES)
    check_graph(neo4j_server, fault_ns)
    add_figure("faults.neo4j.mid_transaction_drops_retried", proxy.faults)


def test_lost_commit_reply_fails_clearly_and_rerun_is_exact(
    proxied: GraphMem,
    proxy: FaultyProxy,
    direct: Neo4jStore,
    fault_ns: str,
    neo4j_server: Neo4jServer,
    reference: list[dict[str, Any]],
) -> None:
    """The COMMIT of batch 2 reaches the server but its reply is lost: the driver
    cannot know whether it landed and does not retry; remember() raises
    StoreUnavailableError. The batch did land, whole; re-running the whole ingest
    changes nothing (remember is idempotent) and matches a clean run."""
    failing = 2
    _ingest(proxied, fault_ns, BATCHES[:failing])
    proxy.arm(MID_WRITE, then=BOLT_COMMIT, after_reply=True)
    with pytest.raises(StoreUnavailableError, match="cannot reach Neo4j"):
        proxied.remember(fault_ns, BATCHES[failing])
    assert proxy.faults == 1
    assert snapshot(direct, fault_ns, SESSIONS) == reference[failing + 1]
    check_graph(neo4j_server, fault_ns)
    _ingest(proxied, fault_ns, BATCHES)  # the caller re-runs the whole ingest
    assert snapshot(direct, fault_ns, SESSIONS) == reference[len(BATCHES)]
    check_graph(neo4j_server, fault_ns)
    add_figure("faults.neo4j.lost_commit_replies_survived", proxy.faults)


def test_outage_mid_bulk_ingest_fails_cleanly_and_rerun_is_exact(
    short_retries: None,
    neo4j_server: Neo4jServer,
    proxy: FaultyProxy,
    direct: Neo4jStore,
    fault_ns: str,
    reference: list[dict[str, Any]],
) -> None:
    """The server goes away in the middle of batch 3's write transaction and stays
    away: the ingest stops with StoreUnavailableError naming the write, nothing of
    batch 3 is in the store, batches 0-2 are whole; reads fail clearly too. After
    the "restart" the same ingest, re-run from the start, gives the clean result."""
    gm = _facade(_store(neo4j_server, proxy.uri)).open()
    failing = 3
    outcome: dict[str, Any] = {}

    def bulk_ingest() -> None:
        for b, batch in enumerate(BATCHES):
            try:
                gm.remember(fault_ns, batch)
            except BaseException as exc:  # examined by the test
                outcome.update(batch=b, error=exc)
                return
        outcome["batch"] = None

    try:
        proxy.arm(MID_WRITE, nth=failing + 1, outage=True)
        ingest = threading.Thread(target=bulk_ingest, name="bulk-ingest")
        started = time.monotonic()
        ingest.start()
        ingest.join(timeout=120)
        assert not ingest.is_alive(), "remember() hung while the server was down"
        took = time.monotonic() - started
        error = outcome.get("error")
        assert outcome["batch"] == failing, outcome
        assert isinstance(error, StoreUnavailableError), repr(error)
        assert "cannot reach Neo4j" in str(error) and "write" in str(error), str(error)
        assert proxy.refused >= 1  # the driver did retry against the dead server

        # nothing of the failed batch, the earlier ones whole (checked around the proxy)
        assert snapshot(direct, fault_ns, SESSIONS) == reference[failing]
        check_graph(neo4j_server, fault_ns)
        with pytest.raises(StoreUnavailableError):
            gm.recall(fault_ns, "what does Alice Moreau know?")
        with pytest.raises(GraphMemError):
            gm.stats(fault_ns)

        proxy.restore()  # the server is back
        _ingest(gm, fault_ns, BATCHES)
        assert snapshot(direct, fault_ns, SESSIONS) == reference[len(BATCHES)]
        check_graph(neo4j_server, fault_ns)
    finally:
        proxy.restore()
        gm.close()
    add_figure("faults.neo4j.outages_mid_ingest_survived", 1)
    add_figure("faults.neo4j.outage_reconnects_refused", proxy.refused)
    print(f"outage: remember() failed {took:.1f} s after the ingest started")


def test_a_transaction_past_its_time_limit_fails_clearly(
    neo4j_server: Neo4jServer, direct: Neo4jStore, fault_ns: str
) -> None:
    """``neo4j_transaction_timeout_s`` bounds every transaction: a write that waits for
    a lock another transaction holds is rolled back at the limit with a
    TransactionTimeoutError naming the setting, writes nothing, and works once the
    lock is released."""
    limit_s = 1.0
    store = Neo4jStore(
        neo4j_server.uri,
        user=neo4j_server.user or "neo4j",
        password=neo4j_server.password,
        database=neo4j_server.database,
        dim=384,
        allow_no_auth=True,
        transaction_timeout_s=limit_s,
    )
    gm = _facade(store).open()
    try:
        first = gm.remember(fault_ns, BATCHES[0][:1])
        memory_id = first.memory_ids[0]
        assert memory_id is not None
        with neo4j_server.driver() as driver, driver.session(database=neo4j_server.database) as s:
            holder = s.begin_transaction()  # another client holds the memory's write lock
            holder.run(
                "MATCH (m:Memory {namespace: $ns, id: $id}) SET m.access_count = m.access_count",
                ns=fault_ns,
                id=memory_id,
            ).consume()
            try:
                for call in (
                    lambda: store.record_access(
                        fault_ns, [AccessUpdate(memory_id, FixedClock().now, 0.1, 0.55)]
                    ),
                    lambda: gm.remember(fault_ns, [{**BATCHES[0][0], "session_id": "later"}]),
                ):
                    started = time.monotonic()
                    with pytest.raises(TransactionTimeoutError, match="time limit of 1 s") as err:
                        call()
                    waited = time.monotonic() - started
                    assert "GRAPHMEM_NEO4J_TRANSACTION_TIMEOUT_S" in str(err.value)
                    assert limit_s <= waited < limit_s + 5.0, waited  # not retried for long
                    add_figure("faults.neo4j.transaction_timeouts_raised", 1)
            finally:
                holder.rollback()
        [after] = direct.get_memories(fault_ns, [memory_id])
        assert (after.access_count, after.session_ids) == (0, (BATCHES[0][0]["session_id"],))
        store.record_access(fault_ns, [AccessUpdate(memory_id, FixedClock().now, 0.1, 0.55)])
        assert direct.get_memories(fault_ns, [memory_id])[0].access_count == 1
    finally:
        gm.close()
