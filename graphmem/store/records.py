"""The records the store protocol speaks in (:mod:`graphmem.store.base`): what a write
carries, what a retriever returns, what ranking reads, and what a store says of itself
(:class:`ServerInfo`, :class:`StoreHealth`). Plain frozen dataclasses, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType

from graphmem.models import Entity, Memory, Relation, Tier
from graphmem.settings import MemoryTypeName


@dataclass(frozen=True, slots=True)
class ScoredId:
    """A memory id with a retriever's raw score (higher is better)."""

    memory_id: str
    score: float


@dataclass(frozen=True, slots=True)
class MaskText:
    """What name masking reads of a memory (docs/performance.md "Recall on real input"):
    its text, speaker-label test input (``extractor``), stored unit vector (``embedding``,
    ``dim`` floats) and the entities it names as subject, without hydrating it (a recall
    over a transcript reads ~200 of them)."""

    memory_id: str
    content: str
    extractor: str
    embedding: Sequence[float]
    subjects: frozenset[str]

    @classmethod
    def of(cls, memory: Memory) -> MaskText:
        """The mask text of a memory already hydrated with its embedding."""
        return cls(
            memory_id=memory.id,
            content=memory.content,
            extractor=memory.extractor,
            embedding=memory.embedding or (),
            subjects=frozenset(x.entity_id for x in memory.mentions if x.role == "subject"),
        )


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
    """What ranking reads of a memory (docs/spec.md §3 gates, freshness, access boost),
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
    """Document frequencies for the planner's lexical rarity (docs/spec.md §3)."""

    n_docs: int
    df: dict[str, int]


@dataclass(frozen=True, slots=True)
class AccessUpdate:
    """The access update of one recalled memory (docs/spec.md §4)."""

    memory_id: str
    accessed_at: datetime
    stability: float
    salience: float
    session_id: str | None = None
    reactivate: bool = False


@dataclass(frozen=True, slots=True)
class LifecycleUpdate:
    """New retrievability flag and tier of one memory (docs/spec.md §4, §9.5).

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
    """An association link between two memories of a namespace (docs/spec.md §4).

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
    embedder differs from a namespace's record refuses to open."""

    model: str
    dim: int

    def __str__(self) -> str:
        return f"{self.model!r} ({self.dim}-d)"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros(value: datetime) -> int:
    """Integer microseconds since the Unix epoch of an aware ``value`` (exact): how both
    backends compare time anchors with window bounds."""
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def association(a: str, b: str, similarity: float) -> Association:
    """The link between ``a`` and ``b`` in canonical order (lower id first)."""
    low, high = (a, b) if a < b else (b, a)
    return Association(low, high, similarity)


#: Memory fields only :meth:`MemoryStore.record_access` changes once a memory is stored
#: (docs/spec.md §4 access bookkeeping); a checked write keeps them as stored (see WriteBatch).
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


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """Where an open store keeps its data (:meth:`~graphmem.store.base.StoreLifecycle.server_info`).

    ``backend`` is the store's ``name`` (``"embedded"``, ``"neo4j"``); ``location`` the
    SQLite file or the Bolt URI; ``version`` and ``edition`` the engine's (SQLite's library
    version and ``"sqlite"``; Neo4j's ``dbms.components()``); ``details`` the backend's
    own facts, e.g. Neo4j's ``address``, ``agent``, ``protocol_version``, ``database`` and
    ``cypher`` (the statement dialect: ``"cypher5"`` or ``"cypher25"``).
    """

    backend: str
    location: str
    version: str
    edition: str
    details: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def items(self) -> list[tuple[str, str]]:
        """Every fact as ``(name, value)``, the common ones first (``graphmem doctor``)."""
        common = [
            ("backend", self.backend),
            ("location", self.location),
            ("version", self.version),
            ("edition", self.edition),
        ]
        return common + sorted(self.details.items())


@dataclass(frozen=True, slots=True)
class IndexState:
    """One index of a store and its state: ``"ONLINE"`` when it serves queries, else the
    engine's word for why not (``"POPULATING"``, ``"FAILED"``, ``"missing"``);
    ``detail`` says more (e.g. Neo4j's index type and population percent)."""

    name: str
    state: str
    detail: str = ""

    @property
    def online(self) -> bool:
        return self.state == "ONLINE"


@dataclass(frozen=True, slots=True)
class StoreHealth:
    """Whether an open store can serve (:meth:`~graphmem.store.base.StoreLifecycle.health`):
    its indexes (those the store keeps in the engine; the embedded store's are built in
    memory and not listed) and the problems found (empty when healthy)."""

    indexes: tuple[IndexState, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """No problem and every index online."""
        return not self.problems and all(index.online for index in self.indexes)
