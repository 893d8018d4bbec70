"""The write role of the embedded store: batches, access updates, namespace deletion.

Each call is one ``BEGIN IMMEDIATE`` transaction of :class:`EmbeddedDb` and bumps the
namespace's counter in ``namespace_versions`` when the read indexes must be rebuilt
(:mod:`graphmem.store.embedded._cache`). Within a batch, deletions are applied after
the upserts, so a batch that upserts and deletes one id deletes it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from graphmem.models import Memory, Relation
from graphmem.store.checks import check_access, check_batch, check_versions
from graphmem.store.embedded import _sql as sql
from graphmem.store.embedded._db import EmbeddedDb
from graphmem.store.records import ACCESS_FIELDS, AccessUpdate, WriteBatch


class EmbeddedWrites:
    """:class:`~graphmem.store.base.StoreWrites` on the embedded store's SQLite file."""

    def __init__(self, db: EmbeddedDb) -> None:
        self._db = db

    def write(self, namespace: str, batch: WriteBatch) -> None:
        # the compare-and-set runs under the write lock BEGIN IMMEDIATE takes: no other
        # writer can slip in between it and the upserts
        check_batch(namespace, batch, self._db.dim)
        if not batch:
            return
        with self._db.transaction("write") as conn:
            apply_batch(conn, namespace, batch, query="write")

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        check_access(updates)
        if not updates:
            return
        with self._db.transaction("record_access") as conn:
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
                if memory is not None:
                    memories[memory.id] = accessed = _accessed(memory, update)
                    tier_changed |= accessed.version != memory.version
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
        with self._db.transaction("delete_namespace") as conn:
            (count,) = conn.execute(
                "SELECT count(*) FROM memories WHERE namespace = ?", (namespace,)
            ).fetchone()
            for table in sql.NAMESPACE_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
            conn.execute("DELETE FROM meta WHERE key = ?", (f"embedder:{namespace}",))
            conn.execute(sql.BUMP_VERSION, (namespace,))
        return int(count)


def apply_batch(conn: sqlite3.Connection, ns: str, batch: WriteBatch, *, query: str) -> None:
    """The statements of one :meth:`EmbeddedWrites.write` inside the caller's transaction
    (also a forget's, :mod:`graphmem.store.embedded._forget`): the compare-and-set, the
    upserts, the relations of superseded memories ended, the deletions, the prunes and
    the namespace's version bumped."""
    ids = [m.id for m in batch.memories] + list(batch.expected_versions)
    stored = _stored_versions(conn, ns, ids)
    versions = {ident: version for ident, (version, _) in stored.items()}
    check_versions(batch.expected_versions, versions, query=query)
    for memory in batch.memories:
        _upsert_memory(conn, ns, memory, stored, memory.id in batch.expected_versions)
    conn.executemany(sql.UPSERT_ENTITY, [sql.entity_row(ns, e) for e in batch.entities])
    conn.executemany(sql.UPSERT_RELATION, [sql.relation_row(ns, r) for r in batch.relations])
    _end_relations(conn, ns, [m for m in batch.memories if m.superseded_by is not None])
    for statement in sql.DELETE_MEMORY:
        conn.executemany(statement, [(ns, i) for i in batch.deleted_memory_ids])
    conn.executemany(sql.PRUNE_ENTITY, [(ns, i) for i in batch.prune_entity_ids])
    conn.execute(sql.BUMP_VERSION, (ns,))


def _upsert_memory(
    conn: sqlite3.Connection,
    namespace: str,
    memory: Memory,
    stored: dict[str, tuple[int, str | None]],
    checked: bool,
) -> None:
    """Write ``memory`` with its mentions and sessions at the next version; a ``checked``
    memory already stored keeps its stored :data:`ACCESS_FIELDS` (record_access owns them)."""
    version, body = stored.get(memory.id, (0, None))
    changes: dict[str, Any] = {"version": version + 1}
    if body is not None and checked:
        kept = Memory.model_validate_json(body)
        changes.update((name, getattr(kept, name)) for name in ACCESS_FIELDS)
    memory = memory.model_copy(update=changes)
    stored[memory.id] = (version + 1, body)
    conn.execute(sql.UPSERT_MEMORY, sql.memory_row(namespace, memory))
    for statement in sql.DELETE_MEMORY_LINKS:
        conn.execute(statement, (namespace, memory.id))
    conn.executemany(
        sql.INSERT_MENTION, [(namespace, memory.id, m.entity_id, m.role) for m in memory.mentions]
    )
    conn.executemany(sql.INSERT_SESSION, [(namespace, memory.id, s) for s in memory.session_ids])


def _accessed(memory: Memory, update: AccessUpdate) -> Memory:
    """``memory`` after one access update (docs/spec.md §4); reactivation raises the version."""
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
    return memory.model_copy(update=changes)


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
    (docs/spec.md §9.9: relations are current exactly while their memory is)."""
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
