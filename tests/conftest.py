"""Shared pytest fixtures for the graphmem test suite.

Sections (add new ones below, each under its own banner):

1. Neo4j — a real Neo4j (2026.x or 5.26) server for integration tests: ``neo4j_server``,
   ``neo4j_driver``, ``wipe_database`` and the automatic ``neo4j`` marker.
"""

from __future__ import annotations

import contextlib
import gc
import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NoReturn

import pytest
from neo4j import Driver, GraphDatabase

# =============================================================================================
# 1. Neo4j
# =============================================================================================
#
# Where the server comes from, first match wins:
#   1. GRAPHMEM_TEST_NEO4J_URI (+ _USER, _PASSWORD, _DATABASE): an already running server —
#      tools/neo4j-local/neo4j-local, `docker compose up`, or a remote one. scripts/test.sh
#      sets these.
#   2. testcontainers with the pinned image, when a Docker engine answers.
#   3. Otherwise the test is skipped — unless GRAPHMEM_TEST_STRICT=1 (CI), where it fails.
#
# Tests that use `neo4j_server` or `neo4j_driver` (directly or through another fixture) get
# the `neo4j` marker automatically, so `pytest -m "not neo4j"` runs everything else.

NEO4J_IMAGE = "neo4j:2026.08.1-community"  # docker-compose.yml's; 5.26 LTS is supported too
#: Version prefixes of the servers graphmem supports (the default 2026.x and 5.26 LTS).
SUPPORTED_SERVERS = ("2026.", "5.26.")
NEO4J_FIXTURES = frozenset({"neo4j_server", "neo4j_driver"})
_CONTAINER_PASSWORD = "graphmem-test-only"  # throwaway container; Neo4j 5 needs 8+ characters
_WIPE_BATCH = 10_000



# The real-model tests (tests/llm_real, docs/llm.md) need a local model server that CI
# does not start: they are collected only when scripts/llm-real.sh sets
# GRAPHMEM_TEST_LLM_URL, so a CI run neither runs nor reports them as skipped.
collect_ignore = [] if os.environ.get("GRAPHMEM_TEST_LLM_URL") else ["llm_real"]

@dataclass(frozen=True)
class Neo4jServer:
    """How to reach the Neo4j server the tests run against."""

    uri: str
    user: str | None
    password: str | None  # None: the server runs without authentication
    database: str = "neo4j"
    source: str = "env"  # "env" or "testcontainers"

    @property
    def auth(self) -> tuple[str, str] | None:
        if self.password is None:
            return None
        return (self.user or "neo4j", self.password)

    def driver(self) -> Driver:
        """A new driver for this server; the caller closes it."""
        return GraphDatabase.driver(self.uri, auth=self.auth)


def _strict() -> bool:
    return os.environ.get("GRAPHMEM_TEST_STRICT", "").strip() == "1"


def _unavailable(reason: str) -> NoReturn:
    """Skip, or fail in strict mode (CI), when no Neo4j can be had."""
    if _strict():
        pytest.fail(f"strict mode (GRAPHMEM_TEST_STRICT=1): no Neo4j reachable: {reason}")
    pytest.skip(f"no Neo4j reachable: {reason}")


def _docker_engine_answers() -> bool:
    """Ping the Docker engine (fast when there is none). The CLI alone proves nothing."""
    docker_host = os.environ.get("DOCKER_HOST", "")
    if not docker_host and not os.path.exists("/var/run/docker.sock"):
        return False
    try:
        import docker  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return False
    # A failed connection leaves an unclosed socket behind; under `-W error` its
    # ResourceWarning would surface in some unrelated test, so collect it here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            client = docker.from_env(timeout=3)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:
            return False
        finally:
            gc.collect()


def _check_reachable(server: Neo4jServer) -> None:
    try:
        with server.driver() as driver:
            driver.verify_connectivity()
    except Exception as exc:
        _unavailable(f"GRAPHMEM_TEST_NEO4J_URI={server.uri} does not answer: {exc}")


@contextlib.contextmanager
def _neo4j_container() -> Iterator[Neo4jServer]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            from testcontainers.community.neo4j import Neo4jContainer
        except ImportError:
            from testcontainers.neo4j import Neo4jContainer
    container = (
        Neo4jContainer(NEO4J_IMAGE, password=_CONTAINER_PASSWORD)
        .with_env("NEO4J_server_memory_heap_initial__size", "1G")
        .with_env("NEO4J_server_memory_heap_max__size", "1G")
        .with_env("NEO4J_server_memory_pagecache_size", "512M")
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # testcontainers' own wait helpers
        container.start()
    try:
        yield Neo4jServer(
            uri=container.get_connection_url(),
            user="neo4j",
            password=_CONTAINER_PASSWORD,
            source="testcontainers",
        )
    finally:
        container.stop()


@pytest.fixture(scope="session")
def neo4j_server() -> Iterator[Neo4jServer]:
    """A reachable Neo4j 2026.x or 5.26 server for the whole session (see the resolution order above)."""
    uri = os.environ.get("GRAPHMEM_TEST_NEO4J_URI", "").strip()
    if uri:
        password = os.environ.get("GRAPHMEM_TEST_NEO4J_PASSWORD") or None
        user = os.environ.get("GRAPHMEM_TEST_NEO4J_USER") or ("neo4j" if password else None)
        server = Neo4jServer(
            uri=uri,
            user=user,
            password=password,
            database=os.environ.get("GRAPHMEM_TEST_NEO4J_DATABASE") or "neo4j",
        )
        _check_reachable(server)
        yield server
        return
    if _docker_engine_answers():
        with contextlib.ExitStack() as stack:
            try:
                server = stack.enter_context(_neo4j_container())
            except Exception as exc:
                _unavailable(f"testcontainers could not start {NEO4J_IMAGE}: {exc}")
            yield server
        return
    _unavailable(
        "GRAPHMEM_TEST_NEO4J_URI is not set and no Docker engine answers "
        "(run scripts/test.sh, or tools/neo4j-local/neo4j-local start and set "
        "GRAPHMEM_TEST_NEO4J_URI=$(tools/neo4j-local/neo4j-local uri))"
    )


def wipe_database(driver: Driver, database: str = "neo4j") -> None:
    """Delete every node and relationship, in batches (indexes and constraints stay)."""
    while True:
        records, _, _ = driver.execute_query(
            "MATCH (n) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted",
            batch=_WIPE_BATCH,
            database_=database,
        )
        if records[0]["deleted"] == 0:
            return


@pytest.fixture(scope="session")
def _neo4j_session_driver(neo4j_server: Neo4jServer) -> Iterator[Driver]:
    driver = neo4j_server.driver()
    try:
        driver.verify_connectivity()
        yield driver
    finally:
        driver.close()


@pytest.fixture
def neo4j_driver(_neo4j_session_driver: Driver, neo4j_server: Neo4jServer) -> Iterator[Driver]:
    """The session's driver, on an empty database; the database is wiped again afterwards."""
    wipe_database(_neo4j_session_driver, neo4j_server.database)
    yield _neo4j_session_driver
    wipe_database(_neo4j_session_driver, neo4j_server.database)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if NEO4J_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.neo4j)
