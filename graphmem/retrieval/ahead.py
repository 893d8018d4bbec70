"""Store reads a recall starts before its query embedding is ready.

Embedding the question is the largest single stage of a recall (15-50 ms on two
shared cores), and two retrievers' first store calls do not need it: BM25's fulltext
query (the question's text) and the graph retriever's relation subgraph (the linked
entities), nor does the count the concept walk checks its index against.
:class:`AheadStore` starts those reads on its own threads before the embedding, so
their round trips overlap it; the retrievers then run against it, and it answers
exactly those calls (the same arguments) with the started reads' results and passes
every other call to the store. It also makes one vector search where a recall asks
for two depths. Results are those of the same calls made
later: a recall reads no snapshot either way (its retrievers run concurrently).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, cast

from graphmem.models import Relation
from graphmem.store.base import MemoryStore, ScoredId, Vector

__all__ = ["AheadStore", "backing_store"]


class AheadStore:
    """A store view for one recall: :meth:`start_text_search`,
    :meth:`start_relation_subgraph` and :meth:`start_count_memories` begin a read on
    ``pool``; the same call made later (``text_search``, ``relation_subgraph``,
    ``count_memories``) waits for it, re-raising its error; any
    other call, or one with other arguments, goes to ``store``.

    Parameters
    ----------
    store : MemoryStore
        The store every call reaches.
    pool : ThreadPoolExecutor
        Runs the started reads (its tasks wait on nothing, so it cannot deadlock).
    """

    def __init__(self, store: MemoryStore, pool: ThreadPoolExecutor) -> None:
        self._store = store
        self._pool = pool
        self._started: dict[Hashable, Future[Any]] = {}
        self._shared: dict[Hashable, Future[list[list[ScoredId]]]] = {}
        self._lock = threading.Lock()
        self._vector_k = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def as_store(self) -> MemoryStore:
        """This view, typed as the store it stands in for."""
        return cast(MemoryStore, self)

    @property
    def backing(self) -> MemoryStore:
        """The store this view stands in for (what per-store caches key on)."""
        return self._store

    def widen_vector_search(self, k: int) -> None:
        """Answer every later ``vector_search`` with a ``k`` up to this one from one search
        of this ``k``, cut to the ``k`` asked (the same list on the embedded store, whose
        search is exact and totally ordered; on Neo4j's approximate index a deeper search
        is no less exact), so a recall that searches at two depths makes one search."""
        self._vector_k = max(self._vector_k, k)

    def start_text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool
    ) -> None:
        """Begin ``store.text_search(namespace, text, k, include_history=...)``."""
        key = ("text_search", namespace, text, k, include_history)
        self._started[key] = self._pool.submit(
            self._store.text_search, namespace, text, k, include_history=include_history
        )

    def start_relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> None:
        """Begin ``store.relation_subgraph(namespace, entity_ids, max_hops)``."""
        key = ("relation_subgraph", namespace, tuple(entity_ids), max_hops)
        self._started[key] = self._pool.submit(
            self._store.relation_subgraph, namespace, list(entity_ids), max_hops
        )

    def start_count_memories(self, namespace: str, *, at_most: int | None) -> None:
        """Begin ``store.count_memories(namespace, at_most=...)``."""
        key = ("count_memories", namespace, at_most)
        self._started[key] = self._pool.submit(
            self._store.count_memories, namespace, at_most=at_most
        )

    def count_memories(self, namespace: str, *, at_most: int | None = None) -> int:
        """The started count for these arguments (:meth:`start_count_memories`), else
        the store's."""
        started = self._started.get(("count_memories", namespace, at_most))
        if started is None:
            return self._store.count_memories(namespace, at_most=at_most)
        return int(started.result())

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        started = self._started.get(("text_search", namespace, text, k, include_history))
        if started is None:
            return self._store.text_search(namespace, text, k, include_history=include_history)
        return list(started.result())

    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        """``store.vector_search`` made once per recall for the same arguments: a second
        caller (the graph retriever's concept walk takes its seeds from the semantic
        retriever's search) waits for the first one's result instead of searching again.
        A ``k`` below :meth:`widen_vector_search`'s is answered with the top ``k`` of one
        search that deep (the deep name-masking list and the semantic list: one search)."""
        wide = max(k, self._vector_k)
        key = (
            namespace,
            embeddings.tobytes(),
            embeddings.shape,
            wide,
            include_history,
            include_cold,
        )
        with self._lock:
            shared = self._shared.get(key)
            first = shared is None
            if shared is None:
                shared = self._shared[key] = Future()
        if first:
            try:
                found = self._store.vector_search(
                    namespace,
                    embeddings,
                    wide,
                    include_history=include_history,
                    include_cold=include_cold,
                )
            except BaseException as exc:
                shared.set_exception(exc)
                raise
            shared.set_result(found)
        return [list(row[:k]) for row in shared.result()]

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        key = ("relation_subgraph", namespace, tuple(entity_ids), max_hops)
        started = self._started.get(key)
        if started is None:
            return self._store.relation_subgraph(namespace, entity_ids, max_hops)
        return list(started.result())


def backing_store(store: MemoryStore) -> MemoryStore:
    """The store behind ``store``: the store an :class:`AheadStore` view stands in for,
    else ``store`` itself. Caches that live across recalls (a namespace's concept index)
    key on it: a view is made anew for every recall, so a cache keyed on the view would
    be rebuilt on every recall."""
    if isinstance(store, AheadStore):
        return store.backing
    return store
