"""The read roles of the embedded store: lookups (SQL on indexed columns) and the
retrievers (the per-namespace in-memory indexes of :mod:`graphmem.store.embedded._cache`,
which explains how they are invalidated). Both share the store's :class:`EmbeddedDb`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np
import numpy.typing as npt

from graphmem.models import Entity, Memory, Relation
from graphmem.store.checks import check_at_most, check_aware, check_k, unit_rows, unit_vector
from graphmem.store.embedded import _sql as sql
from graphmem.store.embedded._cache import IndexCache
from graphmem.store.embedded._db import EmbeddedDb
from graphmem.store.embedded._index import top_k
from graphmem.store.records import EntityHit, MaskText, RankFields, ScoredId, TermStats, micros
from graphmem.text import tokenize
from graphmem.types import Vector

_DAY_US = 86_400_000_000
# RankFields read with SQLite's json_extract from the stored body (no model is built)
_RANK_FIELDS = (
    "SELECT id, type, json_extract(body, '$.type_uncertain'),"
    " json_extract(body, '$.confidence'), json_extract(body, '$.access_count'),"
    " json_extract(body, '$.last_observed_at'), json_extract(body, '$.stability'),"
    " superseded_by IS NULL, retrievable FROM memories WHERE namespace = ? AND id IN"
)


class EmbeddedLookups:
    """:class:`~graphmem.store.base.StoreLookups` on the embedded store's SQLite file."""

    def __init__(self, db: EmbeddedDb, indexes: IndexCache) -> None:
        self._db = db
        self._indexes = indexes

    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        found: dict[str, Memory] = {}
        for chunk in sql.chunks(ids):
            where = f"id IN ({sql.placeholders(len(chunk))})"
            for memory in self._db.select(namespace, where, chunk, with_embeddings, "get_memories"):
                found[memory.id] = memory
        return [found[i] for i in ids if i in found]

    def mask_texts(self, namespace: str, ids: Sequence[str]) -> list[MaskText]:
        read = self.get_memories(namespace, ids, with_embeddings=True)
        return [MaskText.of(m) for m in read if m.embedding is not None]

    def rank_fields(self, namespace: str, ids: Sequence[str]) -> list[RankFields]:
        found: dict[str, RankFields] = {}
        for chunk in sql.chunks(ids):
            statement = f"{_RANK_FIELDS} ({sql.placeholders(len(chunk))})"
            for row in self._db.fetch("rank_fields", statement, (namespace, *chunk)):
                found[row[0]] = RankFields(
                    memory_id=row[0],
                    type=row[1],
                    type_uncertain=bool(row[2]),
                    confidence=float(row[3]),
                    access_count=int(row[4]),
                    last_observed_at=datetime.fromisoformat(row[5]),
                    stability=float(row[6]),
                    current=bool(row[7]),
                    retrievable=bool(row[8]),
                )
        return [found[i] for i in ids if i in found]

    def find_by_hashes(self, namespace: str, hashes: Sequence[str]) -> dict[str, Memory]:
        found: dict[str, Memory] = {}
        for chunk in sql.chunks(hashes):
            where = f"content_hash IN ({sql.placeholders(len(chunk))}) AND superseded_by IS NULL"
            for memory in self._db.select(namespace, where, chunk, True, "find_by_hashes"):
                found.setdefault(memory.content_hash, memory)
        return found

    def find_by_subject_predicate(
        self, namespace: str, subject: str, predicate: str
    ) -> list[Memory]:
        where = "subject = ? AND predicate = ? AND superseded_by IS NULL"
        return self._db.select(
            namespace, where, (subject, predicate), True, "find_by_subject_predicate"
        )

    def memories_in_session(self, namespace: str, session_id: str) -> list[Memory]:
        where = (
            "id IN (SELECT memory_id FROM memory_sessions WHERE namespace = ? AND session_id = ?)"
        )
        return self._db.select(
            namespace, where, (namespace, session_id), True, "memories_in_session"
        )

    def list_entities(self, namespace: str) -> list[Entity]:
        with self._db.errors("list_entities"):
            return list(self._indexes.entities(namespace))

    def count_memories(self, namespace: str, *, at_most: int | None = None) -> int:
        if at_most is None:
            statement = "SELECT count(*) FROM memories WHERE namespace = ?"
            return int(self._db.fetch("count_memories", statement, (namespace,))[0][0])
        statement = "SELECT count(*) FROM (SELECT 1 FROM memories WHERE namespace = ? LIMIT ?)"
        limit = check_at_most(at_most)
        return int(self._db.fetch("count_memories_at_most", statement, (namespace, limit))[0][0])

    def stats(self, namespace: str) -> dict[str, int]:
        (row,) = self._db.fetch("stats", sql.STATS, {"ns": namespace})
        return {key: int(value) for key, value in zip(sql.STATS_KEYS, row, strict=True)}

    def namespaces(self) -> list[str]:
        statement = "SELECT namespace FROM memories UNION SELECT namespace FROM entities ORDER BY 1"
        return [ns for (ns,) in self._db.fetch("namespaces", statement)]


class EmbeddedRetrievers:
    """:class:`~graphmem.store.base.StoreRetrievers` on the embedded store's in-memory
    indexes: exact cosine (numpy), rank-bm25, a time index, a mention index and a
    networkx relation graph, each rebuilt when its namespace changed."""

    def __init__(self, db: EmbeddedDb, indexes: IndexCache) -> None:
        self._db = db
        self._indexes = indexes

    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        check_k(k)
        queries = unit_rows(embeddings, self._db.dim)
        if queries.shape[0] == 0:
            return []
        with self._db.errors("vector_search"):
            index = self._indexes.vectors(namespace)
        return index.search(queries, k, include_history=include_history, include_cold=include_cold)

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        check_k(k)
        tokens = tokenize(text)
        if not tokens:
            return []
        with self._db.errors("text_search"):
            index = self._indexes.texts(namespace)
        return index.search(tokens, k, include_history=include_history)

    def entity_search(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[EntityHit]:
        check_k(k)
        query = None if embedding is None else unit_vector(embedding, self._db.dim, "embedding")
        with self._db.errors("entity_search"):
            index = self._indexes.mentions(namespace)
            found = index.search(
                entity_ids,
                k,
                lambda ids: self._cosines(namespace, ids, query),
                include_history=include_history,
            )
        return [
            EntityHit(memory_id=m, entity_ids=entities, roles=roles, similarity=sim)
            for m, entities, roles, sim in found
        ]

    def time_window_search(
        self,
        namespace: str,
        start: datetime,
        end: datetime,
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[ScoredId]:
        check_k(k)
        check_aware(start, "start")
        check_aware(end, "end")
        query = None if embedding is None else unit_vector(embedding, self._db.dim, "embedding")
        lo, hi = micros(start), micros(end)
        if hi <= lo:
            return []
        with self._db.errors("time_window_search"):
            index = self._indexes.times(namespace)
        rows = index.window(lo, hi, include_history=include_history)
        if query is None:  # closeness to the centre, on 2x scale (integers), then id
            twice = np.abs(2 * index.anchors[rows] - (lo + hi))
            chosen = rows[np.lexsort((rows, twice))[:k]]
            return [
                ScoredId(
                    index.ids[r],
                    1.0 / (1.0 + abs(2 * int(index.anchors[r]) - lo - hi) / (2 * _DAY_US)),
                )
                for r in chosen
            ]
        ids = [index.ids[r] for r in rows]
        sims = self._cosines(namespace, ids, query)
        return [ScoredId(ids[i], float(sims[i])) for i in top_k(sims, k)]

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        with self._db.errors("relation_subgraph"):
            graph = self._indexes.graph(namespace)
        return graph.subgraph(entity_ids, max_hops)

    def memory_sessions(self, namespace: str, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for chunk in sql.chunks(list(dict.fromkeys(ids))):
            rows = self._db.fetch(
                "memory_sessions",
                "SELECT memory_id, session_id FROM memory_sessions WHERE namespace = ?"
                f" AND memory_id IN ({sql.placeholders(len(chunk))})"
                " ORDER BY memory_id, session_id",
                (namespace, *chunk),
            )
            for memory_id, session_id in rows:
                found.setdefault(memory_id, []).append(session_id)
        return {memory_id: tuple(sessions) for memory_id, sessions in found.items()}

    def memory_cosines(
        self, namespace: str, ids: Sequence[str], embedding: Vector
    ) -> dict[str, float]:
        query = unit_vector(embedding, self._db.dim, "embedding")
        with self._db.errors("memory_cosines"):
            index = self._indexes.vectors(namespace)
        stored = [i for i in dict.fromkeys(ids) if index.has(i)]
        return dict(zip(stored, index.cosines(stored, query).tolist(), strict=True))

    def term_stats(self, namespace: str, terms: Sequence[str]) -> TermStats:
        # content is tokenised with graphmem.text.tokenize, as the BM25 index is
        with self._db.errors("term_stats"):
            index = self._indexes.texts(namespace)
        return TermStats(
            index.n_current, {t.casefold(): index.doc_freq(t.casefold()) for t in terms}
        )

    def _cosines(
        self, namespace: str, ids: Sequence[str], query: Vector | None
    ) -> npt.NDArray[np.float64]:
        """Cosines of ``ids`` to ``query`` (aligned; all 0.0 without a query)."""
        if query is None:
            return np.zeros(len(ids), dtype=np.float64)
        with self._db.errors("similarities"):
            index = self._indexes.vectors(namespace)
        return index.cosines(ids, query)
