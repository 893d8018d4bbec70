"""The read side of the embedded store: lookups, retrievers and index caches.

:class:`EmbeddedReads` is the base class of
:class:`graphmem.store.embedded.EmbeddedStore`; it owns the per-thread read
connections and the per-namespace in-memory indexes
(:mod:`graphmem.store._embedded_cache` explains how they are invalidated).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.errors import InvalidInputError, StoreError, StoreUnavailableError
from graphmem.models import Entity, Memory, Relation
from graphmem.store import _embedded_sql as sql
from graphmem.store._embedded_cache import IndexCache
from graphmem.store._embedded_index import top_k
from graphmem.store.base import EntityHit, RankFields, ScoredId, TermStats, Vector
from graphmem.store.checks import check_k, check_vector
from graphmem.text import tokenize

_BUSY_TIMEOUT_S = 30.0  # wait this long for another writer's lock
_DAY_US = 86_400_000_000


class EmbeddedReads:
    """Lookups and retrievers over the embedded store's SQLite file.

    Parameters
    ----------
    path : pathlib.Path
        Directory of the store.
    dim : int
        Embedding dimension.
    bm25_k1, bm25_b : float
        BM25 parameters.
    """

    def __init__(self, path: Path, *, dim: int, bm25_k1: float, bm25_b: float) -> None:
        self._path = path
        self._dim = dim
        self._writer: sqlite3.Connection | None = None
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._generation = 0
        self._indexes = IndexCache(self._reader, dim=dim, k1=bm25_k1, b=bm25_b)

    @property
    def db_path(self) -> Path:
        """Path of the SQLite file."""
        return self._path / sql.DB_FILE

    # -- lookups --------------------------------------------------------------
    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        """Memories by id, in the order of ``ids``; missing ids are skipped.

        ``with_embeddings`` fills ``Memory.embedding`` (float32 values as floats).
        """
        found: dict[str, Memory] = {}
        for chunk in sql.chunks(ids):
            query = f"id IN ({sql.placeholders(len(chunk))})"
            for memory in self._select(namespace, query, chunk, with_embeddings, "get_memories"):
                found[memory.id] = memory
        return [found[i] for i in ids if i in found]

    def rank_fields(self, namespace: str, ids: Sequence[str]) -> list[RankFields]:
        """:class:`RankFields` by id, in the order of ``ids``; missing ids are skipped.
        Read with SQLite's ``json_extract`` from the stored body (no model is built)."""
        found: dict[str, RankFields] = {}
        for chunk in sql.chunks(ids):
            with self._errors("rank_fields"):
                rows = (
                    self._reader()
                    .execute(
                        "SELECT id, type, json_extract(body, '$.type_uncertain'),"
                        " json_extract(body, '$.confidence'), json_extract(body, '$.access_count'),"
                        " json_extract(body, '$.last_observed_at'), json_extract(body, '$.stability'),"
                        " superseded_by IS NULL, retrievable"
                        f" FROM memories WHERE namespace = ? AND id IN ({sql.placeholders(len(chunk))})",
                        (namespace, *chunk),
                    )
                    .fetchall()
                )
            for row in rows:
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
        """Current memories by content hash, with embeddings (dedup tier 1).

        When several current memories share a hash, the one with the lowest id.
        """
        found: dict[str, Memory] = {}
        for chunk in sql.chunks(hashes):
            query = f"content_hash IN ({sql.placeholders(len(chunk))}) AND superseded_by IS NULL"
            for memory in self._select(namespace, query, chunk, True, "find_by_hashes"):
                found.setdefault(memory.content_hash, memory)
        return found

    def find_by_subject_predicate(
        self, namespace: str, subject: str, predicate: str
    ) -> list[Memory]:
        """Current memories with exactly this subject and predicate, by id, with embeddings."""
        query = "subject = ? AND predicate = ? AND superseded_by IS NULL"
        return self._select(
            namespace, query, (subject, predicate), True, "find_by_subject_predicate"
        )

    def memories_in_session(self, namespace: str, session_id: str) -> list[Memory]:
        """Every memory (current or not) observed in the session, by id, with embeddings."""
        query = (
            "id IN (SELECT memory_id FROM memory_sessions WHERE namespace = ? AND session_id = ?)"
        )
        return self._select(namespace, query, (namespace, session_id), True, "memories_in_session")

    def list_entities(self, namespace: str) -> list[Entity]:
        """All entities of the namespace, by id."""
        with self._errors("list_entities"):
            return list(self._indexes.entities(namespace))

    def count_memories(self, namespace: str) -> int:
        """Number of memories of the namespace (all tiers, current or not)."""
        with self._errors("count_memories"):
            row = (
                self._reader()
                .execute("SELECT count(*) FROM memories WHERE namespace = ?", (namespace,))
                .fetchone()
            )
        return int(row[0])

    def stats(self, namespace: str) -> dict[str, int]:
        """Counts of the namespace.

        Returns
        -------
        dict of str to int
            ``memories``, ``current``, ``superseded``, ``cold``,
            ``unretrievable``, ``entities``, ``relations`` and ``sessions``
            (distinct sessions with an observation).
        """
        with self._errors("stats"):
            row = self._reader().execute(sql.STATS, {"ns": namespace}).fetchone()
        return {key: int(value) for key, value in zip(sql.STATS_KEYS, row, strict=True)}

    def namespaces(self) -> list[str]:
        """Namespaces holding at least one memory or entity, sorted."""
        with self._errors("namespaces"):
            rows = self._reader().execute(
                "SELECT namespace FROM memories UNION SELECT namespace FROM entities ORDER BY 1"
            )
            return [ns for (ns,) in rows]

    # -- retrievers -----------------------------------------------------------
    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        """Exact top-``k`` cosine search for each query row.

        Parameters
        ----------
        namespace : str
        embeddings : numpy.ndarray of float32, shape (m, dim)
            Query vectors (normalised here again; a zero row scores 0).
        k : int
            Results per row, ``>= 1``.
        include_history : bool
            Also return superseded and non-retrievable memories.
        include_cold : bool
            Also return cold-tier memories.

        Returns
        -------
        list of list of ScoredId
            ``m`` lists; cosine in [-1, 1] (rounded to 6 decimals) desc, then id.

        Raises
        ------
        InvalidInputError
            If ``embeddings`` is not (m, dim), holds a non-finite value, or ``k < 1``.
        """
        check_k(k)
        queries = np.asarray(embeddings, dtype=np.float32)
        if queries.ndim != 2 or queries.shape[1] != self._dim:
            raise InvalidInputError(
                f"expected shape (m, {self._dim}), got {queries.shape}", field="embeddings"
            )
        queries = np.stack(
            [self._vector(q, field=f"embeddings[{i}]") for i, q in enumerate(queries)]
        )
        if queries.shape[0] == 0:
            return []
        with self._errors("vector_search"):
            index = self._indexes.vectors(namespace)
        return index.search(queries, k, include_history=include_history, include_cold=include_cold)

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        """Top-``k`` memories by BM25 (SPEC §3) of ``text`` against their content.

        Only memories containing a query token are returned (score > 0), by
        score desc then id; a query without ``\\w`` tokens returns ``[]``.
        Superseded and non-retrievable memories only with ``include_history``.

        Raises
        ------
        InvalidInputError
            If ``k < 1``.
        """
        check_k(k)
        tokens = tokenize(text)
        if not tokens:
            return []
        with self._errors("text_search"):
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
        """Memories mentioning any of ``entity_ids``.

        Parameters
        ----------
        embedding : numpy.ndarray of float32, shape (dim,), optional
            Query vector; orders memories mentioning as many entities.

        Returns
        -------
        list of EntityHit
            At most ``k``, by entities mentioned desc, cosine desc, id asc.
            ``entity_ids`` of a hit are the given entities it mentions, by
            id; ``roles`` is aligned with them (subject before object before
            mention when an entity has several roles).

        Raises
        ------
        InvalidInputError
            If ``embedding`` has the wrong dimension or ``k < 1``.
        """
        check_k(k)
        query = None if embedding is None else self._vector(embedding, field="embedding")
        with self._errors("entity_search"):
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
        """Memories whose time anchor lies in ``[start, end)``.

        The anchor is ``Memory.time_anchor``: event time, else the first
        observation. With ``embedding`` the score is the cosine to it; without,
        it is closeness to the window's centre, ``1 / (1 + |anchor − centre|
        in days)`` in (0, 1]. At most ``k``, by score desc then id.

        Raises
        ------
        InvalidInputError
            If a bound is naive, ``embedding`` has the wrong dimension or ``k < 1``.
        """
        check_k(k)
        for name, value in (("start", start), ("end", end)):
            if value.utcoffset() is None:
                raise InvalidInputError("must be timezone-aware", field=name)
        query = None if embedding is None else self._vector(embedding, field="embedding")
        lo, hi = sql.micros(start), sql.micros(end)
        if hi <= lo:
            return []
        with self._errors("time_window_search"):
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
        """Distinct current relations on paths of at most ``max_hops`` from ``entity_ids``.

        Current means ``valid_until`` is unset. Paths follow relations in
        either direction; each relation is returned once, by id.
        """
        with self._errors("relation_subgraph"):
            graph = self._indexes.graph(namespace)
        return graph.subgraph(entity_ids, max_hops)

    def memory_sessions(self, namespace: str, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The sessions each memory was observed in, sorted, by memory id; ids not
        stored or without a session are left out."""
        found: dict[str, list[str]] = {}
        for chunk in sql.chunks(list(dict.fromkeys(ids))):
            with self._errors("memory_sessions"):
                rows = (
                    self._reader()
                    .execute(
                        "SELECT memory_id, session_id FROM memory_sessions WHERE namespace = ?"
                        f" AND memory_id IN ({sql.placeholders(len(chunk))})"
                        " ORDER BY memory_id, session_id",
                        (namespace, *chunk),
                    )
                    .fetchall()
                )
            for memory_id, session_id in rows:
                found.setdefault(memory_id, []).append(session_id)
        return {memory_id: tuple(sessions) for memory_id, sessions in found.items()}

    def term_stats(self, namespace: str, terms: Sequence[str]) -> TermStats:
        """Document frequency of each lower-cased term over current memories.

        Returns
        -------
        TermStats
            ``n_docs`` = current memories; ``df`` has every lower-cased term
            of ``terms`` (0 when absent). Content is tokenised with
            :func:`graphmem.text.tokenize`.
        """
        with self._errors("term_stats"):
            index = self._indexes.texts(namespace)
        return TermStats(
            index.n_current, {t.casefold(): index.doc_freq(t.casefold()) for t in terms}
        )

    # -- plumbing -------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(
            self.db_path, timeout=_BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )

    def _reader(self) -> sqlite3.Connection:
        """This thread's read connection (opened on first use)."""
        if self._writer is None:
            raise StoreUnavailableError("the embedded store is not open; call open() first")
        local = self._local
        if getattr(local, "generation", None) != self._generation:
            conn = self._connect()
            conn.execute("PRAGMA query_only = ON")
            with self._readers_lock:
                self._readers.append(conn)
            local.conn, local.generation = conn, self._generation
        reader: sqlite3.Connection = local.conn
        return reader

    def _close_readers(self) -> None:
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
            self._generation += 1
        self._indexes.clear()

    @contextmanager
    def _errors(self, query: str) -> Iterator[None]:
        """Translate SQLite errors into :class:`StoreError` naming the operation."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"embedded store failed: {exc}", query=query) from exc

    def _select(
        self, namespace: str, where: str, params: Sequence[Any], embeddings: bool, query: str
    ) -> list[Memory]:
        """Memories of ``namespace`` matching ``where``, by id."""
        with self._errors(query):
            rows = (
                self._reader()
                .execute(
                    f"SELECT {sql.MEMORY_COLUMNS} FROM memories"
                    f" WHERE namespace = ? AND {where} ORDER BY id",
                    (namespace, *params),
                )
                .fetchall()
            )
        return [sql.memory_from_row(body, blob, with_embedding=embeddings) for body, blob in rows]

    def _vector(self, value: Any, *, field: str) -> Vector:
        """``value`` as a finite float32 vector of length ``dim``, L2-normalised."""
        array = check_vector(value, self._dim, field)
        norm = float(np.linalg.norm(array))
        return array / norm if norm > 0 else array

    def _cosines(
        self, namespace: str, ids: Sequence[str], query: Vector | None
    ) -> npt.NDArray[np.float64]:
        """Cosines of ``ids`` to ``query`` (aligned; all 0.0 without a query)."""
        if query is None:
            return np.zeros(len(ids), dtype=np.float64)
        with self._errors("similarities"):
            index = self._indexes.vectors(namespace)
        return index.cosines(ids, query)
