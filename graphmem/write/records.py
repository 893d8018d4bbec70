"""Building the memories a write stores: a new one from a candidate, or an existing
one merged with a new observation (docs/spec.md §2.8–§2.9, §4, §9.4–§9.5)."""

from __future__ import annotations

from datetime import datetime, timedelta

from graphmem.models import Memory, Mention
from graphmem.scoring import merged_confidence
from graphmem.settings import Settings
from graphmem.store.base import Vector
from graphmem.text import memory_id
from graphmem.write.batch import Prepared
from graphmem.write.consolidation import lifecycle_state
from graphmem.write.dedup import already_recorded, is_independent
from graphmem.write.scores import compute_confidence, derived_event_time


def create_memory(
    settings: Settings,
    namespace: str,
    item: Prepared,
    vector: Vector,
    mentions: list[Mention],
    now: datetime,
) -> Memory:
    """A new memory from a prepared candidate (docs/spec.md §2): the scores of ``item``, the
    observation, the mentions and ``vector`` as its embedding; the event time is the
    candidate's, else the one its own words name (:func:`derived_event_time`)."""
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
        salience=c.salience if c.salience is not None else settings.dynamics.salience_initial,
        created_at=now,
        last_observed_at=item.observation.observed_at,
        event_time=c.event_time or derived_event_time(c.content, item.observation.observed_at),
        content_hash=item.hash,
        key=item.key,
        mentions=tuple(mentions),
        embedding=tuple(float(x) for x in vector),
    )


def merge_memory(
    settings: Settings, old: Memory, item: Prepared, mentions: list[Mention], now: datetime
) -> Memory:
    """docs/spec.md §2.8–§2.9: n adds independent observations only; s = max;
    confidence recomputed and never lowered; observations unioned.

    A cold or unretrievable memory that a new independent observation makes
    retrievable again at ``now`` (:func:`lifecycle_state` of the merged memory)
    returns to hot and retrievable; an old observation (an import of past
    sessions) that leaves it stale leaves it where it was."""
    obs = item.observation
    all_mentions = tuple(dict.fromkeys((*old.mentions, *mentions)))
    if already_recorded(obs, old.observations):
        return old.model_copy(update={"mentions": all_mentions})
    window = timedelta(hours=settings.write.independence_window_hours)
    independent = item.n > 0 and is_independent(obs, old.observations, window=window)
    obs = obs.model_copy(update={"independent": independent})
    n = old.n + (item.n if independent else 0)
    s = max(old.source_strength, item.s)
    level = old.source_level if old.source_strength >= item.s else item.candidate.source_level
    recomputed = compute_confidence(
        settings, s, n, old.extractor_confidence, old.type_prior, old.grounding
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
        if lifecycle_state(hot, now, settings)[0]:
            merged = hot.model_copy(update={"retrievable": True})
    return merged
