"""The write pipeline (docs/spec.md §2, steps 1–12).

``WritePipeline.remember`` turns validated :class:`MemoryCandidate` objects
into stored memories in one atomic store write: confidence at persist time,
grounding, three-tier dedup, the independence rule, merge, conflict
superseding, entity resolution, relations and provenance. Confirmation,
correction and session forgetting live in :mod:`graphmem.write.lifecycle`.

The write is a compare-and-set on the versions of the memories it read
(:mod:`graphmem.facade.write_retry`): if another writer changed one of them in the
meantime the store raises :class:`~graphmem.errors.WriteConflictError` and the
caller runs ``remember`` again from the reads.

Dedup looks at every current memory — cold and unretrievable ones included,
which recall's vector search skips — and a merge whose new independent
observation makes the memory fresh enough again brings it back to hot and
retrievable (docs/spec.md §4, §9.4–§9.5).

The steps live in :mod:`graphmem.write.scores` (persist-time scores),
:mod:`graphmem.write.matching` (dedup and conflicts), :mod:`graphmem.write.records`
(new and merged memories) and :mod:`graphmem.write.relations` (entities and
relations); this module runs them in order and writes the batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.embedding import Embedder
from graphmem.entities import EntityDictionary, EntityExtractor
from graphmem.errors import InvalidMemoryError, WriteConflictError
from graphmem.models import Memory, MemoryCandidate, WriteOutcome, WriteReport
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, Vector, WriteBatch, versions_read
from graphmem.text import content_hash
from graphmem.write.batch import BatchState, Prepared
from graphmem.write.dedup import DedupJudge
from graphmem.write.keys import KeyItem, build_keys
from graphmem.write.matching import Matcher
from graphmem.write.records import create_memory, merge_memory
from graphmem.write.relations import Relater
from graphmem.write.scores import derived_event_time, prepare_candidate

Clock = Callable[[], datetime]


@dataclass(slots=True)
class _Outcome:
    """What ``remember`` reports, filled as the candidates are placed."""

    outcomes: list[WriteOutcome]
    ids: list[str | None]
    rejected: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    ambiguous: int = 0

    def report(self, state: BatchState | None = None) -> WriteReport:
        return WriteReport(
            created=tuple(self.created),
            merged=tuple(dict.fromkeys(self.merged)),
            superseded=tuple(dict.fromkeys(self.superseded)),
            why_superseded={
                i: state.why[i] for i in dict.fromkeys(self.superseded) if state and i in state.why
            },
            rejected=tuple(self.rejected),
            ambiguous=self.ambiguous,
            entities_created=len(state.entities) if state else 0,
            relations_written=len(state.relations) if state else 0,
            memory_ids=tuple(self.ids),
            outcomes=tuple(self.outcomes),
        )


class WritePipeline:
    """Persist memory candidates (docs/spec.md §2).

    Parameters
    ----------
    store, embedder : the backends.
    settings : Settings
        Every constant used (docs/spec.md §8).
    judge : DedupJudge
        Tier-3 decision for ambiguous pairs.
    extractor : EntityExtractor
        Finds entities in candidates that name none.
    clock : callable returning an aware datetime
        "Now" for ``created_at`` and defaults.
    dictionary : callable
        The namespace's entity dictionary (cached by the facade).
    """

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        settings: Settings,
        *,
        judge: DedupJudge,
        extractor: EntityExtractor,
        clock: Clock,
        dictionary: Callable[[str], EntityDictionary],
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._clock = clock
        self._dictionary = dictionary
        self._matcher = Matcher(store, settings, judge)
        self._relater = Relater(settings, extractor)

    def prepare(self, index: int, candidate: MemoryCandidate, now: datetime) -> Prepared | None:
        """Steps 1–6 for one candidate; ``None`` when grounding rejects it
        (:func:`graphmem.write.scores.prepare_candidate`)."""
        return prepare_candidate(self._settings, index, candidate, now)

    # ------------------------------------------------------------------ remember
    def remember(
        self,
        namespace: str,
        candidates: Sequence[MemoryCandidate],
        *,
        corrects: Memory | None = None,
    ) -> WriteReport:
        """Persist ``candidates`` atomically; see the module docstring.

        Parameters
        ----------
        corrects : Memory, optional
            An explicit correction (docs/spec.md §2.11): the one candidate replaces this
            current memory in the same write — never merged into it, superseding it
            regardless of confidence.

        Raises
        ------
        InvalidMemoryError
            Never partially: validation happens before anything is written; for a
            correction whose content is the corrected memory's own.
        StoreError
            When the store write fails (nothing of the batch is written).
        """
        if corrects is not None and len(candidates) != 1:
            raise InvalidMemoryError("a correction is exactly one candidate", field="candidates")
        now = self._clock()
        out = _Outcome(outcomes=["rejected"] * len(candidates), ids=[None] * len(candidates))
        prepared = self._prepare_all(candidates, now, out)
        if not prepared:
            if corrects is not None:
                raise InvalidMemoryError(
                    "a correction must not be 'unsupported'", field="candidates[0].grounding"
                )
            return out.report()
        if corrects is not None and corrects.content_hash == content_hash(
            corrects.type, corrects.subject, corrects.predicate, prepared[0].candidate.content
        ):  # its own words again, whatever predicate the correction was given
            raise InvalidMemoryError(
                "the correction has the same content as the memory it corrects", field="content"
            )
        if self._settings.write.contextual_keys:
            assign_keys(prepared, self._settings)
        vectors = self._embed(prepared)
        state = BatchState()
        self._place_all(namespace, prepared, vectors, state, out, now, corrects)
        memories = [m for m in state.memories.values() if state.read.get(m.id) != m]
        batch = WriteBatch(
            memories=memories,
            entities=list(state.entities.values()),
            relations=list(state.relations.values()),
            expected_versions=self._expected_versions(namespace, memories, state.new_ids),
        )
        self._store.write(namespace, batch)
        return out.report(state)

    def _prepare_all(
        self, candidates: Sequence[MemoryCandidate], now: datetime, out: _Outcome
    ) -> list[Prepared]:
        """Steps 1–6 for every candidate; those grounding rejects are named in ``out``."""
        prepared: list[Prepared] = []
        for index, candidate in enumerate(candidates):
            item = self.prepare(index, candidate, now)
            if item is None:
                out.rejected.append(f"candidates[{index}]: grounding is 'unsupported'")
            else:
                item.position = len(prepared)
                prepared.append(item)
        return prepared

    def _embed(self, prepared: list[Prepared]) -> Vector:
        """One embedding row per prepared candidate, shape checked."""
        vectors = self._embedder.embed([p.candidate.content for p in prepared])
        if vectors.shape != (len(prepared), self._settings.embedding.embedding_dim):
            raise InvalidMemoryError(
                f"embedder returned shape {vectors.shape}, expected "
                f"({len(prepared)}, {self._settings.embedding.embedding_dim})",
                field="embedding",
            )
        return vectors

    def _place_all(
        self,
        namespace: str,
        prepared: list[Prepared],
        vectors: Vector,
        state: BatchState,
        out: _Outcome,
        now: datetime,
        corrects: Memory | None,
    ) -> None:
        """Steps 7–12 for each candidate, in order: merge it into the memory it restates
        or create it (superseding what it conflicts with), then its relations."""
        existing_by_hash = self._store.find_by_hashes(namespace, [p.hash for p in prepared])
        nearest = self._matcher.nearest_existing(namespace, vectors)
        known = self._dictionary(namespace)
        excluded = corrects.id if corrects is not None else None
        self._relater.prepare([item.candidate for item in prepared])
        for item, vector in zip(prepared, vectors, strict=True):
            mentions = self._relater.resolve(namespace, item.candidate, known, state)
            found = self._matcher.find_duplicate(
                namespace, item, vector, state, existing_by_hash, nearest, known, excluded
            )
            out.ambiguous += found.ambiguous
            if found.target is not None:
                if found.target.id not in state.memories:  # from the store
                    state.read[found.target.id] = found.target
                memory = merge_memory(self._settings, found.target, item, mentions, now)
                out.merged.append(memory.id)
                out.outcomes[item.index] = "merged"
            else:
                memory = create_memory(self._settings, namespace, item, vector, mentions, now)
                state.new_ids.append(memory.id)
                state.new_vectors.append(vector)
                out.created.append(memory.id)
                memory, losers = self._matcher.resolve_conflicts(
                    namespace, memory, state, found.conflicts, known, correction=corrects
                )
                out.superseded.extend(losers)
                out.outcomes[item.index] = "created" if memory.is_current else "superseded"
            if corrects is not None:
                memory = self._supersede_corrected(memory, corrects, state, now)
                out.superseded.append(corrects.id)
            state.memories[memory.id] = memory
            state.by_hash[memory.content_hash] = memory.id
            out.ids[item.index] = memory.id
            self._relater.relate(namespace, memory, item.candidate, mentions, known, state)

    @staticmethod
    def _supersede_corrected(
        memory: Memory, corrects: Memory, state: BatchState, now: datetime
    ) -> Memory:
        """A correction (docs/spec.md §2.11): the corrected memory is superseded by ``memory``,
        which stays current whatever it conflicted with."""
        memory = memory.model_copy(update={"superseded_by": None, "valid_until": None})
        old = state.memories.get(corrects.id, corrects)
        state.memories[corrects.id] = old.model_copy(
            update={"superseded_by": memory.id, "valid_until": now}
        )
        return memory

    def _expected_versions(
        self, namespace: str, memories: list[Memory], new_ids: list[str]
    ) -> dict[str, int]:
        """The versions the batch's compare-and-set expects: those read, 0 for new memories.

        A new memory's id (a hash of its claim) can be stored already: as a superseded
        memory of the same claim, which restating it replaces (current again), or as a
        current one another writer created since this call's reads — then this write
        conflicts now instead of overwriting it.
        """
        expected = versions_read(memories)
        for old in self._store.get_memories(namespace, new_ids):
            if old.is_current:
                raise WriteConflictError(
                    "another writer created this memory since it was looked up",
                    memory_ids=(old.id,),
                    query="remember",
                )
            expected[old.id] = old.version
        return expected


def assign_keys(prepared: Sequence[Prepared], settings: Settings) -> None:
    """Set the contextual key (graphmem.write.keys) of each prepared candidate that
    has context: a turn id and another candidate of its session in this batch (its
    neighbours). The others keep ``key = None`` (the key is the content)."""
    turns = [p for p in prepared if p.candidate.turn_id is not None]
    sessions: dict[str, int] = {}
    for p in turns:
        sessions[p.candidate.session_id] = sessions.get(p.candidate.session_id, 0) + 1
    items = [
        KeyItem(
            content=p.candidate.content,
            session_id=p.candidate.session_id,
            observed_at=p.candidate.observed_at,
            event_time=p.candidate.event_time
            or derived_event_time(p.candidate.content, p.observation.observed_at),
        )
        for p in turns
    ]
    keys = build_keys(
        items,
        before=settings.write.key_turns_before,
        after=settings.write.key_turns_after,
        claim_repeats=settings.write.key_claim_repeats,
    )
    for p, key in zip(turns, keys, strict=True):
        if sessions[p.candidate.session_id] > 1:
            p.key = key
