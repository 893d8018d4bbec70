"""Security basics on every store: no credential is ever logged, and no memory text,
query text or embedding is logged at INFO or above (the issue's "Security basics";
STYLE.md: log query names and parameter keys, never values).

Logs are captured at DEBUG from every logger (graphmem's and the Neo4j driver's)
while an application remembers, recalls, consolidates and forgets.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from graphmem import GraphMem, Settings
from graphmem.store.base import MemoryStore
from tests.contract.builders import T0
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder

SECRET_TEXT = "Zelda's locker combination is 4417-alpha"
SECRET_QUERY = "What is Zelda's locker combination?"
FAKE_PASSWORD = "never-log-me-Pa55word"


@pytest.fixture
def app_store(
    store_kind: str, store_factory: StoreFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[MemoryStore, str | None]]:
    """The store an application would open, with its password (Neo4j: the server's own,
    or, on a local server without authentication, a made-up one that is sent anyway)."""
    if store_kind == "embedded":
        store = store_factory()
        password = None
    else:
        from graphmem.store.neo4j import Neo4jStore

        server = request.getfixturevalue("neo4j_server")
        password = server.password or FAKE_PASSWORD
        store = Neo4jStore(
            server.uri,
            user=server.user or "neo4j",
            password=password,
            database=server.database,
            dim=384,
            allow_no_auth=server.password is None,
        )
    yield store, password
    store.close()


def test_logs_hold_no_credentials_memory_text_or_embeddings(
    app_store: tuple[MemoryStore, str | None],
    store_kind: str,
    ns: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, password = app_store
    embedder = HashEmbedder()
    vector = embedder.embed([SECRET_TEXT])[0]
    caplog.set_level(logging.DEBUG)
    with GraphMem(Settings(), store=store, embedder=embedder, clock=lambda: T0) as memory:
        report = memory.remember(
            ns,
            [
                {
                    "content": SECRET_TEXT,
                    "extractor": "verbatim",
                    "session_id": "s1",
                    "turn_id": "t1",
                    "observed_at": T0.isoformat(),
                    "entities": [{"name": "Zelda"}],
                }
            ],
        )
        result = memory.recall(ns, SECRET_QUERY)
        assert [h.memory.id for h in result.hits] == list(report.created)
        memory.consolidate(ns)
        memory.forget_session(ns, "s1")
    records = caplog.records
    texts = [(r, f"{r.getMessage()} {r.args!r}") for r in records]
    if password is not None:
        assert not [r.name for r, text in texts if password in text]
    loud = [(r, text) for r, text in texts if r.levelno >= logging.INFO]
    for needle in (SECRET_TEXT, "4417-alpha", SECRET_QUERY, "locker combination"):
        assert not [r.name for r, text in loud if needle in text], needle
    components = [repr(float(x)) for x in vector if x != 0.0][:8]
    assert components
    for value in components:
        assert not [r.name for r, text in loud if value in text], value
    if store_kind == "neo4j":  # the capture works: the statement seam logs names and keys
        seam = [r.getMessage() for r in records if r.name == "graphmem.store.neo4j"]
        assert any("write/upsert_memories keys=" in m for m in seam)
        assert not [m for m in seam if "4417" in m]
