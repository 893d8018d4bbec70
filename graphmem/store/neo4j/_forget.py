"""The forgetting role of the Neo4j store (:class:`~graphmem.store.base.StoreForgetting`;
docs/spec.md §9.16, ``docs/forgetting.md``).

A forget is one managed write transaction (statements of ``cypher/forget/``): the
counts before, the relations of the plan deleted, the plan's write batch
(:func:`graphmem.store.neo4j._codec.apply_batch`: claim and compare-and-set, rewrites,
memory deletions with their relations, turns and sessions left without memories,
prunes), the plan's entities detached and deleted, the counts after, and the
``:DeletionLog`` node. Deleting a node removes it from the vector and fulltext indexes
in the same transaction. A dry run raises inside the transaction, which rolls it back.
No driver import.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from graphmem.models import Memory, Relation
from graphmem.store.checks import check_batch
from graphmem.store.forgetting import (
    DeletionRecord,
    ForgetCounts,
    ForgetPlan,
    check_unplanned,
)
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j._exec import Neo4jExecutor, Tx
from graphmem.store.neo4j._lookups import Neo4jLookups


class _DryRun(Exception):
    """Raised inside a dry run's transaction to roll it back with its counts."""

    def __init__(self, counts: ForgetCounts) -> None:
        super().__init__("dry run")
        self.counts = counts


class Neo4jForgetting:
    """:class:`~graphmem.store.base.StoreForgetting` on Neo4j."""

    def __init__(
        self,
        executor: Neo4jExecutor,
        lookups: Neo4jLookups,
        *,
        dim: int,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self._exec = executor
        self._lookups = lookups
        self._dim = dim
        self._on_change = on_change or (lambda: None)

    def supersession_links(self, namespace: str, ids: Sequence[str]) -> list[Memory]:
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        params = {"namespace": namespace, "ids": distinct}
        found = codec.collected(self._exec.run("forget/superseded_by", params), "ids")
        return self._lookups.get_memories(namespace, found)

    def relations_of(
        self, namespace: str, memory_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> list[Relation]:
        params = {
            "namespace": namespace,
            "memory_ids": list(dict.fromkeys(memory_ids)),
            "entity_ids": list(dict.fromkeys(entity_ids)),
        }
        if not params["memory_ids"] and not params["entity_ids"]:
            return []
        rows = codec.collected(self._exec.run("forget/relations_of", params), "relations")
        return [codec.relation_from_record(row, namespace) for row in rows]

    def forget(self, namespace: str, plan: ForgetPlan, *, dry_run: bool = False) -> ForgetCounts:
        check_batch(namespace, plan.batch, self._dim)

        def work(tx: Tx) -> ForgetCounts:
            counts = _apply(tx, namespace, plan, self._dim)
            if dry_run:
                raise _DryRun(counts)
            if plan.record is not None and any(_as_dict(counts).values()):
                _log(tx, plan.record, counts)
            return counts

        try:
            return self._exec.write("forget", work)
        except _DryRun as rolled_back:
            return rolled_back.counts
        finally:
            self._on_change()

    def deletion_log(self, namespace: str) -> list[DeletionRecord]:
        rows = self._exec.run("forget/deletion_log", {"namespace": namespace})
        return [
            DeletionRecord(
                namespace=namespace,
                at=_at(row["at"]),
                kind=row["kind"],
                command=row["command"],
                counts=json.loads(row["counts_json"]),
                keys=tuple(row["keys"]),
            )
            for row in codec.collected(rows, "entries")
        ]

    def forgotten(self, namespace: str, key: str) -> bool:
        rows = self._exec.run("forget/forgotten", {"namespace": namespace, "key": key})
        return bool(rows and rows[0]["forgotten"])

    def session_ids(self, namespace: str) -> list[str]:
        rows = self._exec.run("forget/session_ids", {"namespace": namespace})
        return [str(s) for s in codec.collected(rows, "ids")]


def _at(value: Any) -> Any:
    at = codec.instant(value)
    if at is None:  # every entry has one
        raise ValueError("a deletion-log entry without a time")
    return at


def _counts(tx: Tx, namespace: str) -> dict[str, int]:
    row = tx.run("forget/counts", {"namespace": namespace})[0]
    return {key: int(row[key]) for key in ("entities", "sessions", "turns")}


def _apply(tx: Tx, ns: str, plan: ForgetPlan, dim: int) -> ForgetCounts:
    """Run ``plan`` in the open transaction; what it removed."""
    deleted = list(dict.fromkeys(plan.batch.deleted_memory_ids))
    entities = sorted(set(plan.entity_ids))
    before = _counts(tx, ns)
    doomed = tx.run(
        "forget/doomed",
        {
            "namespace": ns,
            "ids": deleted,
            "relation_ids": list(dict.fromkeys(plan.relation_ids)),
            "entity_ids": entities,
        },
    )[0]
    relation_ids = sorted(doomed["relation_ids"])
    if relation_ids:
        tx.run("forget/delete_relations", {"namespace": ns, "ids": relation_ids})
    codec.apply_batch(tx, ns, plan.batch, dim)
    if entities:
        rows = tx.run("forget/mentioning", {"namespace": ns, "ids": entities})
        check_unplanned(rows[0]["memory_ids"], query="forget/mentioning")
        tx.run("forget/delete_entities", {"namespace": ns, "ids": entities})
    after = _counts(tx, ns)
    return ForgetCounts(
        memories=int(doomed["memories"]),
        relations=len(relation_ids),
        entities=before["entities"] - after["entities"],
        sessions=before["sessions"] - after["sessions"],
        turns=before["turns"] - after["turns"],
        vectors=int(doomed["vectors"]),
    )


def _as_dict(counts: ForgetCounts) -> dict[str, int]:
    return {
        "memories": counts.memories,
        "relations": counts.relations,
        "entities": counts.entities,
        "sessions": counts.sessions,
        "turns": counts.turns,
        "vectors": counts.vectors,
    }


def _log(tx: Tx, record: DeletionRecord, counts: ForgetCounts) -> None:
    """Create the ``:DeletionLog`` node of ``record`` with the store's ``counts``."""
    merged = {**record.counts, **_as_dict(counts)}
    entry = replace(record, counts=merged)
    tx.run(
        "forget/log_deletion",
        {
            "namespace": entry.namespace,
            "at": codec.wire(entry.at),
            "kind": entry.kind,
            "command": entry.command,
            "counts_json": json.dumps(dict(entry.counts), sort_keys=True),
            "keys": list(entry.keys),
        },
    )
