"""The lookup role of the Neo4j store (:class:`~graphmem.store.base.StoreLookups`): each
call one statement of ``cypher/read/`` run through the store's :class:`Neo4jExecutor`.
No driver import here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.models import Entity, Memory
from graphmem.store import _neo4j_codec as codec
from graphmem.store._neo4j_exec import Neo4jExecutor
from graphmem.store.records import RankFields


class Neo4jLookups:
    """:class:`~graphmem.store.base.StoreLookups` on Neo4j."""

    def __init__(self, executor: Neo4jExecutor) -> None:
        self._exec = executor

    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        params = {"namespace": namespace, "ids": distinct, "with_embeddings": with_embeddings}
        found = self._memories("read/get_memories", params)
        by_id = {m.id: m for m in found}
        return [by_id[i] for i in ids if i in by_id]

    def rank_fields(self, namespace: str, ids: Sequence[str]) -> list[RankFields]:
        # one row of lists: no map or node per memory crosses the wire. The same round trip
        # reads each memory's sessions: a memory_sessions call that follows in the same
        # thread, for ids among these and before any write, is answered from them (a
        # recall's session support) without a query (Neo4jExecutor.remember).
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        found: dict[str, RankFields] = {}
        sessions: dict[str, tuple[str, ...]] = {}
        for row in codec.collected(
            self._exec.run("read/rank_fields", {"namespace": namespace, "ids": distinct}), "rows"
        ):
            sessions[row[0]] = tuple(sorted(row[9]))
            observed = codec.instant(row[5])
            if observed is None:  # every stored memory has one; skip rather than guess
                continue
            found[row[0]] = RankFields(
                memory_id=row[0],
                type=row[1],
                type_uncertain=bool(row[2]),
                confidence=float(row[3]),
                access_count=int(row[4] or 0),
                last_observed_at=observed,
                stability=float(row[6]),
                current=bool(row[7]),
                retrievable=bool(row[8]),
            )
        self._exec.remember("sessions", (namespace, frozenset(distinct), sessions))
        return [found[i] for i in ids if i in found]

    def find_by_hashes(self, namespace: str, hashes: Sequence[str]) -> dict[str, Memory]:
        distinct = list(dict.fromkeys(hashes))
        if not distinct:
            return {}
        found: dict[str, Memory] = {}
        for memory in self._memories(
            "read/find_by_hashes", {"namespace": namespace, "hashes": distinct}
        ):
            found.setdefault(memory.content_hash, memory)
        return found

    def find_by_subject_predicate(
        self, namespace: str, subject: str, predicate: str
    ) -> list[Memory]:
        params = {"namespace": namespace, "subject": subject, "predicate": predicate}
        return self._memories("read/find_by_subject_predicate", params)

    def memories_in_session(self, namespace: str, session_id: str) -> list[Memory]:
        params = {"namespace": namespace, "session_id": session_id}
        return self._memories("read/memories_in_session", params)

    def list_entities(self, namespace: str) -> list[Entity]:
        rows = codec.collected(
            self._exec.run("read/list_entities", {"namespace": namespace}), "entities"
        )
        return [codec.entity_from_record(row, namespace) for row in rows]

    def count_memories(self, namespace: str) -> int:
        return int(self._exec.run("read/count_memories", {"namespace": namespace})[0]["count"])

    def stats(self, namespace: str) -> dict[str, int]:
        row = self._exec.run("read/stats", {"namespace": namespace})[0]
        return {key: int(value) for key, value in row.items()}

    def namespaces(self) -> list[str]:
        return [row["namespace"] for row in self._exec.run("read/namespaces", {})]

    def _memories(self, name: str, params: Mapping[str, Any]) -> list[Memory]:
        namespace = params["namespace"]
        rows = codec.collected(self._exec.run(name, params), "memories")
        return [codec.memory_from_record(row, namespace) for row in rows]
