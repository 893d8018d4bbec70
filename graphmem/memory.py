"""The facade: one object an application holds (SPEC §5).

>>> from graphmem import GraphMem                       # doctest: +SKIP
>>> with GraphMem() as memory:                          # doctest: +SKIP
...     memory.remember("alice", [{"content": "Alice prefers tea", "type": "Preference"}])
...     result = memory.recall("alice", "what does Alice drink?")

The constructor does no I/O; the store opens on first use (or ``open()``).
The store is Neo4j when ``settings.neo4j_uri`` is set, else the embedded store
under ``settings.data_dir``.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from types import TracebackType
from typing import Any, TypeVar

from pydantic import ValidationError

from graphmem.about import EntityReport, about_entity, resolve_entity
from graphmem.embedding import Embedder, EmbedderWrapper, make_embedder, unwrap
from graphmem.entities import EntityDictionary, EntityExtractor
from graphmem.errors import (
    EmbedderMismatchError,
    EntityNotFoundError,
    InvalidInputError,
    InvalidMemoryError,
    InvalidQueryError,
    MemoryNotFoundError,
)
from graphmem.extract import make_extractor
from graphmem.guards.consistency import consistency_scan
from graphmem.guards.drift import namespace_drift
from graphmem.guards.faithfulness import check_faithfulness
from graphmem.guards.judge import ClaimJudge, PairJudge
from graphmem.models import (
    ConsolidationReport,
    Entity,
    EntityDrift,
    FaithfulnessReport,
    Memory,
    MemoryCandidate,
    RecallQuery,
    RecallResult,
    ReembedReport,
    WriteReport,
)
from graphmem.retrieval.pipeline import RecallPipeline
from graphmem.retrieval.rerank import Reranker, reranker_from_settings
from graphmem.settings import Settings
from graphmem.store.base import (
    EmbedderRecord,
    MemoryFilter,
    MemoryStore,
    Vector,
    WriteBatch,
    versions_read,
)
from graphmem.write.conflicts import retry_on_conflict
from graphmem.write.consolidation import consolidate, reactivate_associated
from graphmem.write.dedup import DedupJudge, KeepDistinctJudge
from graphmem.write.lifecycle import CORRECTION_SESSION, confirm_memory, forget_session_batch
from graphmem.write.pipeline import WritePipeline
from graphmem.write.prefetch import PrefetchingEmbedder

_MIN_ID_PREFIX = 4
_AMBIGUOUS_SHOWN = 5
_NAMESPACE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$")
Clock = Callable[[], datetime]
_T = TypeVar("_T")


def _utc_now() -> datetime:
    return datetime.now(UTC)


def validate_namespace(namespace: str) -> str:
    """Namespaces are 1–128 chars of letters, digits and ``_ . : @ -``.

    Raises
    ------
    InvalidMemoryError
        (an :class:`InvalidInputError`) naming the field ``namespace``; raised for
        reads as well as writes.
    """
    if not isinstance(namespace, str) or not _NAMESPACE.match(namespace):
        raise InvalidMemoryError(
            "must be 1-128 characters of letters, digits, '_', '.', ':', '@', '-' "
            f"starting with a letter or digit; got {namespace!r}",
            field="namespace",
        )
    return namespace


def _field_error(exc: ValidationError, prefix: str) -> str:
    first = exc.errors()[0]
    # keep field names and indexes; drop pydantic's union-member tags ("literal[...]")
    loc = ".".join(str(p) for p in first["loc"] if isinstance(p, int) or str(p).isidentifier())
    return f"{prefix}.{loc}" if loc else prefix


def make_store(settings: Settings) -> MemoryStore:
    """The store the settings select: Neo4j when a URI is set, else embedded."""
    if settings.neo4j_uri:
        from graphmem.store.neo4j import Neo4jStore

        return Neo4jStore.from_settings(settings)
    from graphmem.store.embedded import EmbeddedStore

    return EmbeddedStore.from_settings(settings)


class _QueryEmbedder(EmbedderWrapper):
    """The embedder as recall sees it: a query vector of another shape (a broken or
    misconfigured embedder) is refused before any retriever indexes into it. The
    write pipeline checks the shape of its own vectors."""

    def __init__(self, inner: Embedder, dim: int) -> None:
        super().__init__(inner)
        self._dim = dim

    def embed(self, texts: Sequence[str]) -> Vector:
        vectors = self._inner.embed(texts)
        shape = getattr(vectors, "shape", None)
        if shape != (len(texts), self._dim):
            raise InvalidQueryError(
                f"embedder returned shape {shape}, expected ({len(texts)}, {self._dim})",
                field="embedding",
            )
        return vectors


class GraphMem:
    """graphmem's public entry point: remember, recall, confirm, correct, forget.

    Parameters
    ----------
    settings : Settings, optional
        Defaults from the environment (``GRAPHMEM_*``).
    store, embedder, judge, extractor, reranker, clock : optional
        Replace a default component (tests, other backends).
    claim_judge, pair_judge : optional
        Judges of the guards (SPEC §10, §11): whether a memory entails an answer's
        claim (:meth:`faithfulness`) and whether two similar memories contradict (the
        consistency scan of :meth:`consolidate`). None: the offline rules.
    owns_store : bool
        Whether :meth:`close` closes the store too (default). Pass ``False`` for a
        store the caller keeps using after this facade: ``close`` then stops only
        the facade's own threads.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: MemoryStore | None = None,
        embedder: Embedder | None = None,
        judge: DedupJudge | None = None,
        extractor: EntityExtractor | None = None,
        reranker: Reranker | None = None,
        clock: Clock | None = None,
        claim_judge: ClaimJudge | None = None,
        pair_judge: PairJudge | None = None,
        owns_store: bool = True,
    ) -> None:
        self.settings = settings or Settings()
        self.store = store or make_store(self.settings)
        self.owns_store = owns_store
        self.embedder = embedder or make_embedder(self.settings)
        self._clock = clock or _utc_now
        self.claim_judge = claim_judge
        self.pair_judge = pair_judge
        self._dictionaries: dict[str, EntityDictionary] = {}
        self._lock = threading.RLock()
        # One lock per namespace around every read-decide-write (remember, confirm,
        # correct, forget_session, delete_namespace): threads of one facade take turns
        # instead of colliding. Writers in other facades or processes are kept correct
        # by the store's compare-and-set on memory versions: a write whose memories
        # changed since its reads conflicts and is recomputed (``_retrying``).
        self._namespace_locks: dict[str, threading.RLock] = {}
        self._opened = False
        # the entity (and relation) extractor of the write path
        self.extractor: EntityExtractor = extractor or make_extractor(self.settings.extractor)
        # namespace -> the embedder that wrote its vectors, read on open (issue 17)
        self._records: dict[str, EmbedderRecord] | None = None
        # remember_many encodes batch i + 1 while batch i is deduplicated and written
        self._prefetcher = PrefetchingEmbedder(self.embedder)
        self._writer = WritePipeline(
            self.store,
            self._prefetcher,
            self.settings,
            judge=judge or KeepDistinctJudge(),
            extractor=self.extractor,
            clock=self._clock,
            dictionary=self._dictionary,
        )
        self._reader = RecallPipeline(
            self.store,
            _QueryEmbedder(self.embedder, self.settings.embedding_dim),
            self.settings,
            clock=self._clock,
            dictionary=self._dictionary,
            reranker=reranker or reranker_from_settings(self.settings),
        )

    # -------------------------------------------------------------- lifecycle
    def open(self) -> GraphMem:
        """Open the store (connect, create the schema) and read which embedder wrote each
        namespace's vectors; with a remote embedder (``GRAPHMEM_EMBEDDER=openai``), ask the
        server for one vector to check its dimension against the store's. Idempotent.

        Raises
        ------
        EmbeddingError
            When an OpenAI-compatible server cannot be reached or returns vectors of
            another dimension than the store's vector index.
        """
        with self._lock:
            if not self._opened:
                self.store.open()
                self._opened = True
            if self._records is None:
                self._records = dict(self.store.embedder_records())
                if getattr(unwrap(self.embedder), "remote", False):
                    self.embedder.embed(["graphmem: check the embedding dimension"])
        return self

    @property
    def closed(self) -> bool:
        """True until the store is opened (``open()``, ``with`` or first use), and again
        after ``close()``."""
        return not self._opened

    @property
    def embedder_record(self) -> EmbedderRecord:
        """What this facade's vectors are recorded as: the embedder's name and dimension."""
        return EmbedderRecord(self.embedder.name, self.embedder.dim)

    def _check_embedder(self, namespace: str) -> None:
        """Refuse a namespace whose vectors another embedder wrote (issue 17): vectors of
        two models are not comparable. Called by the calls that embed or compare vectors
        (remember, recall, consolidate) after :meth:`open`."""
        mine = self.embedder_record
        with self._lock:
            record = (self._records or {}).get(namespace)
        if record is not None and record != mine:
            raise EmbedderMismatchError(
                f"namespace {namespace!r} holds vectors written by {record}, but the"
                f" configured embedder is {mine} (GRAPHMEM_EMBEDDER={self.settings.embedder});"
                " vectors of two models are not comparable: configure the embedder that"
                f" wrote them, or convert the namespace with `graphmem reembed -n {namespace}`",
                namespaces=(namespace,),
            )

    def _record_embedder(self, namespace: str) -> None:
        """Check, then record this facade's embedder for ``namespace`` before a write."""
        self._check_embedder(namespace)
        with self._lock:
            if self._records is not None and namespace in self._records:
                return
        mine = self.embedder_record
        self.store.set_embedder_record(namespace, mine)
        with self._lock:
            if self._records is not None:
                self._records[namespace] = mine

    def close(self) -> None:
        """Write pending access updates, stop the worker threads and close the store if
        the facade owns it (``owns_store``). Idempotent; the facade can be opened again
        afterwards (``open()``, ``with`` or any call)."""
        with self._lock:
            self._reader.close()
            self._prefetcher.close()
            if self._opened:
                if self.owns_store:
                    self.store.close()
                self._opened = False

    def flush(self) -> None:
        """Wait until every access update of the recalls so far is written to the store.

        Recall records accesses on a background thread; reads through the facade
        (``get``, ``stats``, ``remember``, ...) flush first, so only code reading the
        store directly (benchmarks, tools) needs this.

        Raises
        ------
        StoreError
            The error a background access write failed with, if any.
        """
        self._reader.flush()

    @property
    def recall_pipeline(self) -> RecallPipeline:
        """The read pipeline behind :meth:`recall`, for replaying a recall's steps
        (``prepare`` → ``retrieve`` → ``fuse_and_rank``, none of which writes), as the
        LoCoMo ablations do (:mod:`graphmem.locomo.ablation`). Use :meth:`recall`
        for answers."""
        return self._reader

    def __enter__(self) -> GraphMem:
        return self.open()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _dictionary(self, namespace: str) -> EntityDictionary:
        """The namespace's entity dictionary, cached; dropped after every write."""
        with self._lock:
            found = self._dictionaries.get(namespace)
            if found is None:
                found = EntityDictionary(self.store.list_entities(namespace))
                self._dictionaries[namespace] = found
            return found

    def _invalidate(self, namespace: str) -> None:
        with self._lock:
            self._dictionaries.pop(namespace, None)

    def _namespace_lock(self, namespace: str) -> threading.RLock:
        """The lock serialising this facade's writes to ``namespace`` (re-entrant:
        ``correct`` calls ``remember``). Writers in other processes, or through
        another facade, are not serialised by it (see ``_retrying``)."""
        with self._lock:
            return self._namespace_locks.setdefault(namespace, threading.RLock())

    def _retrying(self, namespace: str, work: Callable[[], _T]) -> tuple[_T, int]:
        """Run a read-compute-write until no other writer changed its memories between
        its reads and its write (:func:`~graphmem.write.conflicts.retry_on_conflict`);
        the entity dictionary is re-read after each conflict. Returns the result and
        the attempt that succeeded."""
        return retry_on_conflict(
            work,
            attempts=self.settings.write_conflict_attempts,
            backoff_ms=self.settings.write_conflict_backoff_ms,
            on_conflict=lambda _exc: self._invalidate(namespace),
        )

    # -------------------------------------------------------------- writes
    def remember(
        self, namespace: str, candidates: Iterable[MemoryCandidate | Mapping[str, Any]]
    ) -> WriteReport:
        """Persist memory candidates (SPEC §2); all or nothing.

        When another writer changes a memory this call merges into between its
        reads and its write, the call reads and recomputes again (``attempts`` in
        the report says how many it took).

        Raises
        ------
        InvalidMemoryError
            When any candidate is invalid — naming ``candidates[i].field`` —
            before anything is written.
        WriteConflictError
            When ``Settings.write_conflict_attempts`` attempts all conflicted.
        """
        validate_namespace(namespace)
        parsed: list[MemoryCandidate] = []
        for i, raw in enumerate(candidates):
            try:
                parsed.append(
                    raw if isinstance(raw, MemoryCandidate) else MemoryCandidate.model_validate(raw)
                )
            except ValidationError as exc:
                raise InvalidMemoryError(
                    exc.errors()[0]["msg"], field=_field_error(exc, f"candidates[{i}]")
                ) from exc
        self.open()
        self._reader.flush()
        with self._namespace_lock(namespace):
            self._record_embedder(namespace)
            try:
                report, attempts = self._retrying(
                    namespace, lambda: self._writer.remember(namespace, parsed)
                )
            finally:
                self._invalidate(namespace)
        return report.model_copy(update={"attempts": attempts}) if attempts > 1 else report

    def confirm(self, namespace: str, memory_id: str, *, session_id: str | None = None) -> Memory:
        """Explicit user confirmation (SPEC §2.10): ``s = max(s, 0.80)``, ``n + 1``,
        confidence recomputed and capped at 0.99.

        Raises
        ------
        MemoryNotFoundError
            When ``memory_id`` is not in the namespace.
        InvalidMemoryError
            When the memory is superseded (``field="memory_id"``): confirming it would
            change nothing the user sees; confirm the current memory, or ``correct``
            it back.
        """

        def attempt() -> Memory:
            memory = self.get(namespace, memory_id, with_embedding=True)
            if not memory.is_current:
                raise InvalidMemoryError(
                    f"memory {memory_id} is superseded by {memory.superseded_by}; confirm the"
                    " current memory, or correct it to restore this claim",
                    field="memory_id",
                )
            updated = confirm_memory(memory, self.settings, self._clock(), session_id=session_id)
            batch = WriteBatch(memories=[updated], expected_versions=versions_read([memory]))
            self.store.write(namespace, batch)
            return updated

        with self._namespace_lock(namespace):
            updated, _ = self._retrying(namespace, attempt)
        return updated.model_copy(update={"embedding": None})

    def correct(
        self,
        namespace: str,
        memory_id: str,
        content: str,
        *,
        session_id: str = CORRECTION_SESSION,
    ) -> tuple[Memory, Memory]:
        """Replace a memory's content (SPEC §2.11: an explicit correction supersedes
        regardless of confidence). Returns ``(old, new)``.

        One atomic write: the correction is stored (or merged into another memory
        that already states it — never into the memory it corrects) and the old
        memory superseded by it, with the relations it asserted (§9.9). Everything is
        validated first: on an error nothing changes.

        Raises
        ------
        MemoryNotFoundError
            When ``memory_id`` is not in the namespace.
        InvalidMemoryError
            When the content is blank or the corrected memory's own (``field="content"``),
            or the memory is already superseded (``field="memory_id"``; correct the
            current one).
        """
        validate_namespace(namespace)
        with self._namespace_lock(namespace):
            try:
                return self._correct(namespace, memory_id, content, session_id)
            finally:
                self._invalidate(namespace)

    def _correct(
        self, namespace: str, memory_id: str, content: str, session_id: str
    ) -> tuple[Memory, Memory]:
        first = self.get(namespace, memory_id)
        try:
            candidate = MemoryCandidate(
                content=content,
                type=first.type,
                source_level="direct",
                extractor="verbatim",
                subject=first.subject,
                predicate=first.predicate,
                session_id=session_id,
                observed_at=self._clock(),
            )
        except ValidationError as exc:
            raise InvalidMemoryError(
                exc.errors()[0]["msg"], field=_field_error(exc, "correction")
            ) from exc

        def attempt() -> WriteReport:
            old = self.get(namespace, memory_id, with_embedding=True)
            if not old.is_current:
                raise InvalidMemoryError(
                    f"memory {memory_id} is already superseded by {old.superseded_by};"
                    " correct the current memory instead",
                    field="memory_id",
                )
            return self._writer.remember(namespace, [candidate], corrects=old)

        self._reader.flush()
        report, _ = self._retrying(namespace, attempt)
        new_id = report.memory_ids[0]
        assert new_id is not None  # a correction is never rejected (checked above)
        return self.get(namespace, memory_id), self.get(namespace, new_id)

    def forget_session(
        self, namespace: str, session_id: str, *, dry_run: bool = False, batch_size: int = 500
    ) -> dict[str, list[str]]:
        """Remove a session's contributions (seed 000 "GDPR deletion").

        Memories only the session supports are deleted, the rest recomputed
        without its observations; the session's turns and the session itself go
        with its last memory. One atomic store write per ``batch_size`` affected
        memories (a failure part-way leaves whole batches done; rerunning finishes).

        Returns ``{"deleted": [...], "updated": [...]}`` (what would change, with
        ``dry_run``).
        """
        validate_namespace(namespace)
        if batch_size < 1:
            raise InvalidInputError(f"must be >= 1, got {batch_size}", field="batch_size")
        self.open()
        deleted: list[str] = []
        updated: list[str] = []

        def attempt() -> None:
            # after a conflict, the batches already written no longer show the session
            affected = self.store.memories_in_session(namespace, session_id)
            for start in range(0, len(affected), batch_size):
                chunk = affected[start : start + batch_size]
                batch, gone, changed = forget_session_batch(chunk, session_id, self.settings)
                if not dry_run and batch:
                    self.store.write(namespace, batch)
                deleted.extend(gone)
                updated.extend(changed)

        with self._namespace_lock(namespace):
            try:
                self._retrying(namespace, attempt)
            finally:
                if not dry_run:
                    self._invalidate(namespace)
        return {"deleted": deleted, "updated": updated}

    def delete_namespace(self, namespace: str) -> int:
        """Delete everything in ``namespace``; returns the number of memories removed."""
        validate_namespace(namespace)
        self.open()
        with self._namespace_lock(namespace):
            self._invalidate(namespace)
            deleted = self.store.delete_namespace(namespace)
            if self._records is not None:
                self._records.pop(namespace, None)
            return deleted

    def reembed(
        self,
        namespace: str,
        *,
        batch_size: int = 256,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReembedReport:
        """Re-embed every memory of ``namespace`` (all tiers, current or not) with this
        facade's embedder and record it as the namespace's embedder (issue 17).

        This is how a namespace written by another embedder is converted. Pages of ``batch_size`` memories, each written
        in one compare-and-set transaction (a page another writer changed meanwhile is
        re-read and re-embedded). ``progress(done, total)`` is called after each page.
        Safe to interrupt and re-run: the record changes only after the last page.

        Raises
        ------
        InvalidInputError
            For an invalid namespace or ``batch_size < 1``.
        ConfigurationError
            When the embedder's dimension differs from the store's vector index (a
            model of another dimension needs a new store).
        """
        validate_namespace(namespace)
        if batch_size < 1:
            raise InvalidInputError(f"must be >= 1, got {batch_size}", field="batch_size")
        self.open()
        self._reader.flush()
        mine = self.embedder_record
        store_dim = getattr(self.store, "dim", mine.dim)
        if store_dim != mine.dim:
            raise EmbedderMismatchError(
                f"the store's vector index has {store_dim} dimensions and {mine} has"
                f" {mine.dim}: re-embedding cannot change a store's dimension; write the"
                " memories into a store created for this model",
                namespaces=(namespace,),
            )
        started = time.perf_counter()
        with self._namespace_lock(namespace):
            before = self.store.embedder_records().get(namespace)
            total = self.store.count_memories(namespace)
            done = 0
            after_id: str | None = None
            while True:
                memories, _attempts = self._retrying(
                    namespace, partial(self._reembed_page, namespace, after_id, batch_size)
                )
                if not memories:
                    break
                after_id = memories[-1].id
                done += len(memories)
                if progress is not None:
                    progress(done, max(total, done))
            self.store.set_embedder_record(namespace, mine)
            with self._lock:
                if self._records is not None:
                    self._records[namespace] = mine
            self._invalidate(namespace)
        return ReembedReport(
            namespace=namespace,
            memories=done,
            before=None if before is None else str(before),
            after=str(mine),
            seconds=time.perf_counter() - started,
        )

    def _reembed_page(self, namespace: str, after_id: str | None, limit: int) -> list[Memory]:
        """Re-embed and write (compare-and-set) the next page of ``namespace``; returns it."""
        memories = self.store.scan_memories(namespace, after_id, limit)
        if memories:
            vectors = self.embedder.embed([m.content for m in memories])
            updated = [
                m.model_copy(update={"embedding": tuple(map(float, v))})
                for m, v in zip(memories, vectors, strict=True)
            ]
            batch = WriteBatch(memories=updated, expected_versions=versions_read(memories))
            self.store.write(namespace, batch)
        return memories

    # -------------------------------------------------------------- lifecycle
    def consolidate(
        self,
        namespace: str,
        *,
        now: datetime | None = None,
        batch_size: int = 500,
        since: datetime | None = None,
    ) -> ConsolidationReport:
        """Run the consolidation pass (SPEC §4, §10): the consistency scan, association
        links, the retrievability flag (§9.5), the cold tier and concept drift; see
        :mod:`graphmem.write.consolidation` and :mod:`graphmem.guards`.

        1. the consistency scan (:func:`graphmem.guards.consistency.consistency_scan`)
           supersedes, by §9.9, one memory of each pair of current memories that
           contradict each other by §9.10 (the facade's ``pair_judge`` decides the
           ambiguous pairs); ``report.consistency`` lists the pairs with their reasons;
        2. links, flags and tiers (:func:`graphmem.write.consolidation.consolidate`);
        3. concept drift per entity (:func:`graphmem.guards.drift.namespace_drift`):
           ``report.drift`` lists the drifting entities; nothing is changed for them.

        Idempotent, in short batched transactions, safe beside recall; an
        application schedules it (e.g. daily). ``now`` defaults to the clock;
        ``since`` (e.g. the previous pass's ``now``) limits the neighbour searches
        (scan and links) and the drift test to memories observed since then.

        Raises
        ------
        InvalidInputError
            For a naive ``now`` / ``since`` or ``batch_size < 1``.
        """
        validate_namespace(namespace)
        for name, value in (("now", now), ("since", since)):
            if value is not None and value.utcoffset() is None:
                raise InvalidInputError("must be timezone-aware", field=name)
        if batch_size < 1:
            raise InvalidInputError(f"must be >= 1, got {batch_size}", field="batch_size")
        self.open()
        self._check_embedder(namespace)
        self._reader.flush()
        with self._namespace_lock(namespace):
            try:
                consistency = consistency_scan(
                    self.store,
                    self.settings,
                    namespace,
                    self._dictionary(namespace),
                    since=since,
                    batch_size=batch_size,
                    judge=self.pair_judge,
                )
            finally:
                self._invalidate(namespace)
        report = consolidate(
            self.store,
            self.settings,
            namespace,
            self._clock() if now is None else now,
            batch_size=batch_size,
            since=since,
        )
        drift = namespace_drift(
            self.store, self.settings, namespace, since=since, batch_size=batch_size
        )
        return report.model_copy(
            update={"consistency": consistency, "drift": tuple(d for d in drift if d.drift)}
        )

    def reactivate_associated(
        self,
        namespace: str,
        memory_ids: Sequence[str],
        *,
        now: datetime | None = None,
        session_id: str | None = None,
    ) -> list[str]:
        """Cold reactivation (seed 003): cold memories linked by an association to
        ``memory_ids`` (what a recall returned) get the associative stability boost
        and return to hot. Returns their ids; see
        :func:`graphmem.write.consolidation.reactivate_associated`."""
        validate_namespace(namespace)
        self.open()
        return reactivate_associated(
            self.store,
            self.settings,
            namespace,
            memory_ids,
            self._clock() if now is None else now,
            session_id,
        )

    # -------------------------------------------------------------- reads
    def recall(
        self, namespace: str, query: str | RecallQuery | Mapping[str, Any], **options: Any
    ) -> RecallResult:
        """Recall memories for a question (SPEC §3); see :class:`RecallQuery` for options.

        Raises
        ------
        InvalidQueryError
            Empty text, k out of range, unknown option — naming the field.
        """
        validate_namespace(namespace)
        try:
            if isinstance(query, RecallQuery):
                parsed = query.model_copy(update=options) if options else query
            elif isinstance(query, str):
                parsed = RecallQuery.model_validate({"text": query, **options})
            else:
                parsed = RecallQuery.model_validate({**query, **options})
        except ValidationError as exc:
            raise InvalidQueryError(
                exc.errors()[0]["msg"], field=_field_error(exc, "query")
            ) from exc
        if parsed.retrievers is not None:
            unknown = set(parsed.retrievers) - set(self.settings.retriever_weights)
            if unknown:
                raise InvalidQueryError(
                    f"unknown retriever(s) {sorted(unknown)}", field="query.retrievers"
                )
        self.open()
        self._check_embedder(namespace)
        return self._reader.recall(namespace, parsed)

    def get(self, namespace: str, memory_id: str, *, with_embedding: bool = False) -> Memory:
        """A memory with its provenance (observations: session, turn, time)."""
        validate_namespace(namespace)
        self.open()
        self._reader.flush()
        found = self.store.get_memories(namespace, [memory_id], with_embeddings=with_embedding)
        if not found:
            raise MemoryNotFoundError(memory_id, namespace)
        return found[0]

    def history(self, namespace: str, memory_id: str) -> list[Memory]:
        """The memory and the chain of memories that superseded it, oldest first."""
        chain = [self.get(namespace, memory_id)]
        seen = {memory_id}
        while chain[-1].superseded_by and chain[-1].superseded_by not in seen:
            seen.add(chain[-1].superseded_by)
            chain.append(self.get(namespace, chain[-1].superseded_by))
        return chain

    def about_entity(self, namespace: str, name: str, *, limit: int = 50) -> EntityReport:
        """Everything current about a named entity: the memories that mention it (most
        confident first, at most ``limit``) and its relations with the neighbours'
        names (see :mod:`graphmem.about`).

        Raises
        ------
        InvalidInputError
            Blank ``name`` or ``limit`` outside 1–1000.
        EntityNotFoundError
            When no entity of the namespace has this name or alias.
        """
        validate_namespace(namespace)
        if not isinstance(name, str) or not name.strip():
            raise InvalidInputError("must be a non-blank entity name", field="name")
        if not 1 <= limit <= 1000:
            raise InvalidInputError(f"must be in 1..1000, got {limit}", field="limit")
        self.open()
        self._reader.flush()
        known = self._dictionary(namespace)
        entity = resolve_entity(known, name)
        if entity is None:
            raise EntityNotFoundError(name, namespace)
        return about_entity(self.store, namespace, entity, known, limit=limit)

    def stats(self, namespace: str) -> dict[str, int]:
        """Counts for the namespace (memories, current, superseded, cold, entities, ...)."""
        validate_namespace(namespace)
        self.open()
        self._reader.flush()
        return self.store.stats(namespace)

    def namespaces(self) -> list[str]:
        """Namespaces with data in the store."""
        self.open()
        return self.store.namespaces()

    # -------------------------------------------------------------- guards (SPEC §10)
    def faithfulness(
        self,
        namespace: str,
        answer: str,
        memories: Sequence[str] | RecallResult | None = None,
        *,
        query: str | None = None,
        k: int | None = None,
    ) -> FaithfulnessReport:
        """Read-time faithfulness of ``answer`` (SPEC §10): its claims, each supported
        or not by one of the memories, ``faithfulness = supported / total`` and the
        risk level; see :mod:`graphmem.guards.faithfulness`.

        Parameters
        ----------
        namespace : str
        answer : str
            The agent's answer (1–20,000 characters).
        memories : list of memory ids, RecallResult, or None
            What the answer rests on: ids, or the recall the agent answered from. None:
            recall ``query`` (else the answer itself) now, without recording accesses.
        query : str, optional
            The question, for that recall.
        k : int, optional
            How many memories that recall returns (default ``top_k``).

        Raises
        ------
        InvalidInputError
            For a blank answer, or memory ids not in the namespace (named).
        """
        validate_namespace(namespace)
        if not isinstance(answer, str) or not answer.strip() or len(answer) > 20_000:
            raise InvalidInputError("must be 1-20000 characters, not blank", field="answer")
        self.open()
        if memories is None:
            recalled = self.recall(namespace, query or answer, k=k, record_access=False)
            ids = [hit.memory.id for hit in recalled.hits]
        elif isinstance(memories, RecallResult):
            if memories.namespace != namespace:
                raise InvalidInputError(
                    f"is a recall of namespace {memories.namespace!r}", field="memories"
                )
            ids = [hit.memory.id for hit in memories.hits]
        else:
            ids = list(dict.fromkeys(memories))
        found = self.store.get_memories(namespace, ids, with_embeddings=True)
        missing = sorted(set(ids) - {m.id for m in found})
        if missing:
            raise InvalidInputError(
                f"no memory {missing[0]!r} in namespace {namespace!r}"
                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""),
                field="memories",
            )
        return check_faithfulness(
            answer,
            found,
            self.embedder,
            similarity=self.settings.faithfulness_similarity,
            dictionary=self._dictionary(namespace),
            judge=self.claim_judge,
        )

    def entity(self, namespace: str, name: str) -> Entity:
        """The entity ``name`` (a name, alias or first name) resolves to.

        Raises
        ------
        InvalidInputError
            When no entity of the namespace has that name (field ``name``).
        """
        validate_namespace(namespace)
        self.open()
        entity = resolve_entity(self._dictionary(namespace), name) if name.strip() else None
        if entity is None:
            raise InvalidInputError(
                f"no entity named {name!r} in namespace {namespace!r}", field="name"
            )
        return entity

    def entity_memories(
        self, namespace: str, name: str, *, include_history: bool = False
    ) -> tuple[Entity, list[Memory]]:
        """An entity and every memory that mentions it, oldest first (by time anchor:
        event time, else first observation; then id). Superseded memories only with
        ``include_history``. Raises InvalidInputError for an unknown name."""
        entity = self.entity(namespace, name)
        self._reader.flush()
        limit = max(1, self.store.count_memories(namespace))
        hits = self.store.entity_search(
            namespace, [entity.id], limit, include_history=include_history
        )
        found = self.store.get_memories(namespace, [h.memory_id for h in hits])
        return entity, sorted(found, key=lambda m: (m.time_anchor, m.id))

    def drift(
        self, namespace: str, name: str | None = None, *, since: datetime | None = None
    ) -> list[EntityDrift]:
        """Concept drift (SPEC §10): each entity's best before / after split (or only
        ``name``'s), drifting ones first; see :mod:`graphmem.guards.drift`. Reported,
        never acted on. ``since``: only entities with a memory observed since then.

        Raises
        ------
        InvalidInputError
            For an unknown ``name`` or a naive ``since``.
        """
        validate_namespace(namespace)
        if since is not None and since.utcoffset() is None:
            raise InvalidInputError("must be timezone-aware", field="since")
        self.open()
        self._reader.flush()
        ids = None if name is None else [self.entity(namespace, name).id]
        return namespace_drift(self.store, self.settings, namespace, entity_ids=ids, since=since)

    def remember_many(
        self,
        namespace: str,
        candidates: Sequence[MemoryCandidate | Mapping[str, Any]],
        *,
        batch_size: int = 256,
        on_batch: Callable[[WriteReport, int], None] | None = None,
    ) -> list[WriteReport]:
        """``remember`` in batches of ``batch_size`` (each atomic); returns one report per
        batch, in order, once every batch is written.

        While a batch is deduplicated and written, the next batch's texts are
        already being embedded (one background thread; see
        :mod:`graphmem.write.prefetch`), so ingest runs close to the model's speed.
        ``on_batch(report, candidates_done)`` is called after each batch (progress).

        Raises
        ------
        InvalidInputError
            For ``batch_size < 1`` (nothing written).
        InvalidMemoryError, StoreError
            As ``remember``; the batches before the failing one stay written.
        """
        if batch_size < 1:
            raise InvalidInputError(f"must be >= 1, got {batch_size}", field="batch_size")
        reports: list[WriteReport] = []
        for start in range(0, len(candidates), batch_size):
            upcoming = candidates[start + batch_size : start + 2 * batch_size]
            self._prefetcher.prefetch([text for c in upcoming if (text := _content(c))])
            report = self.remember(namespace, candidates[start : start + batch_size])
            reports.append(report)
            if on_batch is not None:
                on_batch(report, min(len(candidates), start + batch_size))
        return reports

    def list_memories(
        self,
        namespace: str,
        *,
        where: MemoryFilter | None = None,
        entity: str | None = None,
        after_id: str | None = None,
        limit: int = 100,
    ) -> list[Memory]:
        """Memories of ``namespace`` by id — current, superseded, cold and unretrievable
        alike unless ``where`` filters them — without embeddings (``graphmem list``;
        nothing is hidden from it). ``entity`` keeps those mentioning the entity with
        that name or alias; page with ``after_id`` = the last id returned.

        Raises
        ------
        InvalidInputError
            For ``limit < 1``, or an ``entity`` the namespace does not know
            (``field="entity"``).
        """
        validate_namespace(namespace)
        where = where or MemoryFilter()
        self.open()
        self._reader.flush()
        if entity is not None:
            found = self._dictionary(namespace).resolve(entity)
            if found is None:
                raise InvalidInputError(
                    f"no entity named {entity!r} in namespace {namespace!r}", field="entity"
                )
            where = replace(where, entity_ids=(*where.entity_ids, found[0]))
        return self.store.list_memories(namespace, where, after_id, limit)

    def resolve_id(self, namespace: str, memory_id: str) -> str:
        """The full id of the memory ``memory_id`` names: the id itself, or a unique
        prefix of one (the 8 characters tables show).

        Raises
        ------
        MemoryNotFoundError
            When no memory id starts with it.
        InvalidInputError
            When the prefix is shorter than 4 characters or names several memories
            (``field="memory_id"``; the message lists them).
        """
        validate_namespace(namespace)
        self.open()
        self._reader.flush()
        if self.store.get_memories(namespace, [memory_id]):
            return memory_id
        if len(memory_id) < _MIN_ID_PREFIX:
            raise InvalidInputError(
                f"{memory_id!r} is too short: give at least {_MIN_ID_PREFIX} characters of an id",
                field="memory_id",
            )
        # ids sort lexicographically: those starting with the prefix come right after it
        page = self.store.scan_memories(namespace, memory_id, _AMBIGUOUS_SHOWN + 1)
        matches = [m for m in page if m.id.startswith(memory_id)]
        if not matches:
            raise MemoryNotFoundError(memory_id, namespace)
        if len(matches) > 1:
            shown = "\n".join(f"  {m.id}  {m.content[:60]}" for m in matches[:_AMBIGUOUS_SHOWN])
            more = " (and more)" if len(matches) > _AMBIGUOUS_SHOWN else ""
            raise InvalidInputError(
                f"{memory_id!r} is the start of several memory ids{more}; give more"
                f" characters:\n{shown}",
                field="memory_id",
            )
        return matches[0].id


def _content(candidate: MemoryCandidate | Mapping[str, Any]) -> str | None:
    """A candidate's text if it has one (prefetching skips anything else; validation
    happens in ``remember``)."""
    content = (
        candidate.content if isinstance(candidate, MemoryCandidate) else candidate.get("content")
    )
    return content if isinstance(content, str) and content else None
