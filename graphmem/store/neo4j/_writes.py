"""The write role of the Neo4j store (:class:`~graphmem.store.base.StoreWrites`).

A batch is one managed write transaction (:func:`graphmem.store.neo4j._codec.apply_batch`):
upserts are ``MERGE`` on ``(namespace, id)`` under uniqueness constraints, so a retried or
concurrent write of the same ids leaves one node each; its first statement locks and
versions every memory written or deleted and compares ``batch.expected_versions``.
Order: entities, memories (properties, then their mentions and observations replaced),
relations, then deletions; turns and sessions left without memories are deleted.
No driver import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graphmem.store.checks import check_access, check_batch
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.records import AccessUpdate, WriteBatch


class Neo4jWrites:
    """:class:`~graphmem.store.base.StoreWrites` on Neo4j."""

    def __init__(
        self, executor: Neo4jExecutor, *, dim: int, on_change: Callable[[], None] | None = None
    ) -> None:
        self._exec = executor
        self._dim = dim
        # the retrievers' cached term counts (text_search's IDF, the planner's rarity)
        # are forgotten after each write and namespace deletion of this store
        self._on_change = on_change or (lambda: None)

    def write(self, namespace: str, batch: WriteBatch) -> None:
        check_batch(namespace, batch, self._dim)
        if not batch:
            return
        try:
            self._exec.write("write", lambda tx: codec.apply_batch(tx, namespace, batch, self._dim))
        finally:
            self._on_change()

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        check_access(updates)
        if not updates:
            return
        params = {"namespace": namespace, "rows": [codec.access_row(u) for u in updates]}
        self._exec.write("record_access", lambda tx: tx.run("write/record_access", params))

    def delete_namespace(self, namespace: str) -> int:
        """In batches of 1000 (not atomic: a failure part-way leaves part of the
        namespace); the embedder record goes last."""
        try:
            deleted = self._exec.autocommit("maintenance/delete_namespace_memories", namespace)
        finally:
            self._on_change()
        for label in ("entities", "turns", "sessions"):
            self._exec.autocommit(f"maintenance/delete_namespace_{label}", namespace)
        self._exec.run("maintenance/delete_embedder_record", {"namespace": namespace}, write=True)
        return deleted
