"""The forgetting role of the embedded store (:class:`~graphmem.store.base.StoreForgetting`;
docs/spec.md §9.16, ``docs/forgetting.md``).

A forget is one ``BEGIN IMMEDIATE`` transaction: the counts before, the relations of the
plan deleted, the plan's write batch (:func:`graphmem.store.embedded._writes.apply_batch`:
compare-and-set, rewrites, memory deletions, prunes), the plan's entities deleted with
their mention rows, the counts after, and the deletion-log row. A dry run rolls it back.
The transaction runs with ``PRAGMA secure_delete`` (freed pages are zeroed) and the WAL is
checkpointed and truncated after it: the file keeps no copy of the forgotten text.
The embedded store keeps turns only inside the memories' observations: a turn is counted
as removed when no memory of the namespace is observed in it any more.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import MappingProxyType

from graphmem.models import Memory, Relation
from graphmem.store.checks import check_batch
from graphmem.store.embedded import _sql as sql
from graphmem.store.embedded._db import EmbeddedDb
from graphmem.store.embedded._writes import apply_batch
from graphmem.store.forgetting import (
    DeletionRecord,
    ForgetCounts,
    ForgetPlan,
    check_unplanned,
)
from graphmem.store.records import micros

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class _DryRun(Exception):
    """Raised inside a dry run's transaction to roll it back with its counts."""

    def __init__(self, counts: ForgetCounts) -> None:
        super().__init__("dry run")
        self.counts = counts


class EmbeddedForgetting:
    """:class:`~graphmem.store.base.StoreForgetting` on the embedded store's SQLite file."""

    def __init__(self, db: EmbeddedDb) -> None:
        self._db = db

    def supersession_links(self, namespace: str, ids: Sequence[str]) -> list[Memory]:
        found: dict[str, Memory] = {}
        for chunk in sql.chunks(ids):
            where = f"superseded_by IN ({sql.placeholders(len(chunk))})"
            for memory in self._db.select(namespace, where, chunk, False, "supersession_links"):
                found[memory.id] = memory
        return [found[i] for i in sorted(found)]

    def relations_of(
        self, namespace: str, memory_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> list[Relation]:
        found: dict[str, Relation] = {}
        reader = self._db.reader()
        with self._db.errors("relations_of"):
            for column, values in _relation_keys(memory_ids, entity_ids):
                for chunk in sql.chunks(values):
                    rows = reader.execute(
                        f"SELECT body FROM relations WHERE namespace = ? AND {column}"
                        f" IN ({sql.placeholders(len(chunk))})",
                        (namespace, *chunk),
                    )
                    for (body,) in rows:
                        relation = Relation.model_validate_json(body)
                        found[relation.id] = relation
        return [found[i] for i in sorted(found)]

    def forget(self, namespace: str, plan: ForgetPlan, *, dry_run: bool = False) -> ForgetCounts:
        check_batch(namespace, plan.batch, self._db.dim)
        try:
            with self._db.transaction("forget") as conn:
                # deleted rows are overwritten with zeros, not left in free pages
                conn.execute("PRAGMA secure_delete = ON")
                counts = _apply(conn, namespace, plan)
                if dry_run:
                    raise _DryRun(counts)
                if plan.record is not None and any(_values(counts)):
                    _log(conn, plan.record, counts)
        except _DryRun as rolled_back:
            return rolled_back.counts
        finally:
            self._db.scrub()
        return counts

    def deletion_log(self, namespace: str) -> list[DeletionRecord]:
        rows = self._db.fetch(
            "deletion_log",
            "SELECT at, kind, command, counts, keys FROM deletion_log WHERE namespace = ?"
            " ORDER BY at, rowid",
            (namespace,),
        )
        return [
            DeletionRecord(
                namespace=namespace,
                at=_EPOCH + timedelta(microseconds=at),
                kind=kind,
                command=command,
                counts=MappingProxyType(json.loads(counts)),
                keys=tuple(json.loads(keys)),
            )
            for at, kind, command, counts, keys in rows
        ]

    def forgotten(self, namespace: str, key: str) -> bool:
        rows = self._db.fetch(
            "forgotten",
            "SELECT 1 FROM deletion_log, json_each(deletion_log.keys) AS k"
            " WHERE deletion_log.namespace = ? AND k.value = ? LIMIT 1",
            (namespace, key),
        )
        return bool(rows)

    def session_ids(self, namespace: str) -> list[str]:
        rows = self._db.fetch(
            "session_ids",
            "SELECT DISTINCT session_id FROM memory_sessions WHERE namespace = ? ORDER BY 1",
            (namespace,),
        )
        return [str(session) for (session,) in rows]


def _relation_keys(
    memory_ids: Sequence[str], entity_ids: Sequence[str]
) -> Iterable[tuple[str, Sequence[str]]]:
    return (("memory_id", memory_ids), ("source_id", entity_ids), ("target_id", entity_ids))


def _ids(conn: sqlite3.Connection, select: str, namespace: str, values: Iterable[str]) -> set[str]:
    """The first column of ``select`` (``{marks}`` stands for the IN list) over ``values``."""
    found: set[str] = set()
    for chunk in sql.chunks(list(values)):
        statement = select.format(marks=sql.placeholders(len(chunk)))
        found.update(str(row[0]) for row in conn.execute(statement, (namespace, *chunk)))
    return found


def _scalar(conn: sqlite3.Connection, statement: str, namespace: str) -> int:
    return int(conn.execute(statement, (namespace,)).fetchone()[0])


def _turns(conn: sqlite3.Connection, namespace: str, sessions: set[str]) -> int:
    """Distinct (session, turn) pairs observed in ``sessions`` (a missing turn id is the
    session's turn ``''``, as Neo4j links it)."""
    found: set[tuple[str, str]] = set()
    for chunk in sql.chunks(sorted(sessions)):
        rows = conn.execute(
            "SELECT DISTINCT json_extract(o.value, '$.session_id'),"
            " coalesce(json_extract(o.value, '$.turn_id'), '')"
            " FROM memory_sessions AS s JOIN memories AS m"
            " ON m.namespace = s.namespace AND m.id = s.memory_id,"
            " json_each(m.body, '$.observations') AS o"
            f" WHERE s.namespace = ? AND s.session_id IN ({sql.placeholders(len(chunk))})",
            (namespace, *chunk),
        )
        found.update((str(a), str(b)) for a, b in rows if a in sessions)
    return len(found)


def _apply(conn: sqlite3.Connection, ns: str, plan: ForgetPlan) -> ForgetCounts:
    """Run ``plan`` in the open transaction; what it removed."""
    deleted = list(dict.fromkeys(plan.batch.deleted_memory_ids))
    entities = list(dict.fromkeys(plan.entity_ids))
    sessions = _ids(
        conn,
        "SELECT DISTINCT session_id FROM memory_sessions WHERE namespace = ?"
        " AND memory_id IN ({marks})",
        ns,
        plan.memory_ids,
    )
    count_sessions = "SELECT count(DISTINCT session_id) FROM memory_sessions WHERE namespace = ?"
    count_entities = "SELECT count(*) FROM entities WHERE namespace = ?"
    before = (_scalar(conn, count_sessions, ns), _turns(conn, ns, sessions))
    entities_before = _scalar(conn, count_entities, ns)
    doomed = "SELECT id FROM memories WHERE namespace = ? AND id IN ({marks})"
    memories = len(_ids(conn, doomed, ns, deleted))
    vectors = len(_ids(conn, doomed + " AND embedding IS NOT NULL", ns, deleted))
    relations = _ids(
        conn,
        "SELECT id FROM relations WHERE namespace = ? AND id IN ({marks})",
        ns,
        plan.relation_ids,
    )
    for column, values in _relation_keys(deleted, entities):
        select = f"SELECT id FROM relations WHERE namespace = ? AND {column} IN ({{marks}})"
        relations |= _ids(conn, select, ns, values)
    for chunk in sql.chunks(sorted(relations)):
        conn.execute(
            f"DELETE FROM relations WHERE namespace = ? AND id IN ({sql.placeholders(len(chunk))})",
            (ns, *chunk),
        )
    apply_batch(conn, ns, plan.batch, query="forget")
    mentioning = "SELECT memory_id FROM mentions WHERE namespace = ? AND entity_id IN ({marks})"
    check_unplanned(sorted(_ids(conn, mentioning, ns, entities)), query="forget")
    for table, column in (("mentions", "entity_id"), ("entities", "id")):
        for chunk in sql.chunks(entities):
            conn.execute(
                f"DELETE FROM {table} WHERE namespace = ?"
                f" AND {column} IN ({sql.placeholders(len(chunk))})",
                (ns, *chunk),
            )
    after = (_scalar(conn, count_sessions, ns), _turns(conn, ns, sessions))
    return ForgetCounts(
        memories=memories,
        relations=len(relations),
        entities=entities_before - _scalar(conn, count_entities, ns),
        sessions=before[0] - after[0],
        turns=before[1] - after[1],
        vectors=vectors,
    )


def _values(counts: ForgetCounts) -> tuple[int, ...]:
    return (
        counts.memories,
        counts.relations,
        counts.entities,
        counts.sessions,
        counts.turns,
        counts.vectors,
    )


def _log(conn: sqlite3.Connection, record: DeletionRecord, counts: ForgetCounts) -> None:
    """Insert ``record`` with the store's ``counts`` over the ones the plan gave."""
    merged = {**record.counts, **_as_dict(counts)}
    entry = replace(record, counts=MappingProxyType(merged))
    conn.execute(
        "INSERT INTO deletion_log (namespace, at, kind, command, counts, keys)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            entry.namespace,
            micros(entry.at),
            entry.kind,
            entry.command,
            json.dumps(dict(entry.counts), sort_keys=True),
            json.dumps(list(entry.keys)),
        ),
    )


def _as_dict(counts: ForgetCounts) -> dict[str, int]:
    names = ("memories", "relations", "entities", "sessions", "turns", "vectors")
    return dict(zip(names, _values(counts), strict=True))
