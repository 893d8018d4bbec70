"""The facade's state and lifecycle: settings, store, pipelines, locks, open/close.

:class:`FacadeBase` holds what every call of :class:`graphmem.GraphMem` shares;
the calls themselves live in :mod:`graphmem.facade.reads`,
:mod:`graphmem.facade.writes` and :mod:`graphmem.facade.maintenance`.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Self, TypeVar

from pydantic import ValidationError

from graphmem.embedding import Embedder, EmbedderWrapper, make_embedder, unwrap
from graphmem.entities import EntityDictionary, EntityExtractor, LinkConfidences
from graphmem.errors import (
    ClosedError,
    EmbedderMismatchError,
    GraphMemError,
    InvalidMemoryError,
    InvalidQueryError,
)
from graphmem.extract import make_extractor
from graphmem.facade.prefetching_embedder import PrefetchingEmbedder
from graphmem.facade.write_retry import retry_on_conflict
from graphmem.guards.judge import ClaimJudge, PairJudge
from graphmem.retrieval.pipeline import RecallPipeline
from graphmem.retrieval.ranking.attribute_examples import warm_examples
from graphmem.retrieval.ranking.rerank import Reranker, reranker_from_settings
from graphmem.retrieval.rescoring.masking import warm_masked
from graphmem.settings import Settings
from graphmem.store.base import (
    EmbedderRecord,
    MemoryStore,
    Vector,
)
from graphmem.write.dedup import DedupJudge, KeepDistinctJudge
from graphmem.write.pipeline import WritePipeline

_NAMESPACE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$")
Clock = Callable[[], datetime]
_T = TypeVar("_T")
log = logging.getLogger("graphmem")


def utc_now() -> datetime:
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


def field_error(exc: ValidationError, prefix: str) -> str:
    first = exc.errors()[0]
    # keep field names and indexes; drop pydantic's union-member tags ("literal[...]")
    loc = ".".join(str(p) for p in first["loc"] if isinstance(p, int) or str(p).isidentifier())
    return f"{prefix}.{loc}" if loc else prefix


def make_store(settings: Settings) -> MemoryStore:
    """The store the settings select: Neo4j when a URI is set, else embedded."""
    if settings.store.neo4j_uri:
        from graphmem.store.neo4j import Neo4jStore

        return Neo4jStore.from_settings(settings)
    from graphmem.store.embedded import EmbeddedStore

    return EmbeddedStore.from_settings(settings)


class QueryEmbedder(EmbedderWrapper):
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


class FacadeBase:
    """The state behind :class:`graphmem.GraphMem` (its parameters are documented there)."""

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
        self._clock = clock or utc_now
        if self.settings.llm.llm_judge:  # the chat model judges what no judge was given for
            from graphmem.extract.judge import LLMJudge

            llm_judge = LLMJudge.from_settings(self.settings)
            judge, claim_judge = judge or llm_judge, claim_judge or llm_judge
            pair_judge = pair_judge or llm_judge
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
        # set by close(): calls refuse (ClosedError) until open() is called again
        self._closed = False
        # the entity (and relation) extractor of the write path
        self.extractor: EntityExtractor = extractor or make_extractor(self.settings.write.extractor)
        # namespace -> the embedder that wrote its vectors, read on open
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
            QueryEmbedder(self.embedder, self.settings.embedding.embedding_dim),
            self.settings,
            clock=self._clock,
            dictionary=self._dictionary,
            reranker=reranker or reranker_from_settings(self.settings),
        )

    # -------------------------------------------------------------- lifecycle
    def open(self) -> Self:
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
            self._closed = False
            if not self._opened:
                self.store.open()
                self._opened = True
            if self._records is None:
                self._records = dict(self.store.embedder_records())
                if getattr(unwrap(self.embedder), "remote", False):
                    self.embedder.embed(["graphmem: check the embedding dimension"])
        return self

    def _use(self) -> None:
        """Open on first use (lazily); after :meth:`close`, refuse until :meth:`open`.

        Raises
        ------
        ClosedError
            When the facade was closed (and not opened again).
        """
        if self._closed:
            raise ClosedError(
                "this GraphMem is closed (close() was called, or its with block ended);"
                " call open() to use it again"
            )
        self.open()

    @property
    def closed(self) -> bool:
        """True until the store is opened (``open()``, ``with`` or first use), and again
        after ``close()`` — then every call raises :class:`~graphmem.errors.ClosedError`
        until ``open()`` (or a new ``with`` block) reopens it."""
        return not self._opened

    @property
    def embedder_record(self) -> EmbedderRecord:
        """What this facade's vectors are recorded as: the embedder's name and dimension."""
        return EmbedderRecord(self.embedder.name, self.embedder.dim)

    def _check_embedder(self, namespace: str) -> None:
        """Refuse a namespace whose vectors another embedder wrote: vectors of
        two models are not comparable. Called by the calls that embed or compare vectors
        (remember, recall, consolidate) after :meth:`open`."""
        mine = self.embedder_record
        with self._lock:
            record = (self._records or {}).get(namespace)
        if record is not None and record != mine:
            raise EmbedderMismatchError(
                f"namespace {namespace!r} holds vectors written by {record}, but the"
                f" configured embedder is {mine} (GRAPHMEM_EMBEDDER={self.settings.embedding.embedder});"
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
        the facade owns it (``owns_store``). Closing twice is harmless. Afterwards every
        call raises :class:`~graphmem.errors.ClosedError` until :meth:`open` (or a new
        ``with`` block) reopens the facade."""
        with self._lock:
            self._closed = True
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
        LoCoMo ablations do (``bench/locomo/ablation.py``). Use :meth:`recall`
        for answers."""
        return self._reader

    def __enter__(self) -> Self:
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
                found = EntityDictionary(
                    self.store.list_entities(namespace),
                    LinkConfidences.from_settings(self.settings),
                )
                self._dictionaries[namespace] = found
            return found

    def _invalidate(self, namespace: str) -> None:
        """After a write or maintenance of ``namespace``: the entity dictionary and what
        the retrievers keep between recalls are read afresh."""
        with self._lock:
            self._dictionaries.pop(namespace, None)
        self._reader.forget_namespace(namespace)

    def _warm_masked(self, namespace: str, created: Sequence[str]) -> None:
        """After a write: embed the name-masked texts of the memories it created into the
        persistent vector cache (:func:`graphmem.retrieval.rescoring.masking.warm_masked`), so
        recall does not embed them (docs/performance.md "Recall on real input"). A failure
        is logged, not raised: the memories are written; recall embeds what it lacks."""
        if not created or not self.settings.embedding.vector_cache:
            return
        try:
            memories = self.store.get_memories(namespace, list(created))
            warm_masked(self._reader.masked_vectors, memories, self._dictionary(namespace))
            warm_examples(self._reader.masked_vectors)  # docs/updates.md "Nearest examples"
        except GraphMemError as exc:
            log.warning("graphmem: masked vectors of a write not cached: %s", exc)

    def _namespace_lock(self, namespace: str) -> threading.RLock:
        """The lock serialising this facade's writes to ``namespace`` (re-entrant:
        ``correct`` calls ``remember``). Writers in other processes, or through
        another facade, are not serialised by it (see ``_retrying``)."""
        with self._lock:
            return self._namespace_locks.setdefault(namespace, threading.RLock())

    def _retrying(self, namespace: str, work: Callable[[], _T]) -> tuple[_T, int]:
        """Run a read-compute-write until no other writer changed its memories between
        its reads and its write (:func:`~graphmem.facade.write_retry.retry_on_conflict`);
        the entity dictionary is re-read after each conflict. Returns the result and
        the attempt that succeeded."""
        return retry_on_conflict(
            work,
            attempts=self.settings.write.write_conflict_attempts,
            backoff_ms=self.settings.write.write_conflict_backoff_ms,
            on_conflict=lambda _exc: self._invalidate(namespace),
        )
