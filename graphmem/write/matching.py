"""Dedup and conflicts against the store and the call's own memories (docs/spec.md §2.7,
§2.11, §9.9–§9.10): which memory a candidate restates, and which it supersedes."""

from __future__ import annotations

import numpy as np

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import corrects, is_eventlike, replaces
from graphmem.language.claims import (
    Claim,
    Compatibility,
    Reason,
    check,
    claim_of,
    frame_overlap,
    same_subject,
    subject_of,
)
from graphmem.language.endings import ending_cue, ends, of_the_past
from graphmem.language.triples import accumulates, restates, same_value
from graphmem.language.voice import is_transcript
from graphmem.models import Memory, MemoryCandidate
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, Vector
from graphmem.write.about import (
    job_changes,
    name_each_other,
    outlives,
    partner_ended,
    stated_attribute,
    subject_ids,
)
from graphmem.write.batch import BatchState, Match, Prepared
from graphmem.write.dedup import DedupJudge, Verdict, classify_similarity, update_wins
from graphmem.write.resemblance import resembled, shift_cue, vector_cosines
from graphmem.write.restating import restatements


class Matcher:
    """Finds, for each candidate of a write, the memory it restates (tiers 1–3 of docs/spec.md
    §2.7) and, for a new memory, the current memories it supersedes or loses to.

    Parameters
    ----------
    store : MemoryStore
        Read only (vector search, hashes, subject/predicate lookups).
    settings : Settings
        The dedup thresholds and ``update_margin``.
    judge : DedupJudge
        Tier-3 decision for ambiguous pairs.
    """

    def __init__(self, store: MemoryStore, settings: Settings, judge: DedupJudge) -> None:
        self._store = store
        self._settings = settings
        self._judge = judge

    def nearest_existing(self, namespace: str, vectors: Vector) -> list[list[tuple[Memory, float]]]:
        """Tier 2 against the store: for each row, the current memories among its
        ``settings.write.dedup_neighbours`` nearest whose cosine reaches the escalate
        threshold, or the lower negation band (:meth:`negates`) — one batched vector
        query, one batched fetch.

        Every tier is searched, unretrievable memories too: the cold tier only keeps a
        memory out of *recall*; a restatement of it is still the same claim.
        """
        hits = self._store.vector_search(
            namespace,
            vectors,
            self._settings.write.dedup_neighbours,
            include_history=True,
            include_cold=True,
        )
        escalate = self._floor()
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

    def _floor(self) -> float:
        """The lowest cosine a stored neighbour is examined at: the tier-3 band, or the
        negation band below it (:meth:`negates`)."""
        cfg = self._settings
        return min(cfg.write.dedup_escalate, cfg.dynamics.consolidation_similarity)

    def negates(
        self, claim: Claim, item: Prepared, memory: Memory, known: EntityDictionary
    ) -> Compatibility | None:
        """A negation below the merge threshold (docs/spec.md §9.9–§9.10): the candidate
        negates or ends what ``memory`` states ("Noor does not drink alcohol anymore" after
        "Noor drinks alcohol.", cosine 0.83–0.86, under tier 2's 0.92 and often under
        tier 3's 0.85). Such a pair is no near-duplicate, so dedup never compared the
        claims, and both stayed current until the consolidation's consistency scan (docs/spec.md
        §10) superseded the older one. The write path now applies the scan's rule to it
        at once: cosine at least ``consolidation_similarity`` (the caller's filter), the
        same subject, a negation flip as the first incompatibility, and frames that
        overlap at least ``consistency_frame_overlap`` (the same content words:
        "is vegan" / "is not vegan anymore and eats dairy again" overlap 0.33 and stay
        for the scan's judge). Verbatim memories (turns as said) are records, not claims
        to update: neither side may be one (:func:`transcript`). Returns the verdict
        when it is such a conflict, else ``None``."""
        if transcript(item.candidate) or transcript(memory):
            return None
        theirs = claim_of(memory, known)
        if not same_subject(claim, theirs):
            return None
        verdict = check(claim, theirs)
        if verdict.reason is not Reason.NEGATION:
            return None
        overlap = frame_overlap(claim.content, memory.content)
        return verdict if overlap >= self._settings.guards.consistency_frame_overlap else None

    def find_duplicate(
        self,
        namespace: str,
        item: Prepared,
        vector: Vector,
        state: BatchState,
        existing_by_hash: dict[str, Memory],
        nearest: list[list[tuple[Memory, float]]],
        known: EntityDictionary,
        excluded: str | None,
    ) -> Match:
        """Tier 1 (hash), the same triple, then tier 2 (cosine) and tier 3 (judge) —
        docs/spec.md §2.7 — where every merge needs a compatible claim (§9.10).

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
                return Match(hit)
        if item.hash in existing_by_hash:
            hit = existing_by_hash[item.hash]
            if hit.id != excluded:
                return Match(state.memories.get(hit.id, hit))
        claim = self._claim(item.candidate, known)
        c = item.candidate
        if c.subject and c.predicate and c.object:
            for rival in self.triple_rivals(namespace, c.subject, c.predicate, state):
                if rival.id == excluded or not rival.is_current or not rival.object:
                    continue
                if rival.type != item.memory_type:
                    continue
                same = check(claim, claim_of(rival, known))
                if same or restates(c, rival, rival.type, same):
                    return Match(rival)
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
        found = Match()
        floor = self._floor()
        for memory, score in sorted(options, key=lambda pair: (-pair[1], pair[0].id)):
            if score < floor:
                break
            verdict = classify_similarity(
                score,
                duplicate=self._settings.write.dedup_duplicate,
                escalate=self._settings.write.dedup_escalate,
            )
            if verdict is not Verdict.DUPLICATE:
                if verdict is Verdict.AMBIGUOUS:
                    found.ambiguous = 1
                if verdict is Verdict.DISTINCT or not self._judge.same(
                    item.candidate, memory, score
                ):
                    negation = self.negates(claim, item, memory, known)
                    if negation is not None:
                        found.conflicts.append((memory, negation))
                    continue
            compatibility = check(claim, claim_of(memory, known))
            if compatibility:
                found.target = memory
                return found
            if _conflicts(compatibility, claim.content, memory.content):
                found.conflicts.append((memory, compatibility))
        return found

    def _claim(self, candidate: MemoryCandidate, known: EntityDictionary | None = None) -> Claim:
        names = [e.name for e in candidate.entities]
        names.extend(n for rel in candidate.relations for n in (rel.source, rel.target))
        user = known.user() if known is not None else None
        return Claim.of(candidate, dict.fromkeys(names), user.name if user else None)

    def triple_rivals(
        self, namespace: str, subject: str, predicate: str, state: BatchState
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

    def resolve_conflicts(
        self,
        namespace: str,
        memory: Memory,
        state: BatchState,
        near: list[tuple[Memory, Compatibility]],
        known: EntityDictionary,
        *,
        correction: Memory | None,
    ) -> tuple[Memory, list[str]]:
        """docs/spec.md §2.11 as amended by §9.9–§9.10: a new memory conflicts with the current
        memories of its subject and predicate that state another claim, and with the
        incompatible near-duplicates dedup found (``near``). Each conflict keeps the
        later observation current unless the older memory's confidence exceeds the
        newer one's by more than ``update_margin``; a correction always wins. The loser
        gets ``superseded_by`` / ``valid_until`` and is kept for audit.

        Returns the new memory (superseded when it lost) and the ids superseded.
        """
        rivals: dict[str, Memory] = {}
        if memory.subject and memory.predicate and not accumulates(memory.predicate, memory.type):
            claim = Claim.of(memory)
            for rival in self.triple_rivals(namespace, memory.subject, memory.predicate, state):
                if rival.id == memory.id or rival.content_hash == memory.content_hash:
                    continue
                if rival.type == "Event":
                    continue
                both_objects = memory.object and rival.object
                if both_objects and (
                    same_value(memory, rival) or check(claim, claim_of(rival, known))
                ):
                    continue  # the same value, or the same claim in other words: no conflict
                rivals[rival.id] = rival
        for rival, verdict in near:
            rivals.setdefault(rival.id, rival)
            state.why.setdefault(rival.id, verdict.detail or "contradicts the newer claim")
        found = self.attribute_rivals(namespace, memory, state, known)
        if correction is not None:
            # its target's attribute, nothing else; and the wrong value it names, wherever said
            corrected = stated_attribute(correction)
            found = [
                (rival, why)
                for rival, why in found
                if (
                    corrected is not None
                    and (theirs := stated_attribute(rival)) is not None
                    and theirs.key == corrected.key
                )
                or corrects(stated_attribute(memory), memory.content, rival.content)
            ]
            pool = self._subject_pool(namespace, subject_ids(correction, known), state)
            found += restatements(correction, pool, known, memory.content)
        for rival, reason in found:
            rivals.setdefault(rival.id, rival)
            state.why.setdefault(rival.id, reason)
        losers: list[str] = []
        margin = self._settings.write.update_margin
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

    def attribute_rivals(
        self, namespace: str, memory: Memory, state: BatchState, known: EntityDictionary
    ) -> list[tuple[Memory, str]]:
        """Current claims that ``memory`` updates by attribute, each with why (docs/spec.md §9.15;
        docs/updates.md): about the same subject, stating the same attribute
        (:func:`graphmem.language.attributes.primary`), which the newer one
        :func:`~graphmem.language.attributes.replaces` — "Lena moved to Denver." after
        "Lena lives in Portland.", however far apart the two embed. Read from the memories
        naming the subject (at most ``settings.write.attribute_neighbours``) and this call's
        own; transcript turns and one-off events never take part."""
        attribute = stated_attribute(memory)
        if transcript(memory) or memory.type == "Event":
            return []
        if is_eventlike(memory.content) and not ending_cue(memory.content):
            return []
        if attribute is None and not (ending_cue(memory.content) or shift_cue(memory.content)):
            return []
        claim = claim_of(memory, known)
        subject_words = frozenset(subject_of(claim) or ())
        people = frozenset(w for name in known.people() for w in name.casefold().split())
        out: list[tuple[Memory, str]] = []
        unrelated: list[Memory] = []
        for other in self._subject_pool(namespace, subject_ids(memory, known, claim), state):
            if other.id == memory.id or not other.is_current or transcript(other):
                continue
            if other.type == "Event" or other.last_observed_at > memory.last_observed_at:
                continue
            theirs = claim_of(other, known)
            # "Noa and I called it off" after "My girlfriend Noa is a nurse": an ending, not
            # the other rules or resemblance, may relate claims whose subjects name each other
            if not same_subject(claim, theirs):
                if name_each_other(claim, theirs):  # only a relationship that ended
                    why = partner_ended(memory, other, attribute, subject_words, people)
                    if why is not None:
                        out.append((other, why))
                continue
            kept = outlives(other, memory) or of_the_past(memory.content)  # "in Toronto I taught"
            why = (
                (None if kept else replaces(
                    attribute, stated_attribute(other), memory.content, other.content))
                or ends(memory.content, other.content, subject_words, people)
                or (None if outlives(other, memory) else corrects(attribute, memory.content, other.content))
                or job_changes(other, memory)
            )
            if why is not None:
                out.append((other, why))
            else:
                unrelated.append(other)
        if not out:  # no rule relates them: the one it clearly resembles, if any
            cfg = self._settings.write
            near = resembled(memory, unrelated, lambda others: vector_cosines(memory, others),
                             cfg.resemblance_floor, cfg.resemblance_margin)  # fmt: skip
            out = [near] if near is not None else []
        return sorted(out, key=lambda pair: pair[0].id)

    def _subject_pool(self, namespace: str, subjects: list[str], state: BatchState) -> list[Memory]:
        """The memories that mention ``subjects`` (at most
        ``settings.write.attribute_neighbours``, read once per subject and call) and this
        call's own, as this call last left them."""
        key = tuple(sorted(subjects))
        if key and key not in state.subject_memories:
            limit = self._settings.write.attribute_neighbours
            hits = self._store.entity_search(namespace, subjects, limit)
            ids = [h.memory_id for h in hits]
            # with their vectors: a claim superseded is written back from this copy, and
            # a copy without its vector would remove the stored one
            state.subject_memories[key] = self._store.get_memories(
                namespace, ids, with_embeddings=True
            )
        pool = {m.id: m for m in state.subject_memories.get(key, [])}
        pool.update(state.memories)
        return list(pool.values())


def transcript(memory: Memory | MemoryCandidate) -> bool:
    """A transcript record (a turn with its speaker's label, docs/spec.md §9.13): kept out of
    supersession; every other memory, whatever door it came through, is a claim."""
    return is_transcript(memory.extractor, memory.content)


def _conflicts(verdict: Compatibility, new: str, old: str) -> bool:
    """A conflict to supersede, or two claims? Two one-off events at other times or quantities
    ("ran 5 km on Monday" / "ran 8 km on Wednesday") are two (docs/spec.md §9.15)."""
    if verdict.reason is None or not verdict.reason.is_conflict:
        return False
    events = is_eventlike(new) and is_eventlike(old)
    return not (verdict.reason in (Reason.DATES, Reason.NUMBERS) and events)
