"""The consolidation pass and cold reactivation (docs/spec.md §4, §9.4–§9.5).

:func:`consolidate` pages through a namespace by id, ``batch_size`` memories at a
time, twice:

1. links associations: for a page's current memories that mention an entity (with
   ``since``, only those observed since then), one batched vector search
   (``association_k`` neighbours each, cold and non-retrievable memories included)
   and the pairs whose cosine is at least ``consolidation_similarity`` and that
   share an entity; those not stored yet (or with another similarity) are upserted
   in one short transaction;
2. decides every current memory's retrievability flag and tier
   (:func:`lifecycle_state`) and writes the changes in one short transaction.

Nothing holds a namespace-wide lock or transaction, so recall runs beside it; a
memory recalled or written between the scan and the update keeps its state until
the next pass (:class:`graphmem.store.base.LifecycleUpdate`). Running it twice at the same
``now`` changes nothing the second time, and writes nothing.

The read side, memories linked to what a recall returned brought back from the cold
tier, is :func:`graphmem.retrieval.access.reactivate_associated`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime

import numpy as np

from graphmem.errors import InvalidInputError
from graphmem.models import Memory, Tier
from graphmem.reports import ConsolidationReport
from graphmem.scoring import (
    freshness,
    is_retrievable,
    unretrievable_after_days,
)
from graphmem.settings import Settings
from graphmem.store.base import (
    Association,
    LifecycleUpdate,
    MemoryStore,
    ScoredId,
    association,
    memory_pages,
)
from graphmem.write.about import keeps_safe

_DAY = 86_400.0

__all__ = ["consolidate", "lifecycle_state"]


def _days(later: datetime, earlier: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / _DAY)


def lifecycle_state(memory: Memory, now: datetime, settings: Settings) -> tuple[bool, Tier]:
    """The retrievability flag and tier a memory should have at ``now``.

    - retrievable: ``freshness >= θ(conf) = min(1, 1.5·(1 − conf))`` (docs/spec.md §9.5), freshness
      by docs/spec.md §3 with the type's half-life stretched by stability, its age counted from
      ``last_observed_at`` (§9.4);
    - a retrievable memory is hot;
    - an unretrievable hot memory goes cold once it has been unretrievable for more than
      ``cold_after_days``, counted from the later of the moment its freshness fell below
      θ (``last_observed_at`` + :func:`~graphmem.scoring.unretrievable_after_days`) and
      its last access; an unretrievable cold memory stays cold (only a new observation,
      a confirmation or an association reactivates it).

    A current claim that keeps its subject safe (an allergy, a diet, a medication, a
    health condition: :func:`keeps_safe`) stays retrievable and hot however long it goes
    unused: a question it bears on ("Heading up to the alpine huts: what must I pack?")
    rarely shares its words (docs/spec.md §9.5).

    Returns
    -------
    (bool, str)
        ``(retrievable, tier)``.
    """
    if memory.is_current and keeps_safe(memory):
        return True, "hot"
    half_life = settings.read.ranking.half_life_days[memory.type]
    fresh = freshness(
        _days(now, memory.last_observed_at),
        half_life,
        memory.stability,
        floor=settings.read.ranking.freshness_floor,
    )
    if is_retrievable(fresh, memory.confidence, factor=settings.dynamics.retrievability_factor):
        return True, "hot"
    if memory.tier == "cold":
        return False, "cold"
    after = unretrievable_after_days(
        half_life,
        memory.stability,
        memory.confidence,
        floor=settings.read.ranking.freshness_floor,
        factor=settings.dynamics.retrievability_factor,
    )
    quiet_days = _days(now, memory.last_observed_at) - after  # unretrievable for this long
    if memory.last_accessed_at is not None:
        quiet_days = min(quiet_days, _days(now, memory.last_accessed_at))
    return False, ("cold" if quiet_days > settings.dynamics.cold_after_days else "hot")


def consolidate(
    store: MemoryStore,
    settings: Settings,
    namespace: str,
    now: datetime,
    *,
    batch_size: int = 500,
    since: datetime | None = None,
) -> ConsolidationReport:
    """Run the consolidation pass over ``namespace``; see the module docstring.

    Parameters
    ----------
    store : MemoryStore
    settings : Settings
        ``consolidation_similarity``, ``association_k``, ``cold_after_days``, the
        half-lives, freshness floor and retrievability factor.
    namespace : str
    now : datetime
        Timezone-aware time of the pass.
    batch_size : int
        Memories per page, ``>= 1``. Each page is one scan and one short
        transaction per step (one batched vector search, one link upsert; one
        lifecycle update).
    since : datetime, optional
        Incremental linking: search neighbours only from memories observed at or
        after ``since`` (e.g. the previous pass's ``now``). Pairs of two older
        memories were examined by that pass; a new memory finds its older
        neighbours from its own side. Lifecycle flags are always recomputed for
        every memory (they need no search).

    Returns
    -------
    ConsolidationReport

    Raises
    ------
    InvalidInputError
        For a naive ``now`` or ``since``, or ``batch_size < 1``.
    StoreError
        When a store call fails; pages already done stay done (each is
        consistent on its own) and a rerun picks up the rest.
    """
    for name, value in (("now", now), ("since", since)):
        if value is not None and value.utcoffset() is None:
            raise InvalidInputError("must be timezone-aware", field=name)
    if batch_size < 1:
        raise InvalidInputError(f"must be >= 1, got {batch_size}", field="batch_size")
    started = time.perf_counter()
    counts = dict.fromkeys(
        (
            "scanned",
            "batches",
            "associations_found",
            "associations_created",
            "marked_unretrievable",
            "marked_retrievable",
            "moved_cold",
            "moved_hot",
            "skipped",
        ),
        0,
    )
    # Links first, flags second: a flag change invalidates the embedded store's vector
    # index, so changing flags between the link searches would rebuild it per page.
    seen: set[tuple[str, str]] = set()  # pairs handled earlier in this run
    for page in memory_pages(store, namespace, batch_size):
        sources = [
            m
            for m in page
            if m.is_current and m.mentions and (since is None or m.last_observed_at >= since)
        ]
        links = [
            x
            for x in _association_links(store, settings, namespace, sources)
            if (x.source_id, x.target_id) not in seen
        ]
        seen.update((x.source_id, x.target_id) for x in links)
        counts["associations_found"] += len(links)
        counts["associations_created"] += _store_links(store, namespace, links)
    for page in memory_pages(store, namespace, batch_size):
        counts["scanned"] += len(page)
        counts["batches"] += 1
        updates = _lifecycle_updates([m for m in page if m.is_current], now, settings, counts)
        if updates:
            counts["skipped"] += len(updates) - store.set_lifecycle(namespace, updates)
    return ConsolidationReport(
        namespace=namespace,
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
        **counts,
    )


def _store_links(store: MemoryStore, namespace: str, links: Sequence[Association]) -> int:
    """Upsert the links that are new or whose similarity changed; returns how many are new.
    (Reading first keeps a rerun free of writes.)"""
    if not links:
        return 0
    stored = {
        (x.source_id, x.target_id): x.similarity
        for x in store.associations(namespace, sorted({x.source_id for x in links}))
    }
    changed = [x for x in links if stored.get((x.source_id, x.target_id)) != x.similarity]
    return store.add_associations(namespace, changed) if changed else 0


def _lifecycle_updates(
    memories: Sequence[Memory], now: datetime, settings: Settings, counts: dict[str, int]
) -> list[LifecycleUpdate]:
    updates: list[LifecycleUpdate] = []
    for memory in memories:
        retrievable, tier = lifecycle_state(memory, now, settings)
        if (retrievable, tier) == (memory.retrievable, memory.tier):
            continue
        if retrievable != memory.retrievable:
            counts["marked_retrievable" if retrievable else "marked_unretrievable"] += 1
        if tier != memory.tier:
            counts["moved_hot" if tier == "hot" else "moved_cold"] += 1
        updates.append(
            LifecycleUpdate(memory.id, retrievable, tier, memory.access_count, memory.version)
        )
    return updates


def _association_links(
    store: MemoryStore, settings: Settings, namespace: str, candidates: Sequence[Memory]
) -> list[Association]:
    """Pairs of a candidate and a current neighbour with cosine at or above the
    threshold and a shared entity, found with one batched vector search."""
    if not candidates:
        return []
    loaded = store.get_memories(namespace, [m.id for m in candidates], with_embeddings=True)
    sources = [m for m in loaded if m.embedding is not None and m.is_current and m.mentions]
    if not sources:
        return []
    matrix = np.asarray([m.embedding for m in sources], dtype=np.float32)
    rows = store.vector_search(
        namespace,
        matrix,
        settings.dynamics.association_k + 1,
        include_history=True,
        include_cold=True,
    )
    threshold = settings.dynamics.consolidation_similarity
    neighbours = {
        hit.memory_id
        for source, hits in zip(sources, rows, strict=True)
        for hit in hits
        if hit.memory_id != source.id and hit.score >= threshold
    }
    known = {m.id: m for m in sources}
    missing = [i for i in sorted(neighbours) if i not in known]
    known.update((m.id, m) for m in store.get_memories(namespace, missing))
    links: dict[tuple[str, str], Association] = {}
    for source, other, score in neighbour_pairs(sources, rows, known, threshold, _mentioned):
        link = association(source.id, other.id, score)
        links[(link.source_id, link.target_id)] = link
    return [links[key] for key in sorted(links)]


def _mentioned(memory: Memory) -> frozenset[str]:
    return frozenset(x.entity_id for x in memory.mentions)


def neighbour_pairs(
    sources: Sequence[Memory],
    rows: Sequence[Sequence[ScoredId]],
    known: Mapping[str, Memory],
    threshold: float,
    entities: Callable[[Memory], AbstractSet[str]],
) -> Iterator[tuple[Memory, Memory, float]]:
    """``(source, neighbour, score)`` for each source's vector-search hits (``rows``, one
    row a source) that are another current memory of ``known``, score at or above
    ``threshold`` and share one of ``entities`` with the source."""
    for source, hits in zip(sources, rows, strict=True):
        about = entities(source)
        for hit in hits:
            other = known.get(hit.memory_id)
            if (
                other is None
                or other.id == source.id
                or hit.score < threshold
                or not other.is_current
                or about.isdisjoint(entities(other))
            ):
                continue
            yield source, other, hit.score
