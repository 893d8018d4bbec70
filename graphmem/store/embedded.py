"""The embedded store: one SQLite file, numpy cosine, rank-bm25, networkx (SPEC §6).

Persistence is a single SQLite file ``<path>/graphmem.sqlite`` in WAL mode;
every :meth:`EmbeddedStore.write` is one ``BEGIN IMMEDIATE`` transaction, so a
crash leaves no half-written memory. Lookups are SQL queries on indexed
columns. The retrievers that SQL cannot answer (cosine, BM25, traversal) use
per-namespace in-memory indexes (:mod:`graphmem.store._embedded_index`).

Cache invalidation: every write bumps a per-namespace counter in the
``namespace_versions`` table inside the write's transaction. Each read first
reads that counter (one primary-key lookup) and rebuilds an index only when it
differs from the version the index was built at, reading the counter and the
rows in one read transaction so the two agree. Writes by another connection
or process are therefore seen by the next read. Access updates that do not
change a memory's tier or retrievability leave the counter alone (indexes do not
hold them).

Threads: one write connection behind a lock; one read connection per thread
(WAL lets readers run beside the writer); index rebuilds are serialised by a
lock and the indexes are immutable once built.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.errors import ConfigurationError, StoreUnavailableError
from graphmem.models import Memory, Relation
from graphmem.store import _embedded_sql as sql
from graphmem.store._embedded_maintenance import EmbeddedMaintenance
from graphmem.store.base import (
    ACCESS_FIELDS,
    AccessUpdate,
    WriteBatch,
    check_versions,
)
from graphmem.store.checks import check_access, check_batch

if TYPE_CHECKING:
    from graphmem.settings import Settings

__all__ = ["EmbeddedStore"]


class EmbeddedStore(EmbeddedMaintenance):
    """A :class:`graphmem.store.base.MemoryStore` in one local SQLite file.

    Parameters
    ----------
    path : pathlib.Path or str
        Directory of the store; created by :meth:`open`. The database is
        ``path / "graphmem.sqlite"``.
    dim : int
        Embedding dimension, ``>= 1``; writes and searches with another are
        rejected.
    bm25_k1, bm25_b : float
        BM25 parameters (``Settings.bm25_k1`` = 1.2, ``Settings.bm25_b`` = 0.75).

    Raises
    ------
    ConfigurationError
        If ``dim < 1`` or the BM25 parameters are out of range.

    Notes
    -----
    The constructor does no I/O. Within a batch, deletions are applied after
    the upserts, so a batch that upserts and deletes one id deletes it.
    """

    name = "embedded"

    def __init__(self, path: Path | str, *, dim: int, bm25_k1: float, bm25_b: float) -> None:
        if dim < 1:
            raise ConfigurationError(f"embedding dim must be >= 1, got {dim}")
        if not (math.isfinite(bm25_k1) and bm25_k1 > 0.0 and 0.0 <= bm25_b <= 1.0):
            raise ConfigurationError(
                f"need bm25_k1 > 0 and bm25_b in [0, 1], got {bm25_k1}, {bm25_b}"
            )
        super().__init__(Path(path), dim=dim, bm25_k1=bm25_k1, bm25_b=bm25_b)
        self._write_lock = threading.Lock()

    @property
    def dim(self) -> int:
        """Embedding dimension of the store."""
        return self._dim

    @classmethod
    def from_settings(cls, settings: Settings) -> EmbeddedStore:
        """A store configured by :class:`graphmem.settings.Settings` (``data_dir``,
        ``embedding_dim``, ``bm25_k1``, ``bm25_b``), as :meth:`Neo4jStore.from_settings`
        is for Neo4j."""
        return cls(
            settings.data_dir,
            dim=settings.embedding_dim,
            bm25_k1=settings.bm25_k1,
            bm25_b=settings.bm25_b,
        )

    def __enter__(self) -> EmbeddedStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        """Create the directory, the SQLite file and its tables. Idempotent.

        Raises
        ------
        StoreUnavailableError
            If the directory or the file cannot be created or opened (the path
            is a file, permission denied, not a SQLite database).
        ConfigurationError
            If the file was created with another embedding dimension.
        """
        if self._writer is not None:
            return
        try:
            self._path.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as exc:
            raise StoreUnavailableError(
                f"cannot create the embedded store directory {self._path}: a file is in the way;"
                " set GRAPHMEM_DATA_DIR to a directory path"
            ) from exc
        except OSError as exc:
            raise StoreUnavailableError(
                f"cannot create the embedded store directory {self._path} ({exc.strerror});"
                " set GRAPHMEM_DATA_DIR to a writable directory"
            ) from exc
        conn: sqlite3.Connection | None = None
        try:
            conn = self._connect()
            conn.execute("PRAGMA journal_mode = WAL")
            stored_dim = sql.create_schema(conn, self._dim)
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise StoreUnavailableError(
                f"cannot open the embedded store file {self.db_path} ({exc}); check that it is a"
                " writable graphmem SQLite file, or set GRAPHMEM_DATA_DIR to another directory"
            ) from exc
        if stored_dim != self._dim:
            conn.close()
            raise ConfigurationError(
                f"{self.db_path} holds {stored_dim}-dimensional embeddings but the store was"
                f" configured with dim={self._dim}; use the same embedding model or another"
                " GRAPHMEM_DATA_DIR"
            )
        self._writer = conn

    def close(self) -> None:
        """Close every connection and drop the in-memory indexes. Idempotent."""
        with self._write_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self._close_readers()

    # -- writes ---------------------------------------------------------------
    def write(self, namespace: str, batch: WriteBatch) -> None:
        """Apply ``batch`` in one transaction: all of it lands, or none of it.

        Parameters
        ----------
        namespace : str
            Every memory, entity and relation of the batch must carry it.
        batch : WriteBatch
            Upserts (memories with their mentions and sessions, entities,
            relations; the relations a superseded memory asserted end with it,
            SPEC §9.9), then deletions (a memory with its mentions, sessions
            and the relations it is the source of).

        Raises
        ------
        InvalidInputError
            For an item of another namespace or an embedding whose length is
            not ``dim`` or that holds a non-finite value; nothing is written.
        WriteConflictError
            When a memory of ``batch.expected_versions`` has another stored
            version (the compare-and-set runs under the write lock that
            ``BEGIN IMMEDIATE`` takes, so no other writer can slip in).
        StoreError
            If SQLite fails; the transaction is rolled back.
        """
        check_batch(namespace, batch, self._dim)
        if not batch:
            return
        ns = namespace
        with self._transaction("write") as conn:
            ids = [m.id for m in batch.memories] + list(batch.expected_versions)
            stored = _stored_versions(conn, ns, ids)
            versions = {ident: version for ident, (version, _) in stored.items()}
            check_versions(batch.expected_versions, versions, query="write")
            for memory in batch.memories:
                version, body = stored.get(memory.id, (0, None))
                changes: dict[str, Any] = {"version": version + 1}
                if body is not None and memory.id in batch.expected_versions:
                    kept = Memory.model_validate_json(body)  # record_access owns these
                    changes.update((name, getattr(kept, name)) for name in ACCESS_FIELDS)
                memory = memory.model_copy(update=changes)
                stored[memory.id] = (version + 1, body)
                conn.execute(sql.UPSERT_MEMORY, sql.memory_row(ns, memory))
                for statement in sql.DELETE_MEMORY_LINKS:
                    conn.execute(statement, (ns, memory.id))
                conn.executemany(
                    sql.INSERT_MENTION,
                    [(ns, memory.id, m.entity_id, m.role) for m in memory.mentions],
                )
                conn.executemany(
                    sql.INSERT_SESSION, [(ns, memory.id, s) for s in memory.session_ids]
                )
            conn.executemany(sql.UPSERT_ENTITY, [sql.entity_row(ns, e) for e in batch.entities])
            conn.executemany(
                sql.UPSERT_RELATION, [sql.relation_row(ns, r) for r in batch.relations]
            )
            _end_relations(conn, ns, [m for m in batch.memories if m.superseded_by is not None])
            for statement in sql.DELETE_MEMORY:
                conn.executemany(statement, [(ns, i) for i in batch.deleted_memory_ids])
            conn.executemany(sql.PRUNE_ENTITY, [(ns, i) for i in batch.prune_entity_ids])
            conn.execute(sql.BUMP_VERSION, (ns,))

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        """Apply access updates in one transaction (SPEC §4).

        Each update sets ``access_count += 1``, ``last_accessed_at``,
        ``stability`` and ``salience``, adds ``session_id`` to
        ``accessed_sessions`` once, and with ``reactivate`` sets the tier to
        hot and the memory retrievable (raising its ``version`` when either
        changes). Unknown ids are skipped; several updates of one id apply in order.

        Raises
        ------
        InvalidInputError
            For a naive ``accessed_at`` or a stability / salience outside [0, 1].
        """
        check_access(updates)
        if not updates:
            return
        with self._transaction("record_access") as conn:
            memories: dict[str, Memory] = {}
            for ids in sql.chunks([u.memory_id for u in updates]):
                where = f"namespace = ? AND id IN ({sql.placeholders(len(ids))})"
                rows = conn.execute(f"SELECT body FROM memories WHERE {where}", (namespace, *ids))
                for (body,) in rows:
                    loaded = Memory.model_validate_json(body)
                    memories[loaded.id] = loaded
            tier_changed = False
            for update in updates:
                memory = memories.get(update.memory_id)
                if memory is None:
                    continue
                sessions = memory.accessed_sessions
                if update.session_id is not None and update.session_id not in sessions:
                    sessions = (*sessions, update.session_id)
                changes: dict[str, Any] = {
                    "access_count": memory.access_count + 1,
                    "last_accessed_at": update.accessed_at,
                    "stability": update.stability,
                    "salience": update.salience,
                    "accessed_sessions": sessions,
                }
                if update.reactivate and (memory.tier != "hot" or not memory.retrievable):
                    changes.update(tier="hot", retrievable=True, version=memory.version + 1)
                    tier_changed = True
                memories[memory.id] = memory.model_copy(update=changes)
            conn.executemany(
                "UPDATE memories SET body = ?, tier = ?, retrievable = ?"
                " WHERE namespace = ? AND id = ?",
                [
                    (
                        m.model_dump_json(exclude={"embedding"}),
                        m.tier,
                        int(m.retrievable),
                        namespace,
                        m.id,
                    )
                    for m in memories.values()
                ],
            )
            if tier_changed:
                conn.execute(sql.BUMP_VERSION, (namespace,))

    def delete_namespace(self, namespace: str) -> int:
        """Delete every row of ``namespace`` (its embedder record too); returns the number
        of memories deleted."""
        with self._transaction("delete_namespace") as conn:
            (count,) = conn.execute(
                "SELECT count(*) FROM memories WHERE namespace = ?", (namespace,)
            ).fetchone()
            for table in sql.NAMESPACE_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
            conn.execute("DELETE FROM meta WHERE key = ?", (f"embedder:{namespace}",))
            conn.execute(sql.BUMP_VERSION, (namespace,))
        return int(count)

    # -- plumbing -------------------------------------------------------------
    @contextmanager
    def _transaction(self, query: str) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` on the write connection; rollback on any error."""
        with self._write_lock:
            conn = self._writer
            if conn is None:
                raise StoreUnavailableError("the embedded store is not open; call open() first")
            with self._errors(query):
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise


def _stored_versions(
    conn: sqlite3.Connection, namespace: str, ids: Sequence[str]
) -> dict[str, tuple[int, str | None]]:
    """Stored ``(version, body)`` of the memories among ``ids`` (inside the write transaction)."""
    found: dict[str, tuple[int, str | None]] = {}
    for chunk in sql.chunks(ids):
        rows = conn.execute(
            "SELECT id, coalesce(json_extract(body, '$.version'), 0), body FROM memories"
            f" WHERE namespace = ? AND id IN ({sql.placeholders(len(chunk))})",
            (namespace, *chunk),
        )
        found.update((ident, (int(version), body)) for ident, version, body in rows)
    return found


def _end_relations(conn: sqlite3.Connection, namespace: str, superseded: Sequence[Memory]) -> None:
    """End the current relations each superseded memory asserted, at its ``valid_until``
    (SPEC §9.9: relations are current exactly while their memory is)."""
    for memory in superseded:
        until = memory.valid_until or memory.last_observed_at
        rows = conn.execute(
            "SELECT body FROM relations WHERE namespace = ? AND memory_id = ?"
            " AND valid_until IS NULL",
            (namespace, memory.id),
        ).fetchall()
        ended = [
            Relation.model_validate_json(body).model_copy(update={"valid_until": until})
            for (body,) in rows
        ]
        conn.executemany(sql.UPSERT_RELATION, [sql.relation_row(namespace, r) for r in ended])
