"""The vector-index plans of entity_search and time_window_search (graphmem.store.neo4j._reads).

Past a few thousand candidates these two retrievers take the query's nearest neighbours
from the HNSW index instead of reading every candidate's vector. Here the thresholds are
lowered so that a small namespace takes that plan, and its results are compared with
the exact plan's on the same data (on 300 memories the index's neighbours are exact).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from graphmem.store.base import WriteBatch
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j import _plans as plans
from tests.contract.builders import DIM, T0, make_entity, make_memory

if TYPE_CHECKING:
    from tests.conftest import Neo4jServer

pytestmark = pytest.mark.neo4j
N = 300


@pytest.fixture
def store(neo4j_server: Neo4jServer) -> Iterator[Neo4jStore]:
    opened = Neo4jStore(
        neo4j_server.uri,
        user=neo4j_server.user or "neo4j",
        password=neo4j_server.password,
        database=neo4j_server.database,
        dim=DIM,
        allow_no_auth=True,
        exact_search_max=0,
    )
    opened.open()
    yield opened
    opened.close()


@pytest.fixture
def filled(store: Neo4jStore) -> Iterator[tuple[str, str, Any]]:
    namespace = f"index-paths-{np.random.default_rng().integers(1 << 40):x}"
    person = make_entity(namespace, "Ada Abbott")
    rng = np.random.default_rng(11)
    vectors = rng.normal(size=(N, DIM)).astype(np.float32)
    memories = [
        make_memory(
            namespace,
            f"Ada Abbott note {i}",
            event_time=T0 + timedelta(hours=i),
            mentions=[(person.id, "subject")],
            embedding=tuple(float(x) for x in vectors[i]),
        )
        for i in range(N)
    ]
    store.write(namespace, WriteBatch(memories=memories, entities=[person]))
    probe = (vectors[7] + rng.normal(scale=0.3, size=DIM)).astype(np.float32)
    yield namespace, person.id, probe
    store.delete_namespace(namespace)


def _statements(monkeypatch: pytest.MonkeyPatch, store: Neo4jStore) -> list[str]:
    """The names of the statements ``store`` runs from now on (in order)."""
    names: list[str] = []
    original = store.executor.run

    def spy(name: str, params: Any, **kw: Any) -> Any:
        names.append(name)
        return original(name, params, **kw)

    monkeypatch.setattr(store.executor, "run", spy)
    return names


def _both(
    monkeypatch: pytest.MonkeyPatch, store: Neo4jStore, search: Any
) -> tuple[Any, Any, list[str]]:
    names = _statements(monkeypatch, store)
    monkeypatch.setattr(plans, "INDEXED_CANDIDATES_MIN", 5)
    monkeypatch.setattr(plans, "INDEX_COST", 0)
    monkeypatch.setattr(plans, "FILTERED_EXACT_MAX", 5)  # the crossing on 2026.x
    indexed = search()
    monkeypatch.setattr(plans, "INDEXED_CANDIDATES_MIN", 10**9)
    monkeypatch.setattr(plans, "FILTERED_EXACT_MAX", 10**9)
    exact = search()
    return indexed, exact, names


def test_entity_search_through_the_index_agrees_with_the_exact_plan(
    store: Neo4jStore, filled: tuple[str, str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace, person, probe = filled
    indexed, exact, names = _both(
        monkeypatch, store, lambda: store.entity_search(namespace, [person], 5, embedding=probe)
    )
    assert "read/entity_search_index" in names
    assert len(indexed) == 5
    assert indexed == exact


def test_time_window_search_through_the_index_agrees_with_the_exact_plan(
    store: Neo4jStore, filled: tuple[str, str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace, _, probe = filled
    start, end = T0, T0 + timedelta(hours=N)
    indexed, exact, names = _both(
        monkeypatch,
        store,
        lambda: store.time_window_search(namespace, start, end, 5, embedding=probe),
    )
    # 2026.06+ searches a wide window through the index in the same statement
    filtered = store.server_info().details["cypher"] == "cypher25"
    assert "read/time_window_search_index" in names or filtered
    assert len(indexed) == 5
    assert indexed == exact


def test_many_row_exact_search_computed_here_agrees_with_the_cypher_one(
    neo4j_server: Neo4jServer, filled: tuple[str, str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    namespace, _, probe = filled
    small = Neo4jStore(
        neo4j_server.uri,
        user=neo4j_server.user or "neo4j",
        password=neo4j_server.password,
        database=neo4j_server.database,
        dim=DIM,
        allow_no_auth=True,
        exact_search_max=10_000,
    )
    small.open()
    try:
        rng = np.random.default_rng(5)
        rows = (probe + rng.normal(scale=0.5, size=(20, DIM))).astype(np.float32)
        rows[3] = 0.0  # a zero row scores 0 everywhere
        here = small.vector_search(namespace, rows, 4)
        monkeypatch.setattr(plans, "CLIENT_EXACT_MIN_ROWS", 10**9)
        there = small.vector_search(namespace, rows, 4)
    finally:
        small.close()
    assert [[h.memory_id for h in r] for r in here] == [[h.memory_id for h in r] for r in there]
    for mine, theirs in zip(here, there, strict=True):
        assert [h.score for h in mine] == pytest.approx([h.score for h in theirs], abs=2e-6)


def test_dedup_batch_past_exact_search_max_is_scored_here_not_row_by_row_in_the_index(
    store: Neo4jStore, filled: tuple[str, str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `store` searches every namespace through the index (exact_search_max=0); a batch of
    # >= CLIENT_EXACT_MIN_ROWS rows on a namespace under CLIENT_EXACT_MAX still fetches the
    # namespace's vectors once, and scores them exactly: its k best are at least as good,
    # rank by rank, as what the (approximate) index finds row by row. Equal ids would hold
    # only where the HNSW search is exact, which Neo4j 5.26 did not give here every run.
    namespace, _, probe = filled
    names = _statements(monkeypatch, store)
    rng = np.random.default_rng(9)
    rows = (probe + rng.normal(scale=0.5, size=(plans.CLIENT_EXACT_MIN_ROWS, DIM))).astype(
        np.float32
    )
    batch = store.vector_search(namespace, rows, 4)
    assert "read/namespace_vectors" in names and "read/vector_search" not in names
    names.clear()
    monkeypatch.setattr(plans, "CLIENT_EXACT_MAX", 0)  # too big to fetch: the index, per row
    indexed = store.vector_search(namespace, rows, 4)
    assert "read/vector_search" in names and "read/namespace_vectors" not in names
    assert [len(r) for r in batch] == [len(r) for r in indexed]
    for exact, approximate in zip(batch, indexed, strict=True):
        for mine, theirs in zip(exact, approximate, strict=True):
            assert mine.score >= theirs.score - 2e-6


def test_an_unquantised_index_scores_exactly_without_reading_the_vectors(
    neo4j_server: Neo4jServer, filled: tuple[str, str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # vector_quantization "none" (2026.06+): the index holds float32 vectors and its scores
    # are the cosines read/vector_search_exact computes, so nothing is re-scored
    namespace, _, probe = filled
    monkeypatch.setattr(plans, "FILTERED_EXACT_MAX", 5)  # the window through the index too
    # the walk returns every memory of the namespace: both plans then see the same ones,
    # whatever else the index holds (two HNSW graphs need not agree on an approximate top)
    monkeypatch.setattr(plans, "FILTERED_MIN_FETCH_K", 2 * N)

    def searches(quantization: str) -> tuple[Any, Any, bool]:
        opened = Neo4jStore(
            neo4j_server.uri,
            user=neo4j_server.user or "neo4j",
            password=neo4j_server.password,
            database=neo4j_server.database,
            dim=DIM,
            allow_no_auth=True,
            exact_search_max=0,
            vector_quantization=quantization,
        )
        opened.open()  # recreates the index in the other form
        try:
            start, end = T0, T0 + timedelta(hours=N)
            found = (
                opened.vector_search(namespace, probe[None, :], 5)[0],
                opened.time_window_search(namespace, start, end, 5, embedding=probe),
            )
            return found[0], found[1], opened.executor.exact_index_scores
        finally:
            opened.close()

    with_scores = searches("none")
    rescored = searches("scalar")
    if with_scores[2] is False:  # 5.26: no quantization option, always re-scored
        assert rescored[2] is False
        return
    assert rescored[2] is False
    for mine, theirs in zip(with_scores[:2], rescored[:2], strict=True):
        assert [h.memory_id for h in mine] == [h.memory_id for h in theirs]
        assert [h.score for h in mine] == pytest.approx([h.score for h in theirs], abs=2e-6)


def test_a_vector_index_of_other_hnsw_parameters_is_recreated(
    neo4j_server: Neo4jServer, filled: tuple[str, str, Any]
) -> None:
    # issue 13: m 32 / ef_construction 200 by default; an index built with the server's
    # defaults (16 / 100, an older graphmem) or other settings is rebuilt at open
    namespace, _, probe = filled

    def opened(m: int, ef: int) -> tuple[dict[str, Any], list[str], str]:
        store = Neo4jStore(
            neo4j_server.uri,
            user=neo4j_server.user or "neo4j",
            password=neo4j_server.password,
            database=neo4j_server.database,
            dim=DIM,
            allow_no_auth=True,
            exact_search_max=0,
            hnsw_m=m,
            hnsw_ef_construction=ef,
        )
        store.open()
        try:
            config = store.index_states()["memory_embedding"]["options"]["indexConfig"]
            hits = store.vector_search(namespace, probe[None, :], 5)[0]
            dialect = store.server_info().details["cypher"]
            return config, [h.memory_id for h in hits], dialect
        finally:
            store.close()

    default, found, dialect = opened(32, 200)
    if dialect != "cypher25":
        pytest.skip("Neo4j 5.26: the store leaves HNSW parameters to the server")
    assert (default["vector.hnsw.m"], default["vector.hnsw.ef_construction"]) == (32, 200)
    server, again, _ = opened(16, 100)
    assert (server["vector.hnsw.m"], server["vector.hnsw.ef_construction"]) == (16, 100)
    assert len(again) == len(found) == 5
    back, _, _ = opened(32, 200)
    assert (back["vector.hnsw.m"], back["vector.hnsw.ef_construction"]) == (32, 200)
