"""The lookup role of the Neo4j store (:class:`~graphmem.store.base.StoreLookups`): each
call one statement of ``cypher/read/`` run through the store's :class:`Neo4jExecutor`.
No driver import here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.models import Entity, Memory
from graphmem.store.checks import check_at_most
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.records import MaskText, RankFields

# rank_fields reads the whole memory of its first this-many ids (a recall's best fused
# candidates), so that hydrating the k a recall returns rarely needs its own round trip.
HYDRATE_AHEAD = 32


class Neo4jLookups:
    """:class:`~graphmem.store.base.StoreLookups` on Neo4j."""

    def __init__(self, executor: Neo4jExecutor) -> None:
        self._exec = executor

    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        # right after rank_fields in this thread (a recall hydrating the k it returns), the
        # memories it read whole (with their embeddings) are taken from there and only the
        # others are queried
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        by_id: dict[str, Memory] = {}
        memo = self._exec.recall("hydrated")  # answered once: a later call reads afresh
        if memo is not None and memo[0] == namespace:
            records = memo[1]
            by_id = {
                i: codec.memory_from_record(
                    records[i] if with_embeddings else {**records[i], "embedding": None},
                    namespace,
                )
                for i in distinct
                if i in records
            }
        if missing := [i for i in distinct if i not in by_id]:
            params = {"namespace": namespace, "ids": missing, "with_embeddings": with_embeddings}
            by_id.update((m.id, m) for m in self._memories("read/get_memories", params))
        return [by_id[i] for i in ids if i in by_id]

    def rank_fields(self, namespace: str, ids: Sequence[str]) -> list[RankFields]:
        # one row of lists: no map or node per memory crosses the wire. The same round trip
        # reads each memory's sessions: a memory_sessions call that follows in the same
        # thread, for ids among these and before any write, is answered from them (a
        # recall's session support) without a query (Neo4jExecutor.remember). It also reads
        # the whole memory (with its embedding) of the first HYDRATE_AHEAD ids (a recall
        # passes its candidates best first), for the get_memories call that hydrates the k
        # the recall returns (with or without embeddings).
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        found: dict[str, RankFields] = {}
        sessions: dict[str, tuple[str, ...]] = {}
        hydrated: dict[str, Mapping[str, Any]] = {}  # records, decoded when asked for
        params = {"namespace": namespace, "ids": distinct, "hydrate": HYDRATE_AHEAD}
        for row in codec.collected(self._exec.run("read/rank_fields", params), "rows"):
            sessions[row[0]] = tuple(sorted(row[9]))
            if row[10] is not None:
                hydrated[row[0]] = row[10]
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
        self._exec.remember("hydrated", (namespace, hydrated))
        return [found[i] for i in ids if i in found]

    def mask_texts(self, namespace: str, ids: Sequence[str]) -> list[MaskText]:
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        rows = codec.collected(
            self._exec.run("read/mask_texts", {"namespace": namespace, "ids": distinct}), "rows"
        )
        found = {
            row[0]: MaskText(
                memory_id=row[0],
                content=row[1],
                extractor=row[2],
                embedding=row[3],
                subjects=frozenset(row[4]),
            )
            for row in rows
        }
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

    def count_memories(self, namespace: str, *, at_most: int | None = None) -> int:
        if at_most is None:
            row = self._exec.run("read/count_memories", {"namespace": namespace})[0]
        else:
            params = {"namespace": namespace, "at_most": check_at_most(at_most)}
            row = self._exec.run("read/count_memories_at_most", params)[0]
        return int(row["count"])

    def stats(self, namespace: str) -> dict[str, int]:
        row = self._exec.run("read/stats", {"namespace": namespace})[0]
        return {key: int(value) for key, value in row.items()}

    def namespaces(self) -> list[str]:
        return [row["namespace"] for row in self._exec.run("read/namespaces", {})]

    def _memories(self, name: str, params: Mapping[str, Any]) -> list[Memory]:
        namespace = params["namespace"]
        rows = codec.collected(self._exec.run(name, params), "memories")
        return [codec.memory_from_record(row, namespace) for row in rows]
