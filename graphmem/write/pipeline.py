"""The write pipeline (SPEC §2, steps 1–12).

``WritePipeline.remember`` turns validated :class:`MemoryCandidate` objects
into stored memories in one atomic store write: confidence at persist time,
grounding, three-tier dedup, the independence rule, merge, conflict
superseding, entity resolution, relations and provenance. Confirmation,
correction and session forgetting live in :mod:`graphmem.write.lifecycle`.

The write is a compare-and-set on the versions of the memories it read
(:mod:`graphmem.write.conflicts`): if another writer changed one of them in the
meantime the store raises :class:`~graphmem.errors.WriteConflictError` and the
caller runs ``remember`` again from the reads.

Dedup looks at every current memory — cold and unretrievable ones included,
which recall's vector search skips — and a merge whose new independent
observation makes the memory fresh enough again brings it back to hot and
retrievable (SPEC §4, §9.4–§9.5).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from graphmem.embedding import Embedder
from graphmem.entities import (
    EntityDictionary,
    EntityExtractor,
    RelationExtractor,
    resolve_mentions,
)
from graphmem.errors import InvalidMemoryError, WriteConflictError
from graphmem.models import (
    Entity,
    EntityMention,
    Memory,
    MemoryCandidate,
    Mention,
    Observation,
    Relation,
    RelationInput,
    WriteOutcome,
    WriteReport,
)
from graphmem.scoring import (
    apply_grounding,
    confidence,
    extractor_confidence,
    merged_confidence,
    source_strength,
    type_prior,
)
from graphmem.settings import MEMORY_TYPES, MemoryTypeName, Settings
from graphmem.store.base import MemoryStore, Vector, WriteBatch, versions_read
from graphmem.text import content_hash, memory_id, relation_id, surface_hash
from graphmem.timeparse import parse_time_window
from graphmem.write.compat import Claim, Compatibility, check, claim_of
from graphmem.write.consolidation import lifecycle_state
from graphmem.write.dedup import (
    DedupJudge,
    Verdict,
    already_recorded,
    classify_similarity,
    is_independent,
    update_wins,
)

CO_OCCURS = "CO_OCCURS_WITH"
_MAX_CO_OCCURRING = 6
# Nearest stored memories dedup examines per candidate: a superseded one, or one of
# another type, can be nearer than the duplicate it must find.
_DEDUP_NEIGHBOURS = 4
Clock = Callable[[], datetime]


@dataclass(slots=True)
class _Prepared:
    """A candidate with its persist-time scores, before dedup."""

    index: int
    candidate: MemoryCandidate
    position: int
    memory_type: MemoryTypeName
    type_uncertain: bool
    s: float
    e: float
    t: float
    n: int
    confidence: float
    hash: str
    observation: Observation


@dataclass(slots=True)
class _BatchState:
    """What this call will write, keyed by memory id (``read``: the stored memories it
    merges into, as read, so that those a retried batch leaves unchanged are not
    written again)."""

    memories: dict[str, Memory] = field(default_factory=dict)
    read: dict[str, Memory] = field(default_factory=dict)
    by_hash: dict[str, str] = field(default_factory=dict)
    new_ids: list[str] = field(default_factory=list)
    new_vectors: list[Vector] = field(default_factory=list)
    entities: dict[str, Entity] = field(default_factory=dict)
    relations: dict[str, Relation] = field(default_factory=dict)
    triples: dict[tuple[str, str], list[Memory]] = field(default_factory=dict)
    # relations the extractor found in a candidate's text, by id(candidate) (SPEC §11)
    extracted: dict[int, tuple[RelationInput, ...]] = field(default_factory=dict)


@dataclass(slots=True)
class _Match:
    """What dedup found for a candidate: the memory to merge into (``target``), whether
    an ambiguous pair went to the judge, and the near-duplicates it conflicts with
    (incompatible by SPEC §9.10; resolved by §9.9 when the candidate is created)."""

    target: Memory | None = None
    ambiguous: int = 0
    conflicts: list[tuple[Memory, Compatibility]] = field(default_factory=list)


def compute_confidence(
    settings: Settings, s: float, n: int, e: float, t: float, grounding: str
) -> float:
    """SPEC §2.5 then §2.6: the stored confidence of a memory."""
    raw = confidence(s, n, e, t, weights=settings.confidence_weights)
    return apply_grounding(
        raw,
        grounding,
        floor=settings.grounding_floor,
        partial_penalty=settings.grounding_penalty_partial,
        unknown_penalty=settings.grounding_penalty_unknown,
    )


def derived_event_time(content: str, observed_at: datetime) -> datetime | None:
    """Event time implied by the content's own time expression, resolved against
    when it was said ("last week" said on 2023-05-08 → 2023-05-01); ``None`` when
    the content names no time or only a vague one ("recently")."""
    window = parse_time_window(content, observed_at)
    if window is None or window.precision == "vague":
        return None
    return window.center


class WritePipeline:
    """Persist memory candidates (SPEC §2).

    Parameters
    ----------
    store, embedder : the backends.
    settings : Settings
        Every constant used (SPEC §8).
    judge : DedupJudge
        Tier-3 decision for ambiguous pairs.
    extractor : EntityExtractor
        Finds entities in candidates that name none.
    clock : callable returning an aware datetime
        "Now" for ``created_at`` and defaults.
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
        self._judge = judge
        self._extractor = extractor
        self._clock = clock
        self._dictionary = dictionary

    # ------------------------------------------------------------------ scores
    def prepare(self, index: int, candidate: MemoryCandidate, now: datetime) -> _Prepared | None:
        """Steps 1–6 for one candidate; ``None`` when grounding rejects it."""
        cfg = self._settings
        if candidate.grounding == "unsupported":
            return None
        known_type = candidate.type in MEMORY_TYPES
        t, uncertain = type_prior(
            candidate.type if known_type else None,
            priors=cfg.type_priors,
            uncertain=cfg.type_prior_uncertain,
        )
        s = source_strength(
            [candidate.source_level],
            levels=cfg.source_levels,
            hearsay=candidate.hearsay,
            hearsay_cap=cfg.hearsay_cap,
        )
        e = extractor_confidence(
            candidate.extractor,
            candidate.logprobs,
            table=cfg.extractor_table,
            unknown=cfg.extractor_unknown,
            verbatim=cfg.extractor_verbatim,
        )
        if candidate.extractor_confidence is not None and candidate.logprobs is None:
            e = candidate.extractor_confidence
        # SPEC §9.1: textual evidence (a turn, or a direct / confirmed statement) is
        # one observation; a claim the agent inferred with no evidence has n = 0.
        evidenced = candidate.turn_id is not None or candidate.source_level in (
            "direct",
            "confirmed",
        )
        n = 1 if evidenced else 0
        conf = compute_confidence(cfg, s, n, e, t, candidate.grounding)
        memory_type: MemoryTypeName = candidate.type if candidate.type != "unknown" else "Fact"
        observation = Observation(
            session_id=candidate.session_id,
            turn_id=candidate.turn_id,
            observed_at=candidate.observed_at or now,
            source_level=candidate.source_level,
            surface_hash=surface_hash(candidate.content),
            independent=evidenced,
        )
        return _Prepared(
            index=index,
            candidate=candidate,
            position=0,
            memory_type=memory_type,
            type_uncertain=uncertain,
            s=s,
            e=e,
            t=t,
            n=n,
            confidence=conf,
            hash=content_hash(
                memory_type, candidate.subject, candidate.predicate, candidate.content
            ),
            observation=observation,
        )

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
            An explicit correction (SPEC §2.11): the one candidate replaces this
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
        prepared: list[_Prepared] = []
        rejected: list[str] = []
        outcomes: list[WriteOutcome] = ["rejected"] * len(candidates)
        for index, candidate in enumerate(candidates):
            item = self.prepare(index, candidate, now)
            if item is None:
                rejected.append(f"candidates[{index}]: grounding is 'unsupported'")
            else:
                item.position = len(prepared)
                prepared.append(item)
        if not prepared:
            if corrects is not None:
                raise InvalidMemoryError(
                    "a correction must not be 'unsupported'", field="candidates[0].grounding"
                )
            return WriteReport(
                rejected=tuple(rejected),
                memory_ids=(None,) * len(candidates),
                outcomes=tuple(outcomes),
            )
        if corrects is not None and prepared[0].hash == corrects.content_hash:
            raise InvalidMemoryError(
                "the correction has the same content as the memory it corrects", field="content"
            )

        vectors = self._embedder.embed([p.candidate.content for p in prepared])
        if vectors.shape != (len(prepared), self._settings.embedding_dim):
            raise InvalidMemoryError(
                f"embedder returned shape {vectors.shape}, expected "
                f"({len(prepared)}, {self._settings.embedding_dim})",
                field="embedding",
            )
        existing_by_hash = self._store.find_by_hashes(namespace, [p.hash for p in prepared])
        nearest = self._nearest_existing(namespace, vectors)

        state = _BatchState()
        known = self._dictionary(namespace)
        created: list[str] = []
        merged: list[str] = []
        superseded: list[str] = []
        ambiguous = 0
        ids: list[str | None] = [None] * len(candidates)
        excluded = corrects.id if corrects is not None else None
        for item, vector in zip(prepared, vectors, strict=True):
            mentions = self._resolve(namespace, item.candidate, known, state)
            found = self._find_duplicate(
                namespace, item, vector, state, existing_by_hash, nearest, known, excluded
            )
            ambiguous += found.ambiguous
            if found.target is not None:
                if found.target.id not in state.memories:  # from the store
                    state.read[found.target.id] = found.target
                memory = self._merge(found.target, item, mentions, now)
                merged.append(memory.id)
                outcomes[item.index] = "merged"
            else:
                memory = self._create(namespace, item, vector, mentions, now)
                state.new_ids.append(memory.id)
                state.new_vectors.append(vector)
                created.append(memory.id)
                memory, losers = self._resolve_conflicts(
                    namespace, memory, state, found.conflicts, known, correction=corrects
                )
                superseded.extend(losers)
                outcomes[item.index] = "created" if memory.is_current else "superseded"
            if corrects is not None:
                memory = memory.model_copy(update={"superseded_by": None, "valid_until": None})
                old = state.memories.get(corrects.id, corrects)
                state.memories[corrects.id] = old.model_copy(
                    update={"superseded_by": memory.id, "valid_until": now}
                )
                superseded.append(corrects.id)
            state.memories[memory.id] = memory
            state.by_hash[memory.content_hash] = memory.id
            ids[item.index] = memory.id
            self._relate(namespace, memory, item.candidate, mentions, known, state)

        memories = [m for m in state.memories.values() if state.read.get(m.id) != m]
        batch = WriteBatch(
            memories=memories,
            entities=list(state.entities.values()),
            relations=list(state.relations.values()),
            expected_versions=self._expected_versions(namespace, memories, state.new_ids),
        )
        self._store.write(namespace, batch)
        return WriteReport(
            created=tuple(created),
            merged=tuple(dict.fromkeys(merged)),
            superseded=tuple(dict.fromkeys(superseded)),
            rejected=tuple(rejected),
            ambiguous=ambiguous,
            entities_created=len(state.entities),
            relations_written=len(state.relations),
            memory_ids=tuple(ids),
            outcomes=tuple(outcomes),
        )

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

    # ------------------------------------------------------------------ dedup
    def _nearest_existing(
        self, namespace: str, vectors: Vector
    ) -> list[list[tuple[Memory, float]]]:
        """Tier 2 against the store: for each row, the current memories among its
        ``_DEDUP_NEIGHBOURS`` nearest whose cosine reaches the escalate threshold (one
        batched vector query, one batched fetch).

        Every tier is searched, unretrievable memories too: the cold tier only keeps a
        memory out of *recall*; a restatement of it is still the same claim.
        """
        hits = self._store.vector_search(
            namespace, vectors, _DEDUP_NEIGHBOURS, include_history=True, include_cold=True
        )
        escalate = self._settings.dedup_escalate
        wanted = list(
            dict.fromkeys(h.memory_id for row in hits for h in row if h.score >= escalate)
        )
        found = {
            m.id: m
            for m in self._store.get_memories(namespace, wanted, with_embeddings=True)
            if m.is_current
        }
        return [
            [
                (found[h.memory_id], h.score)
                for h in row
                if h.score >= escalate and h.memory_id in found
            ]
            for row in hits
        ]

    def _find_duplicate(
        self,
        namespace: str,
        item: _Prepared,
        vector: Vector,
        state: _BatchState,
        existing_by_hash: dict[str, Memory],
        nearest: list[list[tuple[Memory, float]]],
        known: EntityDictionary,
        excluded: str | None,
    ) -> _Match:
        """Tier 1 (hash), the same triple, then tier 2 (cosine) and tier 3 (judge) —
        SPEC §2.7 — where every merge needs a compatible claim (§9.10).

        A candidate whose subject, predicate and object agree with a current memory of
        its type, and whose claim is compatible with it, is a restatement of that
        memory and merges into it (corroboration) whatever the cosine. A near-duplicate
        (tier 2 duplicate, or tier 3 "same") that is incompatible is not merged: it is
        returned in ``conflicts`` (a claim about another subject is just distinct).
        ``excluded`` (the memory a correction replaces) is never merged into.
        """
        if item.hash in state.by_hash:
            hit = state.memories[state.by_hash[item.hash]]
            if hit.id != excluded:
                return _Match(hit)
        if item.hash in existing_by_hash:
            hit = existing_by_hash[item.hash]
            if hit.id != excluded:
                return _Match(state.memories.get(hit.id, hit))
        claim = self._claim(item.candidate)
        c = item.candidate
        if c.subject and c.predicate and c.object:
            for rival in self._triple_rivals(namespace, c.subject, c.predicate, state):
                if (
                    rival.id != excluded
                    and rival.is_current
                    and rival.type == item.memory_type
                    and rival.object
                    and check(claim, claim_of(rival, known))
                ):
                    return _Match(rival)
        options = [(state.memories.get(m.id, m), score) for m, score in nearest[item.position]]
        if state.new_vectors:
            sims = np.stack(state.new_vectors) @ vector
            best = int(np.argmax(sims))
            options.append((state.memories[state.new_ids[best]], float(sims[best])))
        options = [
            (m, s)
            for m, s in options
            if m.type == item.memory_type and m.is_current and m.id != excluded
        ]
        found = _Match()
        for memory, score in sorted(options, key=lambda pair: (-pair[1], pair[0].id)):
            verdict = classify_similarity(
                score,
                duplicate=self._settings.dedup_duplicate,
                escalate=self._settings.dedup_escalate,
            )
            if verdict is Verdict.DISTINCT:
                break
            if verdict is Verdict.AMBIGUOUS:
                found.ambiguous = 1
                if not self._judge.same(item.candidate, memory, score):
                    continue
            compatibility = check(claim, claim_of(memory, known))
            if compatibility:
                found.target = memory
                return found
            if compatibility.reason is not None and compatibility.reason.is_conflict:
                found.conflicts.append((memory, compatibility))
        return found

    @staticmethod
    def _claim(candidate: MemoryCandidate) -> Claim:
        names = [e.name for e in candidate.entities]
        names.extend(n for rel in candidate.relations for n in (rel.source, rel.target))
        return Claim.of(candidate, dict.fromkeys(names))

    def _triple_rivals(
        self, namespace: str, subject: str, predicate: str, state: _BatchState
    ) -> list[Memory]:
        """Current memories with this subject and predicate: stored (read once per
        call) and written earlier in this call, as this call last left them."""
        key = (subject, predicate)
        if key not in state.triples:
            state.triples[key] = self._store.find_by_subject_predicate(
                namespace, subject, predicate
            )
        rivals = {m.id: state.memories.get(m.id, m) for m in state.triples[key]}
        for other in state.memories.values():
            if (other.subject, other.predicate) == key:
                rivals[other.id] = other
        return sorted(rivals.values(), key=lambda m: m.id)

    # ------------------------------------------------------------------ build
    def _create(
        self,
        namespace: str,
        item: _Prepared,
        vector: Vector,
        mentions: list[Mention],
        now: datetime,
    ) -> Memory:
        c = item.candidate
        return Memory(
            id=memory_id(namespace, item.hash),
            namespace=namespace,
            type=item.memory_type,
            type_uncertain=item.type_uncertain,
            content=c.content,
            subject=c.subject,
            predicate=c.predicate,
            object=c.object,
            source_level=c.source_level,
            source_strength=item.s,
            hearsay=c.hearsay,
            extractor=c.extractor,
            extractor_confidence=item.e,
            type_prior=item.t,
            n=item.n,
            observations=(item.observation,),
            grounding=c.grounding,
            confidence=item.confidence,
            salience=c.salience if c.salience is not None else self._settings.salience_initial,
            created_at=now,
            last_observed_at=item.observation.observed_at,
            event_time=c.event_time or derived_event_time(c.content, item.observation.observed_at),
            content_hash=item.hash,
            mentions=tuple(mentions),
            embedding=tuple(float(x) for x in vector),
        )

    def _merge(
        self, old: Memory, item: _Prepared, mentions: list[Mention], now: datetime
    ) -> Memory:
        """SPEC §2.8–§2.9: n adds independent observations only; s = max;
        confidence recomputed and never lowered; observations unioned.

        A cold or unretrievable memory that a new independent observation makes
        retrievable again at ``now`` (:func:`lifecycle_state` of the merged memory)
        returns to hot and retrievable; an old observation (an import of past
        sessions) that leaves it stale leaves it where it was."""
        obs = item.observation
        all_mentions = tuple(dict.fromkeys((*old.mentions, *mentions)))
        if already_recorded(obs, old.observations):
            return old.model_copy(update={"mentions": all_mentions})
        window = timedelta(hours=self._settings.independence_window_hours)
        independent = item.n > 0 and is_independent(obs, old.observations, window=window)
        obs = obs.model_copy(update={"independent": independent})
        n = old.n + (item.n if independent else 0)
        s = max(old.source_strength, item.s)
        level = old.source_level if old.source_strength >= item.s else item.candidate.source_level
        recomputed = compute_confidence(
            self._settings, s, n, old.extractor_confidence, old.type_prior, old.grounding
        )
        last = max(old.last_observed_at, obs.observed_at) if independent else old.last_observed_at
        merged = old.model_copy(
            update={
                "n": n,
                "source_strength": s,
                "source_level": level,
                "confidence": merged_confidence(old.confidence, item.confidence, recomputed),
                "observations": (*old.observations, obs),
                "last_observed_at": last,
                "mentions": all_mentions,
            }
        )
        if independent and (merged.tier != "hot" or not merged.retrievable):
            hot = merged.model_copy(update={"tier": "hot"})
            if lifecycle_state(hot, now, self._settings)[0]:
                merged = hot.model_copy(update={"retrievable": True})
        return merged

    def _resolve_conflicts(
        self,
        namespace: str,
        memory: Memory,
        state: _BatchState,
        near: list[tuple[Memory, Compatibility]],
        known: EntityDictionary,
        *,
        correction: Memory | None,
    ) -> tuple[Memory, list[str]]:
        """SPEC §2.11 as amended by §9.9–§9.10: a new memory conflicts with the current
        memories of its subject and predicate that state another claim, and with the
        incompatible near-duplicates dedup found (``near``). Each conflict keeps the
        later observation current unless the older memory's confidence exceeds the
        newer one's by more than ``update_margin``; a correction always wins. The loser
        gets ``superseded_by`` / ``valid_until`` and is kept for audit.

        Returns the new memory (superseded when it lost) and the ids superseded.
        """
        rivals: dict[str, Memory] = {}
        if memory.subject and memory.predicate:
            claim = Claim.of(memory)
            for rival in self._triple_rivals(namespace, memory.subject, memory.predicate, state):
                if rival.id == memory.id or rival.content_hash == memory.content_hash:
                    continue
                both_objects = memory.object and rival.object
                if both_objects and check(claim, claim_of(rival, known)):
                    continue  # the same claim in other words (another type): not a conflict
                rivals[rival.id] = rival
        for rival, _why in near:
            rivals.setdefault(rival.id, rival)
        losers: list[str] = []
        margin = self._settings.update_margin
        for ident in sorted(rivals):
            rival = state.memories.get(ident, rivals[ident])
            if not rival.is_current or ident == (correction.id if correction else None):
                continue
            when = max(memory.last_observed_at, rival.last_observed_at)
            wins = correction is not None or update_wins(
                memory.confidence,
                memory.last_observed_at,
                rival.confidence,
                rival.last_observed_at,
                margin=margin,
            )
            if wins:
                state.memories[rival.id] = rival.model_copy(
                    update={"superseded_by": memory.id, "valid_until": when}
                )
                losers.append(rival.id)
            else:
                memory = memory.model_copy(update={"superseded_by": rival.id, "valid_until": when})
                losers.append(memory.id)
                break
        return memory, losers

    # ------------------------------------------------------------------ entities
    def _resolve(
        self,
        namespace: str,
        candidate: MemoryCandidate,
        known: EntityDictionary,
        state: _BatchState,
    ) -> list[Mention]:
        named = list(candidate.entities)
        if isinstance(self._extractor, RelationExtractor):
            speaker = next(
                (m.name for m in candidate.entities if m.role == "subject" and m.kind == "Person"),
                None,
            )
            extraction = self._extractor.analyse(candidate.content, known, speaker=speaker)
            extracted = list(extraction.entities)
            state.extracted[id(candidate)] = extraction.relations
        else:
            extracted = self._extractor.extract(candidate.content, known)
        have = {m.name.casefold() for m in named}
        named.extend(m for m in extracted if m.name.casefold() not in have)
        for rel in (*candidate.relations, *state.extracted.get(id(candidate), ())):
            for name in (rel.source, rel.target):
                if name.casefold() not in have:
                    have.add(name.casefold())
                    named.append(EntityMention(name=name))
        resolved, changed = resolve_mentions(namespace, named, known)
        for entity in changed:
            state.entities[entity.id] = entity
        return list(dict.fromkeys(Mention(entity_id=ident, role=m.role) for ident, m in resolved))

    def _inferred_relation_cap(self, memory: Memory) -> float:
        """Confidence of a relation parsed from the memory's text (SPEC §11): source
        strong_inference, ``e`` of the ``ner`` extractor, type prior Relation, the
        memory's ``n``."""
        cfg = self._settings
        e = extractor_confidence(
            "ner",
            None,
            table=cfg.extractor_table,
            unknown=cfg.extractor_unknown,
            verbatim=cfg.extractor_verbatim,
        )
        return compute_confidence(
            cfg,
            cfg.source_levels["strong_inference"],
            memory.n,
            e,
            cfg.type_priors["Relation"],
            "supported",
        )

    def _relate(
        self,
        namespace: str,
        memory: Memory,
        candidate: MemoryCandidate,
        mentions: list[Mention],
        known: EntityDictionary,
        state: _BatchState,
    ) -> None:
        """Explicit relations, else co-occurrence edges between the memory's
        entities with the memory's confidence (issue 2, step 6). A superseded memory's
        relations are written already ended (SPEC §9.9)."""
        when = candidate.event_time or memory.last_observed_at
        pairs: list[tuple[str, str, str]] = []
        # Caller-given relations win; else those the extractor parsed from the text
        # (strong inference, SPEC §11: their confidence is capped by that level's).
        given = candidate.relations or state.extracted.get(id(candidate), ())
        cap = 1.0 if candidate.relations else self._inferred_relation_cap(memory)
        for rel in given:
            source, target = known.resolve(rel.source), known.resolve(rel.target)
            if source is not None and target is not None:
                pairs.append((source[0], rel.predicate.upper().replace(" ", "_"), target[0]))
        if not candidate.relations:
            # a caller-given triple whose subject and object are both entities is a
            # relation ("Arlo" sister_of "Dana"): a question can walk it ("Dana's sister");
            # it stands beside what the extractor parsed ("works with" → WORK_WITH)
            pairs.extend(_triple_relation(candidate, known))
        if not given and not pairs:
            entity_ids = list(dict.fromkeys(m.entity_id for m in mentions))[:_MAX_CO_OCCURRING]
            pairs.extend((a, CO_OCCURS, b) for a, b in itertools.combinations(entity_ids, 2))
        for src, predicate, dst in pairs:
            if src == dst:
                continue
            ident = relation_id(namespace, src, predicate, dst)
            previous = state.relations.get(ident)
            conf = max(min(memory.confidence, cap), previous.confidence if previous else 0.0)
            state.relations[ident] = Relation(
                id=ident,
                namespace=namespace,
                source_id=src,
                target_id=dst,
                predicate=predicate,
                confidence=conf,
                memory_id=memory.id,
                valid_from=when,
                valid_until=memory.valid_until if memory.superseded_by else None,
            )


_PREDICATE = re.compile(r"^[A-Z_][A-Z0-9_]*$")


def _triple_relation(
    candidate: MemoryCandidate, known: EntityDictionary
) -> list[tuple[str, str, str]]:
    """``[(subject entity id, PREDICATE, object entity id)]`` when the candidate's
    triple names a known entity at both ends and its predicate is a relation type
    (letters, digits, ``_``, ``-`` or spaces), else ``[]``."""
    if not (candidate.subject and candidate.predicate and candidate.object):
        return []
    predicate = re.sub(r"[\s-]+", "_", candidate.predicate.strip()).upper()
    if not _PREDICATE.match(predicate):
        return []
    source, target = known.resolve(candidate.subject), known.resolve(candidate.object)
    if source is None or target is None or source[0] == target[0]:
        return []
    return [(source[0], predicate, target[0])]
