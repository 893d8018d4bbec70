"""The access update a recall records on what it returned (SPEC §4, §9.12)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from graphmem.models import RecallHit
from graphmem.retrieval.ranking import days_between
from graphmem.retrieval.retrievers import Hit
from graphmem.scoring import salience_on_access, updated_stability
from graphmem.settings import Settings
from graphmem.store.base import AccessUpdate


def counted(
    settings: Settings, ranked: list[RecallHit], hits: Mapping[str, list[Hit]]
) -> list[RecallHit]:
    """What a recall counts as accessed (SPEC §9.12, ``Settings.access_count_top``):
    its top N results that some retriever found directly and that pass the render gate."""
    direct = {h.memory_id for hs in hits.values() for h in hs if not h.associative}
    top = ranked[: settings.access_count_top]
    return [h for h in top if h.memory.id in direct and h.explanation.renderable]


def access_updates(
    settings: Settings,
    ranked: list[RecallHit],
    hits: Mapping[str, list[Hit]],
    now: datetime,
    session_id: str | None,
) -> list[AccessUpdate]:
    """SPEC §4 access update of each of ``ranked``: count, time, stability (direct 0.1 /
    associative 0.03 × spaced-repetition factor), salience, session; a cold or
    unretrievable memory is reactivated."""
    cfg = settings
    direct = {h.memory_id for hs in hits.values() for h in hs if not h.associative}
    updates: list[AccessUpdate] = []
    for hit in ranked:
        m = hit.memory
        boost = cfg.stability_direct_boost if m.id in direct else cfg.stability_associative_boost
        since = days_between(now, m.last_accessed_at or m.created_at)
        updates.append(
            AccessUpdate(
                memory_id=m.id,
                accessed_at=now,
                stability=updated_stability(
                    m.stability,
                    since,
                    boost=boost,
                    interval_days=cfg.spaced_rep_interval_days,
                    max_factor=cfg.spaced_rep_max,
                ),
                salience=salience_on_access(m.salience, step=cfg.salience_access_step),
                session_id=session_id,
                reactivate=m.tier == "cold" or not m.retrievable,
            )
        )
    return updates
