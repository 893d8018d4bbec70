"""Per-namespace caches of the embedded store's in-memory indexes.

Every write bumps the namespace's row in ``namespace_versions`` inside its
transaction. :class:`IndexCache` reads that counter before each use (one
primary-key lookup) and rebuilds an index only when the counter differs from
the version the index was built at. A rebuild reads the counter and the rows
in one read transaction, so the version stored with an index is the version
of the rows it holds. Writes by another connection or process are seen by the
next read. Rebuilds are serialised by a lock; built indexes are immutable, so
concurrent readers share them without locking.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from graphmem.models import Entity, Relation
from graphmem.store.embedded import _sql as sql
from graphmem.store.embedded._index import (
    Flags,
    MentionIndex,
    RelationGraph,
    TextIndex,
    TimeIndex,
    VectorIndex,
)
from graphmem.text import tokenize

_T = TypeVar("_T")


class IndexCache:
    """Lazily rebuilt read indexes, one set per namespace.

    Parameters
    ----------
    reader : callable
        Returns the calling thread's read connection.
    dim : int
        Embedding dimension.
    k1, b : float
        BM25 parameters.
    """

    def __init__(
        self, reader: Callable[[], sqlite3.Connection], *, dim: int, k1: float, b: float
    ) -> None:
        self._reader = reader
        self._dim = dim
        self._k1 = k1
        self._b = b
        self._lock = threading.Lock()
        self._vectors: dict[str, tuple[int, VectorIndex]] = {}
        self._texts: dict[str, tuple[int, TextIndex]] = {}
        self._graphs: dict[str, tuple[int, RelationGraph]] = {}
        self._mentions: dict[str, tuple[int, MentionIndex]] = {}
        self._times: dict[str, tuple[int, TimeIndex]] = {}
        self._entities: dict[str, tuple[int, tuple[Entity, ...]]] = {}

    def vectors(self, namespace: str) -> VectorIndex:
        """Exact cosine index over the namespace's embeddings."""
        return self._get(self._vectors, namespace, self._build_vectors)

    def texts(self, namespace: str) -> TextIndex:
        """BM25 index over the namespace's memory content."""
        return self._get(self._texts, namespace, self._build_text)

    def times(self, namespace: str) -> TimeIndex:
        """The time anchors of the namespace's memories."""
        return self._get(self._times, namespace, _build_times)

    def mentions(self, namespace: str) -> MentionIndex:
        """Which of the namespace's memories mention which entities."""
        return self._get(self._mentions, namespace, _build_mentions)

    def graph(self, namespace: str) -> RelationGraph:
        """Graph of the namespace's current relations."""
        return self._get(self._graphs, namespace, _build_graph)

    def entities(self, namespace: str) -> tuple[Entity, ...]:
        """The namespace's entities, by id."""
        return self._get(self._entities, namespace, _build_entities)

    def clear(self) -> None:
        """Drop every index (on close)."""
        with self._lock:
            for cache in (
                self._vectors,
                self._texts,
                self._graphs,
                self._mentions,
                self._times,
                self._entities,
            ):
                cache.clear()

    def _get(
        self,
        cache: dict[str, tuple[int, _T]],
        namespace: str,
        build: Callable[[sqlite3.Connection, str], _T],
    ) -> _T:
        conn = self._reader()
        version = _version(conn, namespace)
        hit = cache.get(namespace)
        if hit is not None and hit[0] == version:
            return hit[1]
        with self._lock:
            hit = cache.get(namespace)
            if hit is not None and hit[0] == version:
                return hit[1]
            conn.execute("BEGIN")  # one snapshot for the version and the rows
            try:
                version = _version(conn, namespace)
                value = build(conn, namespace)
            finally:
                conn.execute("COMMIT")
            cache[namespace] = (version, value)
            return value

    def _build_vectors(self, conn: sqlite3.Connection, namespace: str) -> VectorIndex:
        rows = _flagged(conn, namespace, "embedding", " AND embedding IS NOT NULL")
        matrix = np.zeros((len(rows), self._dim), dtype=np.float32)
        for i, row in enumerate(rows):
            matrix[i] = sql.decode_embedding(row[1])
        return VectorIndex([r[0] for r in rows], matrix, _flags(rows))

    def _build_text(self, conn: sqlite3.Connection, namespace: str) -> TextIndex:
        # BM25 reads the contextual key (Memory.key) when the memory has one, else its content
        rows = _flagged(conn, namespace, "coalesce(json_extract(body, '$.key'), content)")
        documents = [tokenize(r[1]) for r in rows]
        return TextIndex([r[0] for r in rows], documents, _flags(rows), k1=self._k1, b=self._b)


def _version(conn: sqlite3.Connection, namespace: str) -> int:
    row = conn.execute(
        "SELECT version FROM namespace_versions WHERE namespace = ?", (namespace,)
    ).fetchone()
    return 0 if row is None else int(row[0])


def _flagged(
    conn: sqlite3.Connection, namespace: str, column: str, where: str = ""
) -> list[tuple[Any, ...]]:
    """Rows ``(id, column, current, retrievable, hot)`` of the namespace's memories, by id
    (``column`` and ``where`` are this module's constants, never user text)."""
    return sorted(
        conn.execute(
            f"SELECT id, {column}, superseded_by IS NULL, retrievable, tier = 'hot'"
            f" FROM memories WHERE namespace = ?{where}",
            (namespace,),
        )
    )


def _flags(rows: Sequence[tuple[Any, ...]]) -> Flags:
    """Flags from rows whose columns 2, 3, 4 are current, retrievable, hot."""

    def column(j: int) -> Any:
        return np.array([bool(r[j]) for r in rows], dtype=np.bool_)

    return Flags(current=column(2), retrievable=column(3), hot=column(4))


def _build_times(conn: sqlite3.Connection, namespace: str) -> TimeIndex:
    rows = _flagged(conn, namespace, "time_anchor")
    anchors = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
    return TimeIndex([r[0] for r in rows], anchors, _flags(rows))


def _build_mentions(conn: sqlite3.Connection, namespace: str) -> MentionIndex:
    rows = sorted(
        conn.execute(
            "SELECT id, superseded_by IS NULL AND retrievable = 1 FROM memories"
            " WHERE namespace = ?",
            (namespace,),
        )
    )
    row_of = {memory_id: i for i, (memory_id, _) in enumerate(rows)}
    mentions = [
        (row_of[memory_id], entity_id, role)
        for memory_id, entity_id, role in conn.execute(
            "SELECT memory_id, entity_id, role FROM mentions WHERE namespace = ?", (namespace,)
        )
        if memory_id in row_of
    ]
    visible = np.array([bool(v) for _, v in rows], dtype=np.bool_)
    return MentionIndex([r[0] for r in rows], visible, mentions)


def _build_graph(conn: sqlite3.Connection, namespace: str) -> RelationGraph:
    rows = conn.execute(
        "SELECT body FROM relations WHERE namespace = ? AND valid_until IS NULL ORDER BY id",
        (namespace,),
    )
    return RelationGraph([Relation.model_validate_json(body) for (body,) in rows])


def _build_entities(conn: sqlite3.Connection, namespace: str) -> tuple[Entity, ...]:
    rows = conn.execute("SELECT body FROM entities WHERE namespace = ? ORDER BY id", (namespace,))
    return tuple(Entity.model_validate_json(body) for (body,) in rows)
