"""The store protocol: what the write and read pipelines ask of a backend.

Each retriever is **one** store call that a graph database answers with one
indexed query (SPEC §3, §6); nothing on the read path loads a namespace's
memories into Python. Every call takes the namespace first and never sees
another namespace's data.

Implementations: :class:`graphmem.store.embedded.EmbeddedStore` (SQLite +
numpy + rank-bm25 + networkx) and :class:`graphmem.store.neo4j.Neo4jStore`.
Both pass ``tests/contract``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from graphmem.models import Entity, Memory, Relation

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class ScoredId:
    """A memory id with a retriever's raw score (higher is better)."""

    memory_id: str
    score: float


@dataclass(frozen=True, slots=True)
class EntityHit:
    """A memory reached through entity mentions.

    ``entity_ids`` are the given entities the memory mentions; ``similarity``
    is the cosine of the memory to the query embedding (0 when none given).
    """

    memory_id: str
    entity_ids: tuple[str, ...]
    roles: tuple[str, ...]
    similarity: float


@dataclass(frozen=True, slots=True)
class TermStats:
    """Document frequencies for the planner's lexical rarity (SPEC §3)."""

    n_docs: int
    df: dict[str, int]


@dataclass(frozen=True, slots=True)
class AccessUpdate:
    """The access update of one recalled memory (SPEC §4)."""

    memory_id: str
    accessed_at: datetime
    stability: float
    salience: float
    session_id: str | None = None
    reactivate: bool = False


@dataclass(slots=True)
class WriteBatch:
    """One atomic unit of writes: all of it lands, or none of it.

    ``memories`` are upserted whole by id (with their mentions and
    observations); ``entities`` and ``relations`` are upserted by id;
    ``deleted_memory_ids`` are removed with their links.
    """

    memories: list[Memory] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    deleted_memory_ids: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.memories or self.entities or self.relations or self.deleted_memory_ids)


@runtime_checkable
class MemoryStore(Protocol):
    """A backend for graphmem. See the module docstring."""

    name: str

    def open(self) -> None:
        """Connect / create the schema. Idempotent. Raises StoreUnavailableError."""

    def close(self) -> None:
        """Release connections. Idempotent."""

    # -- writes ---------------------------------------------------------------
    def write(self, namespace: str, batch: WriteBatch) -> None:
        """Apply ``batch`` atomically (one transaction)."""

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        """Apply access updates (count += 1, time, stability, salience)."""

    def delete_namespace(self, namespace: str) -> int:
        """Delete everything in ``namespace``; returns the memories deleted."""

    # -- lookups --------------------------------------------------------------
    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        """Memories by id (missing ids are skipped), in the order of ``ids``."""

    def find_by_hashes(self, namespace: str, hashes: Sequence[str]) -> dict[str, Memory]:
        """Current memories by content hash (dedup tier 1)."""

    def find_by_subject_predicate(
        self, namespace: str, subject: str, predicate: str
    ) -> list[Memory]:
        """Current memories with this triple subject and predicate (SPEC §2.11)."""

    def memories_in_session(self, namespace: str, session_id: str) -> list[Memory]:
        """Every memory (current or not) with an observation in the session."""

    def list_entities(self, namespace: str) -> list[Entity]:
        """All entities of the namespace (the linker's dictionary; small)."""

    def count_memories(self, namespace: str) -> int:
        """Number of memories (all tiers, current or not)."""

    def stats(self, namespace: str) -> dict[str, int]:
        """Counts: memories, current, superseded, cold, unretrievable, entities, relations, sessions."""

    def namespaces(self) -> list[str]:
        """Namespaces that hold at least one memory or entity."""

    # -- retrievers (one indexed query each) ----------------------------------
    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        """Top-``k`` memories by cosine (in [-1, 1]) for each row of ``embeddings``.

        ``embeddings`` has shape (m, dim), rows L2-normalised. Cold-tier memories
        are not vector-searchable unless ``include_cold`` (SPEC §4).
        """

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        """Top-``k`` memories by BM25 of ``text`` against memory content."""

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

        Ordered by number of given entities mentioned, then cosine to
        ``embedding`` (when given), then id; at most ``k``.
        """

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
        """Memories whose time anchor (event time, else first observation) is in
        ``[start, end)``; score = cosine to ``embedding`` when given, else
        closeness to the window's centre; at most ``k``."""

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        """Distinct current relations on paths of ≤ ``max_hops`` from ``entity_ids``."""

    def term_stats(self, namespace: str, terms: Sequence[str]) -> TermStats:
        """Document frequency of each (lower-cased) term, and the corpus size."""
