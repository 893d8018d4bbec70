"""AheadStore (issue 13): reads started before the query embedding answer the same call."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from graphmem.models import Relation
from graphmem.retrieval.ahead import AheadStore
from graphmem.store.records import ScoredId


class _Store:
    """Records calls; ``text_search`` waits for ``release`` so a test can see it started."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []
        self.release = threading.Event()
        self.started = threading.Event()

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        self.calls.append(("text_search", namespace, text, k, include_history))
        self.started.set()
        self.release.wait(5)
        return [ScoredId(f"{text}-{k}", 1.0)]

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        self.calls.append(("relation_subgraph", namespace, tuple(entity_ids), max_hops))
        if max_hops > 3:
            raise ValueError("max_hops")
        return []

    def count_memories(self, namespace: str, *, at_most: int | None = None) -> int:
        self.calls.append(("count_memories", namespace, at_most))
        return 7 if at_most is None else min(7, at_most)


def test_a_started_read_answers_the_same_call_and_only_that_one() -> None:
    store = _Store()
    with ThreadPoolExecutor(max_workers=2) as pool:
        ahead = AheadStore(store, pool)  # type: ignore[arg-type]
        ahead.start_text_search("ns", "pottery", 50, include_history=True)
        assert store.started.wait(5)  # running before anyone asks for it
        store.release.set()
        view = ahead.as_store()
        assert view.text_search("ns", "pottery", 50, include_history=True) == [
            ScoredId("pottery-50", 1.0)
        ]
        # asked again (the temporal retriever's "when" path does): no second read
        assert view.text_search("ns", "pottery", 50, include_history=True)[0].memory_id == (
            "pottery-50"
        )
        assert len(store.calls) == 1
        # other arguments reach the store
        assert view.text_search("ns", "pottery", 10, include_history=True)[0].memory_id == (
            "pottery-10"
        )
        assert view.text_search("ns", "pottery", 50)[0].memory_id == "pottery-50"
        assert len(store.calls) == 3
        assert view.count_memories("ns") == 7  # everything else is the store's
        assert len(store.calls) == 4


def test_a_started_read_that_failed_raises_where_it_is_asked_for() -> None:
    store = _Store()
    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = AheadStore(store, pool)  # type: ignore[arg-type]
        ahead.start_relation_subgraph("ns", ["e1", "e2"], 4)
        with pytest.raises(ValueError, match="max_hops"):
            ahead.relation_subgraph("ns", ["e1", "e2"], 4)
        assert ahead.relation_subgraph("ns", ("e1", "e2"), 2) == []
    assert store.calls == [
        ("relation_subgraph", "ns", ("e1", "e2"), 4),
        ("relation_subgraph", "ns", ("e1", "e2"), 2),
    ]


class _VectorStore:
    """``vector_search`` counts its calls, waits for ``release`` and fails on k > 50."""

    def __init__(self) -> None:
        self.calls = 0
        self.release = threading.Event()

    def vector_search(
        self,
        namespace: str,
        embeddings: np.ndarray,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        self.calls += 1
        self.release.wait(5)
        if k > 50:
            raise ValueError("k")
        return [[ScoredId(f"{namespace}-{k}-{include_history}", 0.5)]]


def test_one_vector_search_per_recall_serves_both_callers() -> None:
    """The semantic retriever and the concept walk ask the same search concurrently:
    the store is searched once, both get the rows; other arguments search again, and
    an error reaches every caller of that search."""
    store = _VectorStore()
    view = AheadStore(store, ThreadPoolExecutor(max_workers=1)).as_store()  # type: ignore[arg-type]
    query = np.ones((1, 4), dtype=np.float32)
    with ThreadPoolExecutor(max_workers=2) as callers:
        first = callers.submit(view.vector_search, "ns", query, 50, include_history=True)
        second = callers.submit(view.vector_search, "ns", query, 50, include_history=True)
        store.release.set()
        assert first.result(5) == second.result(5) == [[ScoredId("ns-50-True", 0.5)]]
    assert store.calls == 1
    assert view.vector_search("ns", query, 50)[0][0].memory_id == "ns-50-False"
    assert view.vector_search("ns", query * 2, 50, include_history=True)
    assert store.calls == 3
    for _ in range(2):
        with pytest.raises(ValueError, match="k"):
            view.vector_search("ns", query, 60)
    assert store.calls == 4


def test_a_started_count_answers_its_own_bound_only() -> None:
    """The concept walk's count, started before the embedding, answers the walk's
    call; a count with another bound (or none) is the store's."""
    store = _Store()
    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = AheadStore(store, pool)  # type: ignore[arg-type]
        ahead.start_count_memories("ns", at_most=5)
        view = ahead.as_store()
        assert view.count_memories("ns", at_most=5) == 5
        assert view.count_memories("ns", at_most=5) == 5
        assert store.calls == [("count_memories", "ns", 5)]
        assert view.count_memories("ns") == 7
        assert view.count_memories("other", at_most=5) == 5
    assert store.calls[1:] == [("count_memories", "ns", None), ("count_memories", "other", 5)]


class _RankedStore:
    """A namespace of 100 memories m000..m099 whose cosine falls with the number."""

    def __init__(self) -> None:
        self.searches: list[int] = []

    def vector_search(
        self,
        namespace: str,
        embeddings: np.ndarray,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        self.searches.append(k)
        return [[ScoredId(f"m{i:03d}", 1.0 - i / 100) for i in range(min(k, 100))]]


def test_two_depths_of_one_search_are_one_search_cut_to_each_depth() -> None:
    store = _RankedStore()
    view = AheadStore(store, ThreadPoolExecutor(max_workers=1))  # type: ignore[arg-type]
    query = np.ones((1, 4), dtype=np.float32)
    view.widen_vector_search(200)
    view.widen_vector_search(0)  # a recall without the deep list keeps the wider search
    semantic = view.vector_search("ns", query, 50, include_history=True)
    deep = view.vector_search("ns", query, 200, include_history=True)
    assert [r.memory_id for r in semantic[0]] == [f"m{i:03d}" for i in range(50)]
    assert [r.memory_id for r in deep[0]] == [f"m{i:03d}" for i in range(100)]
    assert store.searches == [200]
    view.vector_search("ns", query, 300, include_history=True)  # deeper than widened
    assert store.searches == [200, 300]

