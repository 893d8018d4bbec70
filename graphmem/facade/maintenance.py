"""The facade's maintenance and guards: consolidation, cold reactivation,
re-embedding, faithfulness and drift (docs/spec.md §4, §10)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial

from graphmem.errors import EmbedderMismatchError, InvalidInputError
from graphmem.facade.base import validate_namespace
from graphmem.facade.reads import Reads
from graphmem.guards.consistency import consistency_scan
from graphmem.guards.drift import namespace_drift
from graphmem.guards.faithfulness import check_faithfulness
from graphmem.models import Memory, RecallResult
from graphmem.reports import (
    ConsolidationReport,
    EntityDrift,
    FaithfulnessReport,
    ReembedReport,
)
from graphmem.retrieval.access import reactivate_associated
from graphmem.store.base import WriteBatch, versions_read
from graphmem.store.checks import check_aware, check_k
from graphmem.write.consolidation import consolidate


class Maintenance(Reads):
    """:class:`graphmem.GraphMem`'s maintenance pass and read-time guards."""

    def consolidate(
        self,
        namespace: str,
        *,
        now: datetime | None = None,
        batch_size: int = 500,
        since: datetime | None = None,
    ) -> ConsolidationReport:
        """Run the consolidation pass (docs/spec.md §4, §10): the consistency scan, association
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
            if value is not None:
                check_aware(value, name)
        check_k(batch_size, "batch_size")
        self._use()
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
        self._invalidate(namespace)  # flags and tiers changed: the concept index is stale
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
        """Cold reactivation (docs/spec.md §4): cold memories linked by an association to
        ``memory_ids`` (what a recall returned) get the associative stability boost
        and return to hot. Returns their ids; see
        :func:`graphmem.retrieval.access.reactivate_associated`."""
        validate_namespace(namespace)
        self._use()
        return reactivate_associated(
            self.store,
            self.settings,
            namespace,
            memory_ids,
            self._clock() if now is None else now,
            session_id,
        )

    def faithfulness(
        self,
        namespace: str,
        answer: str,
        memories: Sequence[str] | RecallResult | None = None,
        *,
        query: str | None = None,
        k: int | None = None,
    ) -> FaithfulnessReport:
        """Read-time faithfulness of ``answer`` (docs/spec.md §10): its claims, each supported
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
        self._use()
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
            similarity=self.settings.guards.faithfulness_similarity,
            dictionary=self._dictionary(namespace),
            judge=self.claim_judge,
        )

    def drift(
        self, namespace: str, name: str | None = None, *, since: datetime | None = None
    ) -> list[EntityDrift]:
        """Concept drift (docs/spec.md §10): each entity's best before / after split (or only
        ``name``'s), drifting ones first; see :mod:`graphmem.guards.drift`. Reported,
        never acted on. ``since``: only entities with a memory observed since then.

        Raises
        ------
        InvalidInputError
            For an unknown ``name`` or a naive ``since``.
        """
        validate_namespace(namespace)
        if since is not None:
            check_aware(since, "since")
        self._use()
        self._reader.flush()
        ids = None if name is None else [self.entity(namespace, name).id]
        return namespace_drift(self.store, self.settings, namespace, entity_ids=ids, since=since)

    def reembed(
        self,
        namespace: str,
        *,
        batch_size: int = 256,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReembedReport:
        """Re-embed every memory of ``namespace`` (all tiers, current or not) with this
        facade's embedder and record it as the namespace's embedder.

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
        check_k(batch_size, "batch_size")
        self._use()
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
