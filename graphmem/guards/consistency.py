"""The consistency scan (docs/spec.md §10 "Consistency scan"): pairs of current memories
that contradict each other and escaped the write path — older data, imports, memories
written before the §9.10 rule existed, two extractors' outputs, or pairs below the write
path's near-duplicate threshold.

For each current memory that mentions an entity (with ``since``: observed since then),
one batched vector search finds its ``association_k`` nearest current memories; a pair
is examined when

- its cosine is at least ``consolidation_similarity`` (0.75),
- the two share a *subject entity*: a mention with role ``subject``, or, for a memory
  with no subject role, any entity it mentions,
- and the §9.10 rule (:func:`graphmem.language.claims.check`) finds them incompatible for
  a reason other than ``subject`` (two claims about different subjects are distinct).

Such a pair is

- a **conflict** when the two state different values of one thing (a negation flip,
  another object or state, two different dates, numbers or names): resolved by §9.9
  (:func:`graphmem.write.dedup.update_wins`: the later observation stays current unless
  the other's confidence exceeds its own by more than ``update_margin``); the loser gets
  ``superseded_by`` / ``valid_until`` and its relations end with it;
- **ambiguous** when the rule cannot tell a contradiction from two true claims: one
  claim only adds a date, number or name the other lacks
  (:func:`graphmem.language.claims.one_sided`: "moved to Berlin in 2021" / "lives in
  Berlin"); the two say different things, so the names they differ in fill no common
  slot (:func:`frame_overlap` below ``consistency_frame_overlap``: "found a rainbow
  sidewalk during Pride Month" / "attended an LGBTQ+ pride parade"); or two Events
  differ only in date or number (the same thing twice, or a corrected date). A :class:`~graphmem.guards.judge.PairJudge` decides these; with
  none, two Events are *held* (reported, both kept current) and the other ambiguous
  pairs are left alone (no contradiction the rule can stand behind).

Each write is a compare-and-set on the two memories' versions; a pair whose memories
changed since the scan read them is reported ``skipped`` and left for the next pass.
Idempotent: a second pass finds the superseded memory no longer current.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from graphmem.entities import EntityDictionary
from graphmem.errors import WriteConflictError
from graphmem.guards.judge import PairJudge
from graphmem.language.claims import (
    Claim,
    Compatibility,
    Reason,
    check,
    claim_of,
    frame_overlap,
    one_sided,
)
from graphmem.models import Memory
from graphmem.reports import ConsistencyPair, ConsistencyReport
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, WriteBatch, memory_pages, versions_read
from graphmem.write.consolidation import neighbour_pairs
from graphmem.write.dedup import update_wins
from graphmem.write.lifecycle import supersede

__all__ = [
    "PairFinding",
    "classify_pair",
    "consistency_scan",
    "frame_overlap",
    "resolve_pair",
    "subject_entities",
]

_TIME_REASONS = (Reason.DATES, Reason.NUMBERS)


@dataclass(frozen=True, slots=True)
class PairFinding:
    """What the rule says of a pair: ``kind`` is ``"conflict"`` (two values of one
    thing), or ambiguous: ``"one-sided"`` (one claim only adds a date, number or name),
    ``"other-frame"`` (the claims say different things: :func:`frame_overlap` below
    ``consistency_frame_overlap``) or ``"event"`` (two Events that differ only in date
    or number)."""

    kind: str
    compatibility: Compatibility
    why: str


def subject_entities(memory: Memory) -> frozenset[str]:
    """The entities a memory is about: its ``subject`` mentions, else all it mentions."""
    subjects = frozenset(m.entity_id for m in memory.mentions if m.role == "subject")
    return subjects or frozenset(m.entity_id for m in memory.mentions)


def classify_pair(
    a: Memory, b: Memory, dictionary: EntityDictionary, *, min_frame_overlap: float = 0.5
) -> PairFinding | None:
    """The scan's verdict on two memories about one subject (module docstring): ``None``
    when compatible or about different subjects; see :class:`PairFinding`.
    ``min_frame_overlap``: ``Settings.guards.consistency_frame_overlap`` (:func:`frame_overlap`;
    an incompatible pair below it is ``"other-frame"``, ambiguous)."""
    first, second = claim_of(a, dictionary), claim_of(b, dictionary)
    verdict = check(first, second)
    if verdict.reason is None or not verdict.reason.is_conflict:
        return None
    why = f"{verdict.reason.value}: {verdict.detail}"
    if one_sided(first, second) or one_sided(Claim.of(a), Claim.of(b)):
        # (the text alone decides too: an extractor's extra mention is no claim)
        return PairFinding("one-sided", verdict, f"{why} (detail on one side only)")
    if verdict.reason is not Reason.OBJECT:
        overlap = frame_overlap(a.content, b.content)
        if overlap < min_frame_overlap:
            return PairFinding(
                "other-frame", verdict, f"{why} (frames differ: word overlap {overlap:.2f})"
            )
    if "Event" in (a.type, b.type) and verdict.reason in _TIME_REASONS:
        return PairFinding("event", verdict, f"{why} (an Event twice, or a corrected one?)")
    return PairFinding("conflict", verdict, why)


def resolve_pair(a: Memory, b: Memory, *, margin: float) -> tuple[Memory, Memory, str]:
    """docs/spec.md §9.9 on a conflicting pair: ``(kept, superseded, why)``."""
    newer, older = (a, b) if (a.last_observed_at, a.id) >= (b.last_observed_at, b.id) else (b, a)
    if update_wins(
        newer.confidence, newer.last_observed_at, older.confidence, older.last_observed_at,
        margin=margin,
    ):  # fmt: skip
        return (
            newer,
            older,
            (
                f"§9.9: the later observation ({newer.last_observed_at:%Y-%m-%d}) stays current"
                f" (confidence {newer.confidence:.2f} vs {older.confidence:.2f},"
                f" update_margin {margin:.2f})"
            ),
        )
    return (
        older,
        newer,
        (
            f"§9.9: the earlier memory stays current: its confidence {older.confidence:.2f}"
            f" exceeds the later one's {newer.confidence:.2f} by more than update_margin"
            f" {margin:.2f}"
        ),
    )


def _neighbours(
    store: MemoryStore, settings: Settings, namespace: str, sources: Sequence[Memory]
) -> list[tuple[Memory, Memory, float]]:
    """Pairs (source, current neighbour, cosine >= threshold) sharing a subject entity,
    with one batched vector search and one batched fetch."""
    loaded = store.get_memories(namespace, [m.id for m in sources], with_embeddings=True)
    loaded = [m for m in loaded if m.embedding is not None and m.is_current]
    if not loaded:
        return []
    matrix = np.asarray([m.embedding for m in loaded], dtype=np.float32)
    rows = store.vector_search(
        namespace, matrix, settings.dynamics.association_k + 1, include_cold=True
    )
    threshold = settings.dynamics.consolidation_similarity
    wanted = sorted(
        {h.memory_id for row in rows for h in row if h.score >= threshold} - {m.id for m in loaded}
    )
    known = {m.id: m for m in loaded}
    known.update((m.id, m) for m in store.get_memories(namespace, wanted, with_embeddings=True))
    pairs: list[tuple[Memory, Memory, float]] = []
    for source, other, score in neighbour_pairs(loaded, rows, known, threshold, subject_entities):
        pairs.append((source, other, float(score)))
    return pairs


def consistency_scan(
    store: MemoryStore,
    settings: Settings,
    namespace: str,
    dictionary: EntityDictionary,
    *,
    since: datetime | None = None,
    batch_size: int = 500,
    judge: PairJudge | None = None,
) -> ConsistencyReport:
    """Run the consistency scan over ``namespace``; see the module docstring.

    Parameters
    ----------
    store, settings, namespace
        ``consolidation_similarity``, ``association_k`` and ``update_margin`` are read.
    dictionary : EntityDictionary
        The namespace's entities (names of mentioned entities count as the claim's names).
    since : datetime, optional
        Only memories observed at or after it look for rivals (rivals may be older).
    batch_size : int
        Memories per page, ``>= 1``.
    judge : PairJudge, optional
        Decides the ambiguous pairs.

    Returns
    -------
    ConsistencyReport
        Pairs found, superseded, held and skipped, each with ids and reasons.
    """
    margin = settings.write.update_margin
    examined = 0
    seen: set[tuple[str, str]] = set()
    retired: set[str] = set()
    pairs: list[ConsistencyPair] = []
    for page in memory_pages(store, namespace, batch_size):
        sources = [
            m
            for m in page
            if m.is_current and m.mentions and (since is None or m.last_observed_at >= since)
        ]
        examined += len(sources)
        if not sources:
            continue
        found = sorted(
            _neighbours(store, settings, namespace, sources),
            key=lambda t: (-t[2], min(t[0].id, t[1].id), max(t[0].id, t[1].id)),
        )
        for source, other, similarity in found:
            key = (min(source.id, other.id), max(source.id, other.id))
            if key in seen or retired & set(key):
                continue
            seen.add(key)
            finding = classify_pair(
                source,
                other,
                dictionary,
                min_frame_overlap=settings.guards.consistency_frame_overlap,
            )
            if finding is None:
                continue
            decided_by, reason = "rule", finding.why
            if finding.kind != "conflict":
                verdict = None if judge is None else judge.judge_pair(source, other, similarity)
                if verdict is not None and verdict.verdict == "compatible":
                    continue
                if judge is not None and verdict is not None and verdict.verdict == "conflict":
                    decided_by, reason = (
                        judge.name,
                        f"{finding.why}; {judge.name}: {verdict.reason}",
                    )
                elif finding.kind in ("one-sided", "other-frame"):
                    continue  # no contradiction by the rule, and no judge said otherwise
                else:
                    pairs.append(_held(source, other, similarity, finding.why, dictionary))
                    continue
            pairs.append(
                _resolve(store, namespace, source, other, similarity, reason, decided_by,
                         margin, dictionary)
            )  # fmt: skip
            if pairs[-1].action == "superseded":
                retired.add(pairs[-1].superseded_id)
    return ConsistencyReport(
        examined=examined,
        pairs_found=len(pairs),
        superseded=sum(p.action == "superseded" for p in pairs),
        held=sum(p.action == "held" for p in pairs),
        skipped=sum(p.action == "skipped" for p in pairs),
        pairs=tuple(pairs),
    )


def _subject_name(a: Memory, b: Memory, dictionary: EntityDictionary) -> str:
    shared = sorted(subject_entities(a) & subject_entities(b))
    entity = dictionary.get(shared[0]) if shared else None
    return entity.name if entity is not None else (shared[0] if shared else "")


def _held(
    a: Memory, b: Memory, similarity: float, reason: str, dictionary: EntityDictionary
) -> ConsistencyPair:
    """An ambiguous pair no judge decided: reported, both stay current (``kept_id``: the
    one §9.9 would keep)."""
    kept = a if (a.last_observed_at, a.id) >= (b.last_observed_at, b.id) else b
    lost = b if kept is a else a
    return ConsistencyPair(
        kept_id=kept.id,
        superseded_id=lost.id,
        similarity=round(similarity, 4),
        subject=_subject_name(a, b, dictionary),
        reason=reason,
        resolution="held: both stay current (ambiguous, no judge decided)",
        action="held",
        decided_by="rule",
    )


def _resolve(
    store: MemoryStore,
    namespace: str,
    a: Memory,
    b: Memory,
    similarity: float,
    reason: str,
    decided_by: str,
    margin: float,
    dictionary: EntityDictionary,
) -> ConsistencyPair:
    """Supersede the §9.9 loser in one compare-and-set write."""
    kept, lost, resolution = resolve_pair(a, b, margin=margin)
    when = max(a.last_observed_at, b.last_observed_at)
    retired = supersede(lost, kept.id, when)
    action = "superseded"
    try:
        store.write(
            namespace,
            WriteBatch(memories=[retired], expected_versions=versions_read([lost])),
        )
    except WriteConflictError:
        action, resolution = "skipped", f"{resolution}; skipped: changed since read"
    return ConsistencyPair(
        kept_id=kept.id,
        superseded_id=lost.id,
        similarity=round(similarity, 4),
        subject=_subject_name(a, b, dictionary),
        reason=reason,
        resolution=resolution,
        action=action,
        decided_by=decided_by,
    )
