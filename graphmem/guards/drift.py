"""Concept drift per entity (docs/spec.md §10: drift
distance 0.4, range 0.2–0.6; relation overlap 0.5, range 0.3–0.7).

An entity's current memories, in time order (``time_anchor``, then id), are split at
a time point into *before* and *after* (each side at least ``drift_min_memories``).
For each split:

- ``distance = 1 − cos(centroid(before), centroid(after))``, centroids the means of
  the memories' unit embeddings (0 = same direction, up to 2);
- ``relation_overlap = |B ∩ A| / |B ∪ A|`` (Jaccard), ``B`` and ``A`` the entity's
  (predicate, neighbour) pairs in each period: a memory of the period that mentions the
  entity and a neighbour contributes the stored relations between the two (direction
  kept: ``WORKS_AT→Acme``, ``←MANAGES Kim``), or ``CO_MENTIONED`` when none is stored.
  Two empty sets overlap 1.0 (no evidence of change).

Drift when ``distance > drift_distance`` **and** ``relation_overlap <
drift_relation_overlap`` **and** the memories span at least ``drift_min_span_days``
(30, between the first and the last time they were said; a sense changes over
weeks, not within one conversation: a one-week chat
moves from topic to topic, and its turns name different neighbours, without the
name meaning someone else); the split reported is the drifting one with the largest
distance, else the largest-distance split. Typical cause: two people resolved into
one entity ("Jordan" the coworker and "Jordan" the cousin) — their topics and their
neighbours both change. Someone who changes jobs keeps most neighbours (family,
friends, city): a large distance alone is not drift. Reported by the consolidation
pass and ``graphmem doctor``; never acted on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from graphmem.models import Entity, Memory, Relation
from graphmem.reports import EntityDrift
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, memory_pages

__all__ = ["CO_MENTIONED", "DriftPoint", "entity_drift", "namespace_drift", "relation_keys"]

#: Relation key of a neighbour a memory mentions with no stored relation to the entity.
CO_MENTIONED = "CO_MENTIONED"


@dataclass(frozen=True, slots=True)
class DriftPoint:
    """One memory of an entity as drift sees it: when, which, its unit embedding and
    the entity's (predicate, neighbour) keys it carries."""

    at: datetime
    memory_id: str
    embedding: np.ndarray
    relations: frozenset[str]
    #: when it was said (last observation); default ``at``. The span test reads these:
    #: a week's chat about last year and next June is still a week of talk.
    observed_at: datetime | None = None


def relation_keys(
    entity_id: str,
    memory: Memory,
    relations: Sequence[Relation],
    names: Mapping[str, str],
) -> frozenset[str]:
    """The entity's (predicate, neighbour) keys one memory carries (module docstring).

    ``relations`` are the stored relations touching ``entity_id``; ``names`` maps entity
    ids to names (keys read ``WORKS_AT→Acme``; an unknown id shows as itself)."""
    keys: set[str] = set()
    for mention in memory.mentions:
        other = mention.entity_id
        if other == entity_id:
            continue
        label = names.get(other, other)
        found = False
        for rel in relations:
            if rel.source_id == entity_id and rel.target_id == other:
                keys.add(f"{rel.predicate}→{label}")
                found = True
            elif rel.target_id == entity_id and rel.source_id == other:
                keys.add(f"←{rel.predicate} {label}")
                found = True
        if not found:
            keys.add(f"{CO_MENTIONED} {label}")
    return frozenset(keys)


def _unit(vector: Iterable[float]) -> np.ndarray:
    array = np.asarray(tuple(vector), dtype=np.float64)
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 else array


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return 1.0 if not union else len(a & b) / len(union)


def entity_drift(
    entity: Entity,
    points: Sequence[DriftPoint],
    *,
    distance: float,
    relation_overlap: float,
    min_memories: int,
    min_span_days: float = 0.0,
) -> EntityDrift | None:
    """The drift test of docs/spec.md §10 on one entity's memories; see the module docstring.

    Parameters
    ----------
    entity : Entity
    points : sequence of DriftPoint
        The entity's current memories (any order).
    distance : float
        ``drift_distance`` (0.4; 0.2–0.6): centroid cosine distance above which the
        senses differ.
    relation_overlap : float
        ``drift_relation_overlap`` (0.5; 0.3–0.7): Jaccard overlap below which the
        neighbourhoods differ.
    min_memories : int
        Fewest memories on each side of a split (``>= 1``).
    min_span_days : float
        ``drift_min_span_days`` (30): memories said within less time (first to last
        ``observed_at``, else ``at``) never drift; their best split is still reported.

    Returns
    -------
    EntityDrift or None
        ``None`` when no split leaves ``min_memories`` on both sides at distinct times.
    """
    ordered = sorted(points, key=lambda p: (p.at, p.memory_id))
    count = len(ordered)
    if count < 2 * max(1, min_memories):
        return None
    vectors = np.stack([_unit(p.embedding) for p in ordered])
    prefix = np.cumsum(vectors, axis=0)
    total = prefix[-1]
    said = [p.observed_at or p.at for p in ordered]
    long_enough = (max(said) - min(said)).total_seconds() >= min_span_days * 86_400
    best: tuple[bool, float, float, int] | None = None  # (drift, distance, overlap, split)
    for split in range(max(1, min_memories), count - max(1, min_memories) + 1):
        if ordered[split - 1].at == ordered[split].at:
            continue  # a split is a time point: equal times stay on one side
        before, after = prefix[split - 1], total - prefix[split - 1]
        norms = float(np.linalg.norm(before) * np.linalg.norm(after))
        dist = 1.0 - (float(before @ after) / norms if norms > 0 else 0.0)
        keys_before = frozenset().union(*(p.relations for p in ordered[:split]))
        keys_after = frozenset().union(*(p.relations for p in ordered[split:]))
        overlap = _jaccard(keys_before, keys_after)
        drift = long_enough and dist > distance and overlap < relation_overlap
        candidate = (drift, dist, overlap, split)
        if best is None or (candidate[0], candidate[1]) > (best[0], best[1]):
            best = candidate
    if best is None:
        return None
    drift, dist, overlap, split = best
    before_keys = frozenset().union(*(p.relations for p in ordered[:split]))
    after_keys = frozenset().union(*(p.relations for p in ordered[split:]))
    return EntityDrift(
        entity_id=entity.id,
        name=entity.name,
        split_at=ordered[split].at,
        distance=round(dist, 4),
        relation_overlap=round(overlap, 4),
        drift=drift,
        before_ids=tuple(p.memory_id for p in ordered[:split]),
        after_ids=tuple(p.memory_id for p in ordered[split:]),
        before_relations=tuple(sorted(before_keys)),
        after_relations=tuple(sorted(after_keys)),
    )


def _points(
    entity_id: str,
    memories: Iterable[Memory],
    relations: Sequence[Relation],
    names: Mapping[str, str],
) -> list[DriftPoint]:
    touching = [r for r in relations if entity_id in (r.source_id, r.target_id)]
    return [
        DriftPoint(
            m.time_anchor,
            m.id,
            np.asarray(m.embedding),
            relation_keys(entity_id, m, touching, names),
            m.last_observed_at,
        )
        for m in memories
        if m.embedding is not None and m.is_current
    ]


def namespace_drift(
    store: MemoryStore,
    settings: Settings,
    namespace: str,
    *,
    entity_ids: Sequence[str] | None = None,
    since: datetime | None = None,
    batch_size: int = 500,
) -> list[EntityDrift]:
    """The drift test on every entity of ``namespace`` (or on ``entity_ids``) with
    enough current memories: one paged scan of the namespace with embeddings and one
    relation query.

    ``since``: only entities with a memory observed at or after it (the ones a pass
    since then can have changed). Returns every entity's best split, drifting or not,
    sorted by (drift first, distance descending, name); callers filter on ``drift``.
    """
    wanted = None if entity_ids is None else set(entity_ids)
    by_entity: dict[str, list[Memory]] = {}
    touched: set[str] = set()
    for page in memory_pages(store, namespace, batch_size, with_embeddings=True):
        for memory in page:
            if not memory.is_current or memory.embedding is None:
                continue
            for ident in dict.fromkeys(x.entity_id for x in memory.mentions):
                if wanted is None or ident in wanted:
                    by_entity.setdefault(ident, []).append(memory)
                    if since is None or memory.last_observed_at >= since:
                        touched.add(ident)
    floor = 2 * max(1, settings.guards.drift_min_memories)
    candidates = sorted(i for i, ms in by_entity.items() if len(ms) >= floor and i in touched)
    if not candidates:
        return []
    entities = {e.id: e for e in store.list_entities(namespace)}
    names = {i: e.name for i, e in entities.items()}
    relations = store.relation_subgraph(namespace, candidates, 1)
    found: list[EntityDrift] = []
    for ident in candidates:
        entity = entities.get(ident) or Entity(id=ident, namespace=namespace, name=ident)
        result = entity_drift(
            entity,
            _points(ident, by_entity[ident], relations, names),
            distance=settings.guards.drift_distance,
            relation_overlap=settings.guards.drift_relation_overlap,
            min_memories=settings.guards.drift_min_memories,
            min_span_days=settings.guards.drift_min_span_days,
        )
        if result is not None:
            found.append(result)
    found.sort(key=lambda d: (not d.drift, -d.distance, d.name))
    return found
