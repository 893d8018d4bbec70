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

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from graphmem.errors import InvalidInputError, WriteConflictError
from graphmem.models import Entity, Memory, Relation, Tier
from graphmem.settings import MemoryTypeName
from graphmem.types import Vector as Vector  # re-exported: the protocol's signatures use it


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
class RankFields:
    """What ranking reads of a memory (SPEC §3 gates, freshness, access boost),
    without hydrating it: a recall scores every fused candidate (~50 per
    retriever) but returns ``k``, so it hydrates only those.

    ``current`` is "not superseded"; ``last_observed_at`` is aware (UTC).
    """

    memory_id: str
    type: MemoryTypeName
    type_uncertain: bool
    confidence: float
    access_count: int
    last_observed_at: datetime
    stability: float
    current: bool
    retrievable: bool

    @classmethod
    def of(cls, memory: Memory) -> RankFields:
        """The rank fields of a memory already hydrated."""
        return cls(
            memory_id=memory.id,
            type=memory.type,
            type_uncertain=memory.type_uncertain,
            confidence=memory.confidence,
            access_count=memory.access_count,
            last_observed_at=memory.last_observed_at,
            stability=memory.stability,
            current=memory.is_current,
            retrievable=memory.retrievable,
        )


@dataclass(frozen=True, slots=True)
class MemoryFilter:
    """Which memories :meth:`MemoryStore.list_memories` returns (``graphmem list``).

    ``None`` / empty passes everything; every filter given must hold: ``cold`` (tier
    cold, or hot when ``False``), ``retrievable``, ``superseded``, ``types`` (any of),
    ``entity_ids`` (mentions any of).
    """

    cold: bool | None = None
    retrievable: bool | None = None
    superseded: bool | None = None
    types: tuple[MemoryTypeName, ...] = ()
    entity_ids: tuple[str, ...] = ()


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


@dataclass(frozen=True, slots=True)
class LifecycleUpdate:
    """New retrievability flag and tier of one memory (SPEC §4, §9.5).

    ``access_count`` and ``version`` are what the consolidation pass saw: the
    update is applied only while the stored memory still has both, so a memory
    recalled or written since the scan is left for the next pass (a recall never
    loses its reactivation, nor a new observation its freshness, to a pass that
    read the memory before it).
    """

    memory_id: str
    retrievable: bool
    tier: Tier
    access_count: int
    version: int


@dataclass(frozen=True, slots=True)
class Association:
    """An association link between two memories of a namespace (SPEC §4).

    Undirected: stores keep ``source_id < target_id`` (see :func:`association`).
    ``similarity`` is the cosine of the two embeddings.
    """

    source_id: str
    target_id: str
    similarity: float


@dataclass(frozen=True, slots=True)
class EmbedderRecord:
    """Which embedder wrote a namespace's vectors: its ``name`` (``Embedder.name``, e.g.
    ``all-MiniLM-L6-v2``, ``all-MiniLM-L6-v2-onnx-int8``, ``openai:nomic-embed-text``)
    and dimension. Vectors of two embedders are not comparable, so a facade whose
    embedder differs from a namespace's record refuses to open (issue 17)."""

    model: str
    dim: int

    def __str__(self) -> str:
        return f"{self.model!r} ({self.dim}-d)"


def association(a: str, b: str, similarity: float) -> Association:
    """The link between ``a`` and ``b`` in canonical order (lower id first)."""
    low, high = (a, b) if a < b else (b, a)
    return Association(low, high, similarity)


def canonical_links(links: Sequence[Association]) -> list[Association]:
    """``links`` validated and in canonical order, one per unordered pair (the last wins).

    Raises
    ------
    InvalidInputError
        For a link of a memory to itself or a similarity that is not a finite
        number in [-1, 1]; names ``links[i]``.
    """
    pairs: dict[tuple[str, str], Association] = {}
    for i, link in enumerate(links):
        if link.source_id == link.target_id:
            raise InvalidInputError("links a memory to itself", field=f"links[{i}]")
        if not (math.isfinite(link.similarity) and -1.0 <= link.similarity <= 1.0):
            raise InvalidInputError(
                f"similarity must be a finite cosine in [-1, 1], got {link.similarity}",
                field=f"links[{i}].similarity",
            )
        canonical = association(link.source_id, link.target_id, float(link.similarity))
        pairs[(canonical.source_id, canonical.target_id)] = canonical
    return list(pairs.values())


#: Memory fields only :meth:`MemoryStore.record_access` changes once a memory is stored
#: (SPEC §4 access bookkeeping); a checked write keeps them as stored (see WriteBatch).
ACCESS_FIELDS: tuple[str, ...] = (
    "access_count",
    "last_accessed_at",
    "accessed_sessions",
    "stability",
    "salience",
)


@dataclass(slots=True)
class WriteBatch:
    """One atomic unit of writes: all of it lands, or none of it.

    ``memories`` are upserted by id (with their mentions and observations);
    ``entities`` and ``relations`` are upserted by id; ``deleted_memory_ids``
    are removed with their links. Every memory written gets ``version + 1``.
    Last, each entity of ``prune_entity_ids`` that no memory mentions and no
    relation touches any more is deleted (forgetting leaves no orphan entity).

    ``expected_versions`` makes the batch a compare-and-set (optimistic
    concurrency for read-modify-write callers such as the write pipeline): memory
    id → the ``version`` the caller read (0: not stored). The store compares them
    inside its write transaction and raises
    :class:`~graphmem.errors.WriteConflictError`, writing nothing, when any listed
    memory (upserted or deleted) has another version. A listed memory that is
    stored keeps its stored :data:`ACCESS_FIELDS`: only ``record_access`` changes
    those, so an access update committed after the caller's read is not lost (and
    does not conflict). Memories not listed are written whole, unchecked.
    """

    memories: list[Memory] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    deleted_memory_ids: list[str] = field(default_factory=list)
    expected_versions: dict[str, int] = field(default_factory=dict)
    prune_entity_ids: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            self.memories
            or self.entities
            or self.relations
            or self.deleted_memory_ids
            or self.prune_entity_ids
        )


def versions_read(memories: Sequence[Memory], deleted: Sequence[Memory] = ()) -> dict[str, int]:
    """``expected_versions`` of a batch whose memories were read (or built: version 0)
    by the caller: each memory's own ``version``."""
    return {m.id: m.version for m in (*memories, *deleted)}


def check_expected_versions(batch: WriteBatch) -> None:
    """Raise :class:`InvalidInputError` unless every id of ``batch.expected_versions`` is
    written or deleted by the batch, with a version ``>= 0``."""
    written = {m.id for m in batch.memories} | set(batch.deleted_memory_ids)
    for ident, version in batch.expected_versions.items():
        if ident not in written:
            raise InvalidInputError(
                "names a memory the batch neither writes nor deletes",
                field=f"expected_versions[{ident!r}]",
            )
        if version < 0:
            raise InvalidInputError(
                f"must be >= 0, got {version}", field=f"expected_versions[{ident!r}]"
            )


def check_versions(expected: dict[str, int], stored: dict[str, int], *, query: str) -> None:
    """The compare-and-set of a checked write: raise :class:`WriteConflictError` naming
    the ids whose stored version (0 when missing) differs from the expected one."""
    conflicts = tuple(sorted(i for i, v in expected.items() if stored.get(i, 0) != v))
    if conflicts:
        shown = ", ".join(conflicts[:5]) + (" ..." if len(conflicts) > 5 else "")
        raise WriteConflictError(
            f"{len(conflicts)} memories changed since they were read ({shown}); another"
            " writer committed first, nothing was written",
            memory_ids=conflicts,
            query=query,
        )


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
        """Apply ``batch`` atomically (one transaction).

        Raises WriteConflictError, writing nothing, when a memory of
        ``batch.expected_versions`` has another stored version.
        """

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        """Apply access updates (count += 1, time, stability, salience), each in the
        transaction on the stored memory. ``reactivate`` sets the tier to hot and the
        memory retrievable (cold reactivation, seed 003), raising its ``version`` when
        that changes either; plain access updates leave the version alone."""

    def delete_namespace(self, namespace: str) -> int:
        """Delete everything in ``namespace``; returns the memories deleted."""

    def embedder_records(self) -> dict[str, EmbedderRecord]:
        """Namespace -> the embedder recorded as having written its vectors."""

    def set_embedder_record(self, namespace: str, record: EmbedderRecord | None) -> None:
        """Record (replace) the embedder of ``namespace``'s vectors; None removes it."""

    # -- maintenance (consolidation pass; SPEC §4) ----------------------------
    def scan_memories(
        self, namespace: str, after_id: str | None, limit: int, *, with_embeddings: bool = False
    ) -> list[Memory]:
        """Up to ``limit`` memories (all tiers, current or not) with ``id > after_id``,
        by id (``after_id=None`` starts at the first).

        The maintenance path pages through a namespace with it; nothing on the
        read path calls it. Raises InvalidInputError if ``limit < 1``.
        """

    def list_memories(
        self, namespace: str, where: MemoryFilter, after_id: str | None, limit: int
    ) -> list[Memory]:
        """Up to ``limit`` memories passing ``where``, with ``id > after_id``, by id
        (without embeddings; ``graphmem list`` pages with it). Raises InvalidInputError
        if ``limit < 1``."""

    def set_lifecycle(self, namespace: str, updates: Sequence[LifecycleUpdate]) -> int:
        """Set ``retrievable`` and ``tier`` of memories in one transaction.

        An update is skipped when its memory is gone or its ``access_count`` or
        ``version`` differs from the stored one (accessed or written since the
        caller read it). An applied update raises the memory's ``version``.
        Returns the number of memories updated.
        """

    def add_associations(self, namespace: str, links: Sequence[Association]) -> int:
        """Upsert association links in one transaction (idempotent).

        A link is stored once per unordered pair, between two memories of
        ``namespace`` (a link naming a missing memory is skipped), with its
        ``similarity`` replaced. Returns the number of links that did not exist.
        Raises InvalidInputError for a link of a memory to itself.
        """

    def associations(self, namespace: str, ids: Sequence[str]) -> list[Association]:
        """Every association link touching one of ``ids``, in canonical order
        (``source_id < target_id``), sorted by ``(source_id, target_id)``."""

    # -- lookups --------------------------------------------------------------
    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        """Memories by id (missing ids are skipped), in the order of ``ids``."""

    def rank_fields(self, namespace: str, ids: Sequence[str]) -> list[RankFields]:
        """:class:`RankFields` of memories by id (missing ids are skipped), in the
        order of ``ids``; one query, no hydration."""

    def find_by_hashes(self, namespace: str, hashes: Sequence[str]) -> dict[str, Memory]:
        """Current memories by content hash (dedup tier 1)."""

    def find_by_subject_predicate(
        self, namespace: str, subject: str, predicate: str
    ) -> list[Memory]:
        """Current memories with this triple subject and predicate (SPEC §2.11)."""

    def memories_in_session(self, namespace: str, session_id: str) -> list[Memory]:
        """Every memory (current or not) with an observation in the session, by id,
        with embeddings (forgetting rewrites them whole)."""

    def list_entities(self, namespace: str) -> list[Entity]:
        """All entities of the namespace (the linker's dictionary; small)."""

    def count_memories(self, namespace: str) -> int:
        """Number of memories (all tiers, current or not)."""

    def stats(self, namespace: str) -> dict[str, int]:
        """Counts: memories, current, superseded, cold, unretrievable, entities, relations,
        sessions (not counting the pseudo-sessions ``confirmation`` and ``correction``)."""

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

    def memory_sessions(self, namespace: str, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The sessions each memory was observed in, sorted, by memory id (one query;
        ids not stored, or with no session, are left out). Ranking reads it for
        session support (``graphmem.retrieval.support``)."""


def memory_pages(
    store: MemoryStore, namespace: str, page_size: int, *, with_embeddings: bool = False
) -> Iterator[list[Memory]]:
    """Every memory of ``namespace`` (all tiers, current or not), in pages of up to
    ``page_size`` by id, through :meth:`MemoryStore.scan_memories` — the one paging
    loop of the maintenance path (consolidation, the guards, export, the index-recall
    monitor). A short page ends it. Raises InvalidInputError if ``page_size < 1``.
    """
    after: str | None = None
    while True:
        page = store.scan_memories(namespace, after, page_size, with_embeddings=with_embeddings)
        if page:
            yield page
        if len(page) < page_size:
            return
        after = page[-1].id
