"""The maintenance role of the Neo4j store (:class:`~graphmem.store.base.StoreMaintenance`):
paging, lifecycle flags, associations, the embedder record; every method is one statement
of ``cypher/maintenance/`` in its own (retried) transaction of the store's
:class:`Neo4jExecutor`. Association links are
``(:Memory)-[:ASSOCIATED_WITH {similarity}]->(:Memory)``, one per unordered pair, from
the lower id to the higher; ``DETACH DELETE`` of a memory removes them. No driver import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphmem.models import Memory
from graphmem.store.checks import canonical_links, check_k
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.records import (
    Association,
    EmbedderRecord,
    LifecycleUpdate,
    MemoryFilter,
)


class Neo4jMaintenance:
    """:class:`~graphmem.store.base.StoreMaintenance` on Neo4j."""

    def __init__(self, executor: Neo4jExecutor) -> None:
        self._exec = executor

    def scan_memories(
        self, namespace: str, after_id: str | None, limit: int, *, with_embeddings: bool = False
    ) -> list[Memory]:
        extra = {"with_embeddings": with_embeddings}
        return self._page("maintenance/scan_memories", namespace, after_id, limit, extra)

    def list_memories(
        self, namespace: str, where: MemoryFilter, after_id: str | None, limit: int
    ) -> list[Memory]:
        extra = {
            "tier": None if where.cold is None else ("cold" if where.cold else "hot"),
            "retrievable": where.retrievable,
            "superseded": where.superseded,
            "types": list(where.types) or None,
            "entity_ids": list(where.entity_ids) or None,
        }
        return self._page("maintenance/list_memories", namespace, after_id, limit, extra)

    def _page(
        self,
        name: str,
        namespace: str,
        after_id: str | None,
        limit: int,
        extra: Mapping[str, object],
    ) -> list[Memory]:
        """Up to ``limit`` memories with ``id > after_id`` of a paging statement."""
        check_k(limit, field="limit")
        params = {"namespace": namespace, "after_id": after_id or "", "limit": limit, **extra}
        rows = self._exec.run(name, params)
        return [
            codec.memory_from_record(row, namespace) for row in codec.collected(rows, "memories")
        ]

    def set_lifecycle(self, namespace: str, updates: Sequence[LifecycleUpdate]) -> int:
        """Set ``retrievable`` and ``tier`` in one transaction; returns how many changed
        (see the protocol for the ``access_count`` and ``version`` guard)."""
        if not updates:
            return 0
        rows = [
            {
                "memory_id": u.memory_id,
                "retrievable": u.retrievable,
                "tier": u.tier,
                "access_count": u.access_count,
                "version": u.version,
            }
            for u in updates
        ]
        params = {"namespace": namespace, "rows": rows}
        return int(self._exec.run("maintenance/set_lifecycle", params, write=True)[0]["changed"])

    def add_associations(self, namespace: str, links: Sequence[Association]) -> int:
        """``MERGE`` links in one transaction; returns how many are new.

        Raises
        ------
        InvalidInputError
            For a link of a memory to itself or a similarity outside [-1, 1].
        """
        rows = [
            {"source_id": x.source_id, "target_id": x.target_id, "similarity": x.similarity}
            for x in canonical_links(links)
        ]
        if not rows:
            return 0
        params = {"namespace": namespace, "rows": rows}
        return int(self._exec.run("maintenance/add_associations", params, write=True)[0]["created"])

    def embedder_records(self) -> dict[str, EmbedderRecord]:
        """Namespace -> recorded embedder (``(:EmbedderRecord {namespace, model, dim})``)."""
        rows = self._exec.run("maintenance/embedder_records", {})
        return {row["namespace"]: EmbedderRecord(row["model"], int(row["dim"])) for row in rows}

    def set_embedder_record(self, namespace: str, record: EmbedderRecord | None) -> None:
        """Record (replace) or, with None, remove ``namespace``'s embedder."""
        if record is None:
            self._exec.run(
                "maintenance/delete_embedder_record", {"namespace": namespace}, write=True
            )
            return
        params = {"namespace": namespace, "model": record.model, "dim": record.dim}
        self._exec.run("maintenance/set_embedder_record", params, write=True)

    def associations(self, namespace: str, ids: Sequence[str]) -> list[Association]:
        """Links touching any of ``ids``, by ``(source_id, target_id)``."""
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return []
        rows = self._exec.run("maintenance/associations", {"namespace": namespace, "ids": distinct})
        links = [
            Association(row["source_id"], row["target_id"], float(row["similarity"]))
            for row in codec.collected(rows, "links")
        ]
        return sorted(links, key=lambda link: (link.source_id, link.target_id))
