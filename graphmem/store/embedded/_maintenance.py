"""The maintenance role of the embedded store: paging, lifecycle flags, associations,
the embedder record (:class:`~graphmem.store.base.StoreMaintenance`).

Association links live in
the ``associations`` table, one row per unordered pair (``source_id < target_id``);
deleting a memory deletes its links (``_sql.DELETE_MEMORY``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from graphmem.models import Memory
from graphmem.store.checks import canonical_links, check_k
from graphmem.store.embedded import _sql as sql
from graphmem.store.embedded._db import EmbeddedDb
from graphmem.store.records import (
    Association,
    EmbedderRecord,
    LifecycleUpdate,
    MemoryFilter,
)

# Flags are set in the columns the indexes filter on and in the JSON body, and only
# while the memory's access count and version are the ones the caller saw
# (LifecycleUpdate); an applied update raises the version.
_SET_LIFECYCLE = (
    "UPDATE memories SET retrievable = ?, tier = ?,"
    " body = json_set(body, '$.retrievable', json(?), '$.tier', ?,"
    " '$.version', coalesce(json_extract(body, '$.version'), 0) + 1)"
    " WHERE namespace = ? AND id = ? AND json_extract(body, '$.access_count') = ?"
    " AND coalesce(json_extract(body, '$.version'), 0) = ?"
    " AND (retrievable != ? OR tier != ?)"
)
_INSERT_ASSOCIATION = (
    "INSERT OR IGNORE INTO associations (namespace, source_id, target_id, similarity)"
    " SELECT ?1, ?2, ?3, ?4"
    " WHERE EXISTS (SELECT 1 FROM memories WHERE namespace = ?1 AND id = ?2)"
    " AND EXISTS (SELECT 1 FROM memories WHERE namespace = ?1 AND id = ?3)"
)
_UPDATE_ASSOCIATION = (
    "UPDATE associations SET similarity = ?4"
    " WHERE namespace = ?1 AND source_id = ?2 AND target_id = ?3 AND similarity != ?4"
)


class EmbeddedMaintenance:
    """:class:`~graphmem.store.base.StoreMaintenance` on the embedded store's SQLite file."""

    def __init__(self, db: EmbeddedDb) -> None:
        self._db = db

    def embedder_records(self) -> dict[str, EmbedderRecord]:
        rows = self._db.fetch(
            "embedder_records", "SELECT key, value FROM meta WHERE key LIKE 'embedder:%'"
        )
        records: dict[str, EmbedderRecord] = {}
        for key, value in rows:
            body = json.loads(value)
            records[key.removeprefix("embedder:")] = EmbedderRecord(
                str(body["model"]), int(body["dim"])
            )
        return records

    def set_embedder_record(self, namespace: str, record: EmbedderRecord | None) -> None:
        key = f"embedder:{namespace}"
        with self._db.transaction("set_embedder_record") as conn:
            if record is None:
                conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                value = json.dumps({"model": record.model, "dim": record.dim})
                conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def scan_memories(
        self, namespace: str, after_id: str | None, limit: int, *, with_embeddings: bool = False
    ) -> list[Memory]:
        check_k(limit, field="limit")
        rows = self._db.fetch(
            "scan_memories",
            f"SELECT {sql.MEMORY_COLUMNS} FROM memories"
            " WHERE namespace = ? AND id > ? ORDER BY id LIMIT ?",
            (namespace, after_id or "", limit),
        )
        return [
            sql.memory_from_row(body, blob, with_embedding=with_embeddings) for body, blob in rows
        ]

    def list_memories(
        self, namespace: str, where: MemoryFilter, after_id: str | None, limit: int
    ) -> list[Memory]:
        check_k(limit, field="limit")
        clauses = ["namespace = ?", "id > ?"]
        params: list[Any] = [namespace, after_id or ""]
        if where.cold is not None:
            clauses.append("tier = ?")
            params.append("cold" if where.cold else "hot")
        if where.retrievable is not None:
            clauses.append("retrievable = ?")
            params.append(int(where.retrievable))
        if where.superseded is not None:
            clauses.append(
                "superseded_by IS NOT NULL" if where.superseded else "superseded_by IS NULL"
            )
        if where.types:
            clauses.append(f"type IN ({sql.placeholders(len(where.types))})")
            params.extend(where.types)
        if where.entity_ids:
            clauses.append(
                "id IN (SELECT memory_id FROM mentions WHERE namespace = ? AND entity_id IN"
                f" ({sql.placeholders(len(where.entity_ids))}))"
            )
            params.extend([namespace, *where.entity_ids])
        statement = (
            f"SELECT {sql.MEMORY_COLUMNS} FROM memories WHERE {' AND '.join(clauses)}"
            " ORDER BY id LIMIT ?"
        )
        rows = self._db.fetch("list_memories", statement, (*params, limit))
        return [sql.memory_from_row(body, blob, with_embedding=False) for body, blob in rows]

    def set_lifecycle(self, namespace: str, updates: Sequence[LifecycleUpdate]) -> int:
        # bumps the namespace's version (the read indexes filter on both flags) when any changed
        if not updates:
            return 0
        rows = [
            (
                int(u.retrievable),
                u.tier,
                "true" if u.retrievable else "false",
                u.tier,
                namespace,
                u.memory_id,
                u.access_count,
                u.version,
                int(u.retrievable),
                u.tier,
            )
            for u in updates
        ]
        with self._db.transaction("set_lifecycle") as conn:
            changed = conn.executemany(_SET_LIFECYCLE, rows).rowcount
            if changed:
                conn.execute(sql.BUMP_VERSION, (namespace,))
        return int(changed)

    def add_associations(self, namespace: str, links: Sequence[Association]) -> int:
        rows = [(namespace, x.source_id, x.target_id, x.similarity) for x in canonical_links(links)]
        if not rows:
            return 0
        with self._db.transaction("add_associations") as conn:
            created = conn.executemany(_INSERT_ASSOCIATION, rows).rowcount
            conn.executemany(_UPDATE_ASSOCIATION, rows)
        return int(created)

    def associations(self, namespace: str, ids: Sequence[str]) -> list[Association]:
        found: set[Association] = set()
        with self._db.errors("associations"):
            for chunk in sql.chunks(ids):
                marks = sql.placeholders(len(chunk))
                rows = self._db.reader().execute(
                    "SELECT source_id, target_id, similarity FROM associations"
                    f" WHERE namespace = ? AND source_id IN ({marks})"
                    " UNION SELECT source_id, target_id, similarity FROM associations"
                    f" WHERE namespace = ? AND target_id IN ({marks})",
                    (namespace, *chunk, namespace, *chunk),
                )
                found.update(Association(a, b, float(s)) for a, b, s in rows)
        return sorted(found, key=lambda link: (link.source_id, link.target_id))
