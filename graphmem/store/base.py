"""The store protocol: what the write and read pipelines ask of a backend.

The protocol is the union of six roles, each a protocol of its own so that a caller
can ask for just what it uses:

- :class:`StoreLifecycle`: open / close (also as a context manager), ``health``,
  ``server_info``;
- :class:`StoreWrites`: atomic write batches, access updates, namespace deletion;
- :class:`StoreMaintenance`: the consolidation pass's paging, lifecycle flags,
  association links and the embedder record;
- :class:`StoreLookups`: memories and entities by id, hash, triple or session; counts;
- :class:`StoreRetrievers`: the five retrievers' queries and what ranking reads;
- :class:`StoreForgetting`: forgetting a memory or an entity, and the deletion log.

Each retriever is **one** store call that a graph database answers with one
indexed query (docs/spec.md §3, §6); nothing on the read path loads a namespace's
memories into Python. Every call takes the namespace first and never sees
another namespace's data. Each method's contract is documented here, once; a
backend's docstrings say only how it meets it. Input that no backend could
accept is refused by :mod:`graphmem.store.checks` before any I/O, with the same
:class:`~graphmem.errors.InvalidInputError` on every backend.

Implementations: :class:`graphmem.store.embedded.EmbeddedStore` (SQLite +
numpy + rank-bm25 + networkx) and :class:`graphmem.store.neo4j.Neo4jStore`.
Both pass ``tests/contract``. The records the protocol speaks in live in
:mod:`graphmem.store.records` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

from graphmem.models import Entity, Memory, Relation
from graphmem.store.forgetting import DeletionRecord, ForgetCounts, ForgetPlan
from graphmem.store.records import ACCESS_FIELDS as ACCESS_FIELDS
from graphmem.store.records import AccessUpdate as AccessUpdate
from graphmem.store.records import Association as Association
from graphmem.store.records import EmbedderRecord as EmbedderRecord
from graphmem.store.records import EntityHit as EntityHit
from graphmem.store.records import IndexState as IndexState
from graphmem.store.records import LifecycleUpdate as LifecycleUpdate
from graphmem.store.records import MaskText as MaskText
from graphmem.store.records import MemoryFilter as MemoryFilter
from graphmem.store.records import RankFields as RankFields
from graphmem.store.records import ScoredId as ScoredId
from graphmem.store.records import ServerInfo as ServerInfo
from graphmem.store.records import StoreHealth as StoreHealth
from graphmem.store.records import TermStats as TermStats
from graphmem.store.records import WriteBatch as WriteBatch
from graphmem.store.records import association as association
from graphmem.store.records import versions_read as versions_read
from graphmem.types import Vector as Vector  # re-exported: the protocol's signatures use it


@runtime_checkable
class StoreLifecycle(Protocol):
    """Opening, closing and describing a store. Every other call needs it open (else
    :class:`~graphmem.errors.StoreUnavailableError`); the constructor does no I/O."""

    name: str

    def open(self) -> None:
        """Connect / create the schema. Idempotent. Raises StoreUnavailableError when the
        backing data cannot be reached, ConfigurationError when it was made for another
        embedding dimension."""

    def close(self) -> None:
        """Release connections. Idempotent; a closed store can be opened again."""

    def health(self) -> StoreHealth:
        """Whether the open store can serve: its indexes' states and the problems found
        (``graphmem doctor``). Reports, never raises for an unhealthy store, except
        StoreUnavailableError when it is not open or cannot be reached."""

    def server_info(self) -> ServerInfo:
        """Where the open store keeps its data: engine, location, version.
        Raises StoreUnavailableError when it is not open."""

    def __enter__(self) -> StoreLifecycle:
        """:meth:`open`, returning the store."""

    def __exit__(self, *exc: object) -> None:
        """:meth:`close`."""


@runtime_checkable
class StoreWrites(Protocol):
    """The write pipeline's calls: every write is one transaction."""

    def write(self, namespace: str, batch: WriteBatch) -> None:
        """Apply ``batch`` atomically (one transaction): all of it lands, or none of it.

        Upserts (memories with their mentions and sessions, entities, relations; the
        relations a superseded memory asserted end with it, docs/spec.md §9.9), then deletions
        (a memory with its mentions, observations, association links and the relations
        it is the source of). A batch that upserts and deletes one id deletes it.

        Raises InvalidInputError, writing nothing, for an item of another namespace or
        an embedding whose length is not the store's ``dim`` or that holds a non-finite
        value; WriteConflictError, writing nothing, when a memory of
        ``batch.expected_versions`` has another stored version (see :class:`WriteBatch`).
        """

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        """Apply access updates in one transaction (docs/spec.md §4): each sets
        ``access_count += 1``, ``last_accessed_at``, ``stability`` and ``salience``, and
        adds ``session_id`` to ``accessed_sessions`` once. ``reactivate`` sets the tier
        to hot and the memory retrievable (cold reactivation, docs/spec.md §4), raising its
        ``version`` when that changes either; plain access updates leave the version
        alone. Unknown ids are skipped; several updates of one id apply in order.

        Raises InvalidInputError for a naive ``accessed_at`` or a stability / salience
        outside [0, 1].
        """

    def delete_namespace(self, namespace: str) -> int:
        """Delete everything in ``namespace`` (its embedder record too); returns the
        memories deleted."""


@runtime_checkable
class StoreMaintenance(Protocol):
    """The maintenance path's calls (consolidation, guards, export; docs/spec.md §4). Nothing on
    the read path calls them."""

    def scan_memories(
        self, namespace: str, after_id: str | None, limit: int, *, with_embeddings: bool = False
    ) -> list[Memory]:
        """Up to ``limit`` memories (all tiers, current or not) with ``id > after_id``,
        by id (``after_id=None`` starts at the first); :func:`memory_pages` pages with it.
        Raises InvalidInputError if ``limit < 1``."""

    def list_memories(
        self, namespace: str, where: MemoryFilter, after_id: str | None, limit: int
    ) -> list[Memory]:
        """Up to ``limit`` memories passing ``where``, with ``id > after_id``, by id
        (without embeddings; ``graphmem list`` pages with it). Raises InvalidInputError
        if ``limit < 1``."""

    def set_lifecycle(self, namespace: str, updates: Sequence[LifecycleUpdate]) -> int:
        """Set ``retrievable`` and ``tier`` of memories in one transaction.

        An update is skipped when its memory is gone, already has both values, or its
        ``access_count`` or ``version`` differs from the stored one (accessed or written
        since the caller read it). An applied update raises the memory's ``version``.
        Returns the number of memories updated.
        """

    def add_associations(self, namespace: str, links: Sequence[Association]) -> int:
        """Upsert association links in one transaction (idempotent).

        A link is stored once per unordered pair, between two memories of
        ``namespace`` (a link naming a missing memory is skipped), with its
        ``similarity`` replaced. Returns the number of links that did not exist.
        Raises InvalidInputError for a link of a memory to itself or a similarity
        outside [-1, 1].
        """

    def associations(self, namespace: str, ids: Sequence[str]) -> list[Association]:
        """Every association link touching one of ``ids``, in canonical order
        (``source_id < target_id``), sorted by ``(source_id, target_id)``."""

    def embedder_records(self) -> dict[str, EmbedderRecord]:
        """Namespace -> the embedder recorded as having written its vectors."""

    def set_embedder_record(self, namespace: str, record: EmbedderRecord | None) -> None:
        """Record (replace) the embedder of ``namespace``'s vectors; None removes it."""


@runtime_checkable
class StoreLookups(Protocol):
    """Memories and entities by key, and counts."""

    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        """Memories by id (missing ids are skipped), in the order of ``ids``;
        ``with_embeddings`` fills ``Memory.embedding``."""

    def rank_fields(self, namespace: str, ids: Sequence[str]) -> list[RankFields]:
        """:class:`RankFields` of memories by id (missing ids are skipped), in the
        order of ``ids``; one query, no hydration."""

    def mask_texts(self, namespace: str, ids: Sequence[str]) -> list[MaskText]:
        """:class:`MaskText` of memories by id (missing ids and memories without an
        embedding are skipped), in the order of ``ids``; one query, no hydration."""

    def find_by_hashes(self, namespace: str, hashes: Sequence[str]) -> dict[str, Memory]:
        """Current memories by content hash, with embeddings (dedup tier 1); the lowest
        id when several current memories share a hash."""

    def find_by_subject_predicate(
        self, namespace: str, subject: str, predicate: str
    ) -> list[Memory]:
        """Current memories with exactly this triple subject and predicate, by id, with
        embeddings (docs/spec.md §2.11)."""

    def memories_in_session(self, namespace: str, session_id: str) -> list[Memory]:
        """Every memory (current or not) with an observation in the session, by id,
        with embeddings (forgetting rewrites them whole)."""

    def list_entities(self, namespace: str) -> list[Entity]:
        """All entities of the namespace, by id (the linker's dictionary; small)."""

    def count_memories(self, namespace: str, *, at_most: int | None = None) -> int:
        """Number of memories (all tiers, current or not). With ``at_most`` (``>= 0``),
        counting stops there: ``min(count, at_most)``, which reads at most that many
        memories (a recall that only asks whether a namespace is past a size reads no
        more of a large one)."""

    def stats(self, namespace: str) -> dict[str, int]:
        """Counts: memories, current, superseded, cold, unretrievable, entities, relations,
        sessions (distinct sessions with an observation)."""

    def namespaces(self) -> list[str]:
        """Namespaces that hold at least one memory or entity, sorted."""


@runtime_checkable
class StoreRetrievers(Protocol):
    """The five retrievers' queries (one indexed query each) and what ranking reads.

    Superseded and non-retrievable memories are returned only with
    ``include_history``; scores are higher-is-better, ties broken by id. Each raises
    InvalidInputError if ``k < 1`` or a query embedding is not of the store's ``dim``
    or holds a non-finite value; query embeddings are L2-normalised (a zero one
    scores 0 everywhere).
    """

    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        """Top-``k`` memories by cosine (in [-1, 1], rounded to 6 decimals) for each row
        of ``embeddings``, shape (m, dim): ``m`` lists, by cosine desc then id. Cold-tier
        memories are not vector-searchable unless ``include_cold`` (docs/spec.md §4)."""

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        """Top-``k`` memories by BM25 (docs/spec.md §3) of ``text`` against memory content: only
        memories containing a query token (score > 0), by score desc then id; a text
        without a ``\\w`` token returns ``[]``."""

    def entity_search(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[EntityHit]:
        """Memories mentioning any of ``entity_ids``: at most ``k``, by number of given
        entities mentioned desc, cosine to ``embedding`` desc (0 without one), id.
        A hit's ``entity_ids`` are the given entities it mentions, sorted; ``roles`` is
        aligned with them, each the strongest role (subject, object, mention)."""

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
        """Memories whose time anchor (``Memory.time_anchor``: event time, else first
        observation) is in ``[start, end)``; score = cosine to ``embedding`` when given,
        else closeness to the window's centre, ``1 / (1 + |anchor − centre| in days)`` in
        (0, 1]; at most ``k``, by score desc then id. Raises InvalidInputError for a
        naive bound."""

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        """Distinct current relations (``valid_until`` unset) on paths of ≤ ``max_hops``
        from ``entity_ids``, walked in either direction; each once, by id."""

    def term_stats(self, namespace: str, terms: Sequence[str]) -> TermStats:
        """Document frequency of each (lower-cased) term over the current memories, and
        their number (the planner's lexical rarity, docs/spec.md §3)."""

    def memory_sessions(self, namespace: str, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The sessions each memory was observed in, sorted, by memory id (one query;
        ids not stored, or with no session, are left out). Ranking reads it for
        session support (``graphmem.retrieval.rescoring.support``)."""

    def memory_cosines(
        self, namespace: str, ids: Sequence[str], embedding: Vector
    ) -> dict[str, float]:
        """The cosine to ``embedding`` (in [-1, 1]; Neo4j's rounded to 6 decimals; 0 for a
        zero vector) of each stored memory of ``ids`` with an embedding, whatever its tier or
        currency, by memory id; ids not stored are left out. One query and no vector
        crosses back: the graph retriever weighs the relations of a subgraph by how
        close their asserting memories are to the question. Raises InvalidInputError
        for an embedding not of the store's ``dim`` or with a non-finite value."""


@runtime_checkable
class StoreForgetting(Protocol):
    """Forgetting on request (docs/spec.md §9.16, ``docs/forgetting.md``): the reads a forget is
    planned from, the one-transaction forget, and the deletion log."""

    def supersession_links(self, namespace: str, ids: Sequence[str]) -> list[Memory]:
        """Memories (without embeddings) whose ``superseded_by`` is one of ``ids``, by id:
        the history of a fact, walked backwards."""

    def relations_of(
        self, namespace: str, memory_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> list[Relation]:
        """Every relation (current or ended) asserted by one of ``memory_ids`` or touching
        one of ``entity_ids``, each once, by id."""

    def forget(self, namespace: str, plan: ForgetPlan, *, dry_run: bool = False) -> ForgetCounts:
        """Apply ``plan`` in one transaction and return what it removed; a ``dry_run``
        runs it and rolls it back (the counts are what it would remove). The plan's
        deletion record is written in the same transaction, with these counts, unless
        nothing was removed. Raises WriteConflictError, writing nothing, when a memory of
        ``plan.batch.expected_versions`` has another stored version."""

    def deletion_log(self, namespace: str) -> list[DeletionRecord]:
        """The deletion log of ``namespace``, oldest first (kept by ``delete_namespace``:
        it holds no content)."""

    def forgotten(self, namespace: str, key: str) -> bool:
        """Whether a deletion-log entry of ``namespace`` holds ``key``
        (:func:`graphmem.store.forgetting.forget_key`)."""

    def session_ids(self, namespace: str) -> list[str]:
        """The sessions with an observation in ``namespace``, sorted."""


@runtime_checkable
class MemoryStore(
    StoreLifecycle,
    StoreWrites,
    StoreMaintenance,
    StoreLookups,
    StoreRetrievers,
    StoreForgetting,
    Protocol,
):
    """A backend for graphmem: every role. See the module docstring."""


def memory_pages(
    store: StoreMaintenance, namespace: str, page_size: int, *, with_embeddings: bool = False
) -> Iterator[list[Memory]]:
    """Every memory of ``namespace`` (all tiers, current or not), in pages of up to
    ``page_size`` by id, through :meth:`StoreMaintenance.scan_memories` — the one paging
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
