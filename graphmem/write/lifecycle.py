"""Confirmation, correction and forgetting (docs/spec.md §2.10, §2.11, §1 "Provenance").

Each function reads what it needs, computes the new state with the formulas of
docs/spec.md, and returns a :class:`WriteBatch` for one atomic store write; the
facade writes them as compare-and-sets on the versions read
(:mod:`graphmem.facade.write_retry`).
"""

from __future__ import annotations

from datetime import datetime

from graphmem.models import Memory, Observation
from graphmem.scoring import confirmed
from graphmem.settings import Settings
from graphmem.store.base import WriteBatch
from graphmem.write.scores import compute_confidence

CONFIRMATION_SESSION = "confirmation"
CORRECTION_SESSION = "correction"
#: Session ids of confirmations and corrections made outside a conversation (no
#: ``session_id`` given): recorded as observations (forgetting them undoes them) but
#: not counted as sessions (``stats``; the stores' stats queries name them too).
PSEUDO_SESSIONS = frozenset({CONFIRMATION_SESSION, CORRECTION_SESSION})


def confirm_memory(
    memory: Memory, settings: Settings, now: datetime, *, session_id: str | None = None
) -> Memory:
    """docs/spec.md §2.10: ``s = max(s, 0.80)``, ``n += 1``, confidence recomputed and
    clamped to the confirmation cap (0.99). The confirmation is recorded as an
    observation (so forgetting its session undoes it) and restarts the decay
    clock (§9.4)."""
    s, n, conf = confirmed(
        memory.source_strength,
        memory.n,
        memory.extractor_confidence,
        memory.type_prior,
        weights=settings.write.confidence_weights,
        confirmation_source=settings.write.confirmation_source,
        cap=settings.write.confirmation_cap,
    )
    observation = Observation(
        session_id=session_id or CONFIRMATION_SESSION,
        turn_id=None,
        observed_at=now,
        source_level="confirmed",
        surface_hash="confirmation",
        independent=True,
    )
    level = memory.source_level if memory.source_strength >= s else "confirmed"
    return memory.model_copy(
        update={
            "source_strength": s,
            "source_level": level,
            "n": n,
            "confidence": conf,
            "observations": (*memory.observations, observation),
            "last_observed_at": now,
        }
    )


def supersede(old: Memory, new_id: str, now: datetime) -> Memory:
    """Mark ``old`` as replaced by ``new_id`` from ``now`` (kept for audit)."""
    return old.model_copy(update={"superseded_by": new_id, "valid_until": now})


def forget_session_batch(
    memories: list[Memory], session_id: str, settings: Settings
) -> tuple[WriteBatch, list[str], list[str]]:
    """Remove ``session_id``'s contributions (docs/spec.md §1 "Provenance").

    Memories supported only by the session are deleted; the rest are
    recomputed without its observations: ``n`` = remaining independent
    observations, ``s`` = max of the remaining source levels, confidence from
    the formula (no merge floor: the evidence is gone), ``last_observed_at`` =
    latest remaining observation. The entities the deleted memories mentioned go
    too when nothing else mentions or relates them (``prune_entity_ids``); the
    relations the deleted memories asserted go with them, and the session's turns
    and the session with its last memory (the store's write). The batch expects
    every memory it writes or deletes at the version read (``expected_versions``).

    Returns
    -------
    (batch, deleted_ids, updated_ids)
    """
    batch = WriteBatch()
    deleted: list[str] = []
    updated: list[str] = []
    for memory in memories:
        remaining = tuple(o for o in memory.observations if o.session_id != session_id)
        if len(remaining) == len(memory.observations):
            continue
        batch.expected_versions[memory.id] = memory.version
        if not remaining:
            batch.deleted_memory_ids.append(memory.id)
            batch.prune_entity_ids.extend(m.entity_id for m in memory.mentions)
            deleted.append(memory.id)
            continue
        s = max(settings.write.source_levels[o.source_level] for o in remaining)
        if memory.hearsay:
            s = min(s, settings.write.hearsay_cap)
        n = sum(1 for o in remaining if o.independent)
        conf = compute_confidence(
            settings, s, n, memory.extractor_confidence, memory.type_prior, memory.grounding
        )
        if any(o.source_level == "confirmed" and o.turn_id is None for o in remaining):
            conf = min(conf, settings.write.confirmation_cap)
        level = max(
            remaining, key=lambda o: settings.write.source_levels[o.source_level]
        ).source_level
        batch.memories.append(
            memory.model_copy(
                update={
                    "observations": remaining,
                    "n": n,
                    "source_strength": s,
                    "source_level": level,
                    "confidence": conf,
                    "last_observed_at": max(o.observed_at for o in remaining),
                }
            )
        )
        updated.append(memory.id)
    return batch, deleted, updated
