"""The vector-index recall monitor (SPEC §10) on the embedded store (exact search) and on a
store that deliberately loses neighbours; the Neo4j index is measured in
tests/integration/test_index_recall.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphmem.errors import InvalidInputError
from graphmem.store.base import ScoredId, WriteBatch
from graphmem.store.embedded import EmbeddedStore
from graphmem.store.recall_monitor import exact_searchable, index_recall, recall_at_k
from tests.contract.builders import DIM, make_memory

N = 60


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EmbeddedStore]:
    opened = EmbeddedStore(tmp_path / "store", dim=DIM, bm25_k1=1.2, bm25_b=0.75)
    opened.open()
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(N, DIM))
    memories = [
        make_memory("ns", f"note {i}", embedding=tuple(map(float, v)))
        for i, v in enumerate(vectors)
    ]
    # a superseded and a cold memory: not searchable, so not in the exact reference either
    memories[0] = memories[0].model_copy(update={"superseded_by": memories[1].id})
    memories[2] = memories[2].model_copy(update={"tier": "cold"})
    opened.write("ns", WriteBatch(memories=memories))
    yield opened
    opened.close()


def test_recall_at_k_counts_found_neighbours_and_ties() -> None:
    ids = ["a", "b", "c", "d"]
    scores = np.array([0.9, 0.8, 0.8, 0.1])
    assert recall_at_k(["a", "b"], scores, ids, 2) == 1.0
    assert recall_at_k(["a", "c"], scores, ids, 2) == 1.0  # c ties the 2nd exact score
    assert recall_at_k(["a", "d"], scores, ids, 2) == 0.5
    assert recall_at_k(["d", "x"], scores, ids, 2) == 0.0
    assert recall_at_k(["a", "a"], scores, ids, 2) == 0.5  # a duplicate counts once
    assert recall_at_k(["a", "b", "c", "d"], scores, ids, 10) == 1.0  # k > namespace: all 4
    assert recall_at_k([], np.array([]), [], 10) == 1.0


def test_exact_reference_holds_only_searchable_memories(store: EmbeddedStore) -> None:
    ids, unit = exact_searchable(store, "ns")
    assert len(ids) == N - 2 == unit.shape[0]
    assert np.allclose(np.linalg.norm(unit, axis=1), 1.0)


def test_an_exact_store_has_recall_one(store: EmbeddedStore) -> None:
    found = index_recall(store, "ns", sample=20)
    assert (found.queries, found.memories, found.k) == (20, N - 2, 10)
    assert found.recall == found.worst == 1.0
    assert not found.alert(0.95)


def test_a_store_that_drops_its_best_hit_is_caught(
    store: EmbeddedStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = store.vector_search

    def lossy(namespace: str, embeddings: Any, k: int, **kw: Any) -> list[list[ScoredId]]:
        return [row[1:] for row in original(namespace, embeddings, k, **kw)]

    monkeypatch.setattr(store, "vector_search", lossy)
    found = index_recall(store, "ns", sample=10)
    # each query (a stored vector) loses itself, its exact nearest: 9 of its 10 are left
    assert found.recall == pytest.approx(0.9)
    assert found.alert(0.95) and not found.alert(0.9)


def test_given_queries_and_bad_sample(store: EmbeddedStore) -> None:
    queries = np.random.default_rng(1).normal(size=(3, DIM)).astype(np.float32)
    queries[1] = 0.0  # a zero query has no direction: skipped
    assert index_recall(store, "ns", queries=queries).queries == 2
    assert index_recall(store, "empty").queries == 0
    with pytest.raises(InvalidInputError):
        index_recall(store, "ns", sample=0)
