"""Faults in the middle of a forget (SPEC §9.16: a forget is one transaction — all of
it, or nothing): a process SIGKILLed inside an embedded store's forget transaction,
and a Neo4j forget whose connection is cut mid-transaction (once: the driver retries
the whole transaction; for good: the forget fails and nothing was deleted).

After a failed forget the namespace is exactly what it was (every memory field by
field, entities, counts) and the deletion log holds nothing; the forget run again
then removes everything about the entity, once.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import neo4j
import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import StoreUnavailableError
from graphmem.store.base import MemoryStore
from graphmem.store.embedded import EmbeddedStore
from graphmem.store.neo4j import Neo4jStore
from tests.conftest import Neo4jServer
from tests.fakes import HashEmbedder
from tests.reliability._checks import PEOPLE, ingest_batches, sessions_of, snapshot
from tests.reliability._proxy import FaultyProxy
from tests.reliability.conftest import FixedClock, add_figure

BATCHES = ingest_batches(4)
SESSIONS = sessions_of(BATCHES)
TARGET = PEOPLE[0]  # "Alice Moreau": facts 0, 4, 8 … and the relations touching her
#: The text of ``cypher/write/delete_memories.cypher`` no other statement has: sent
#: inside a forget's transaction after its relations are deleted.
MID_FORGET = b"UNWIND sessions AS session_id"
OUTAGE_RETRY_S = 2.0


def _facade(store: MemoryStore) -> GraphMem:
    return GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=FixedClock())


def _fill(gm: GraphMem, ns: str) -> dict[str, Any]:
    for batch in BATCHES:
        gm.remember(ns, batch)
    return snapshot(gm.store, ns, SESSIONS)


def _forgotten_whole(gm: GraphMem, ns: str) -> None:
    """The entity and every memory naming it as subject are gone; the log has one entry."""
    left = snapshot(gm.store, ns, SESSIONS)
    assert not [m for m in left["memories"].values() if m["content"].startswith(TARGET)]
    assert TARGET not in {e["name"] for e in left["entities"]}
    assert [e.kind for e in gm.deletion_log(ns)] == ["entity"]


def test_a_forget_killed_mid_transaction_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    path, ns = tmp_path / "store", "crash-forget"
    settings = Settings()

    def store() -> EmbeddedStore:
        return EmbeddedStore(
            path, dim=384, bm25_k1=settings.read.fusion.bm25_k1, bm25_b=settings.read.fusion.bm25_b
        )

    with _facade(store()) as gm:
        before = _fill(gm, ns)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability._crash_forgetter", str(path), ns, TARGET],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "mid-forget"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    conn = sqlite3.connect(path / "graphmem.sqlite")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
    with _facade(store()) as gm:
        assert snapshot(gm.store, ns, SESSIONS) == before
        assert gm.deletion_log(ns) == []
        report = gm.forget_entity(ns, TARGET)
        assert report.memories > 0
        _forgotten_whole(gm, ns)
    add_figure("faults.embedded.forgets_killed_mid_transaction", 1)


# -- Neo4j ------------------------------------------------------------------------------
def _neo4j(server: Neo4jServer, uri: str | None = None) -> Neo4jStore:
    return Neo4jStore(
        uri or server.uri,
        user=server.user or "neo4j",
        password=server.password,
        database=server.database,
        dim=384,
        allow_no_auth=True,
    )


@pytest.fixture
def direct(neo4j_server: Neo4jServer) -> Iterator[GraphMem]:
    """A facade straight to the server (no proxy), to write and inspect."""
    gm = _facade(_neo4j(neo4j_server)).open()
    try:
        yield gm
    finally:
        gm.close()


@pytest.fixture
def filled(direct: GraphMem) -> Iterator[tuple[str, dict[str, Any]]]:
    ns = f"reliab-forget-{uuid.uuid4().hex[:10]}"
    try:
        yield ns, _fill(direct, ns)
    finally:
        direct.delete_namespace(ns)


@pytest.fixture
def proxy(neo4j_server: Neo4jServer) -> Iterator[FaultyProxy]:
    parts = urlsplit(neo4j_server.uri)
    with FaultyProxy((parts.hostname or "127.0.0.1", parts.port or 7687)) as p:
        yield p


@pytest.fixture
def short_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drivers made during the test stop retrying after OUTAGE_RETRY_S."""
    original: Callable[..., neo4j.Driver] = neo4j.GraphDatabase.driver

    def driver(uri: str, **config: Any) -> neo4j.Driver:
        config.setdefault("max_transaction_retry_time", OUTAGE_RETRY_S)
        return original(uri, **config)

    monkeypatch.setattr(neo4j.GraphDatabase, "driver", driver)


@pytest.mark.neo4j
def test_a_neo4j_forget_cut_off_mid_transaction_deletes_nothing(
    short_retries: None,
    neo4j_server: Neo4jServer,
    proxy: FaultyProxy,
    direct: GraphMem,
    filled: tuple[str, dict[str, Any]],
) -> None:
    ns, before = filled
    gm = _facade(_neo4j(neo4j_server, proxy.uri)).open()
    try:
        proxy.arm(MID_FORGET, outage=True)
        with pytest.raises(StoreUnavailableError, match="forget"):
            gm.forget_entity(ns, TARGET)
        assert proxy.fired.is_set()
        assert snapshot(direct.store, ns, SESSIONS) == before
        assert direct.deletion_log(ns) == []
        proxy.restore()
        assert gm.forget_entity(ns, TARGET).memories > 0
        _forgotten_whole(direct, ns)
    finally:
        proxy.restore()
        gm.close()
    add_figure("faults.neo4j.forgets_failed_mid_transaction", 1)


@pytest.mark.neo4j
def test_a_neo4j_forget_whose_connection_drops_once_is_retried_and_lands_once(
    neo4j_server: Neo4jServer,
    proxy: FaultyProxy,
    direct: GraphMem,
    filled: tuple[str, dict[str, Any]],
) -> None:
    ns, _ = filled
    preview = direct.forget_entity(ns, TARGET, dry_run=True)
    gm = _facade(_neo4j(neo4j_server, proxy.uri)).open()
    try:
        proxy.arm(MID_FORGET)
        report = gm.forget_entity(ns, TARGET)
        assert proxy.fired.is_set()
    finally:
        gm.close()
    assert report.counts() == preview.counts() and report.memories > 0
    _forgotten_whole(direct, ns)
