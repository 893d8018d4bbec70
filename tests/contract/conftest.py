"""Fixtures of the store contract suite: every test runs once per store.

``store`` is an opened :class:`graphmem.store.base.MemoryStore`, parametrised
``embedded`` (a fresh SQLite file under ``tmp_path``) and ``neo4j`` (the
session's server from ``tests/conftest.py``; marked ``neo4j``). Each test gets
its own namespaces from ``ns`` / ``new_namespace``; they are deleted after the
test, so tests on a shared Neo4j server never see each other's data.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from graphmem.settings import Settings
from graphmem.store.base import MemoryStore
from tests.contract.builders import DIM

StoreFactory = Callable[[], MemoryStore]


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store_kind(request: pytest.FixtureRequest) -> str:
    """Which store this test runs on."""
    kind: str = request.param
    return kind


@pytest.fixture(params=["sync", "async"])
def api(request: pytest.FixtureRequest) -> str:
    """Which facade the facade-level contract tests drive: ``GraphMem`` or
    ``AsyncGraphMem`` (through ``tests/contract/facades.py``)."""
    kind: str = request.param
    return kind


@pytest.fixture
def store_factory(store_kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> StoreFactory:
    """Builds a new, unopened store on the same backing data each time it is called."""
    settings = Settings()
    if store_kind == "embedded":
        from graphmem.store.embedded import EmbeddedStore

        def embedded() -> MemoryStore:
            return EmbeddedStore(
                tmp_path / "store",
                dim=DIM,
                bm25_k1=settings.read.fusion.bm25_k1,
                bm25_b=settings.read.fusion.bm25_b,
            )

        return embedded
    server = request.getfixturevalue("neo4j_server")
    from graphmem.store.neo4j import Neo4jStore

    def neo4j() -> MemoryStore:
        return Neo4jStore(
            server.uri,
            user=server.user or "neo4j",
            password=server.password,
            database=server.database,
            dim=DIM,
            allow_no_auth=True,
        )

    return neo4j


@pytest.fixture
def store(store_factory: StoreFactory) -> Iterator[MemoryStore]:
    """An opened store, closed after the test."""
    opened = store_factory()
    opened.open()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def new_namespace(store: MemoryStore) -> Iterator[Callable[[], str]]:
    """Hands out unique namespaces and deletes them (with their data) after the test."""
    made: list[str] = []

    def make() -> str:
        namespace = f"contract-{uuid.uuid4().hex[:12]}"
        made.append(namespace)
        return namespace

    yield make
    for namespace in made:
        store.delete_namespace(namespace)


@pytest.fixture
def ns(new_namespace: Callable[[], str]) -> str:
    """This test's namespace."""
    return new_namespace()
