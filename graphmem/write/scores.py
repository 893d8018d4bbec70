"""Persist-time scores of a memory candidate (docs/spec.md §2 steps 1–6, §2.5–§2.6, §11)."""

from __future__ import annotations

from datetime import datetime

from graphmem.language.timeparse import parse_time_window
from graphmem.models import Memory, MemoryCandidate, Observation
from graphmem.scoring import (
    apply_grounding,
    confidence,
    extractor_confidence,
    source_strength,
    type_prior,
)
from graphmem.settings import MEMORY_TYPES, MemoryTypeName, Settings
from graphmem.text import content_hash, surface_hash
from graphmem.write.batch import Prepared


def compute_confidence(
    settings: Settings, s: float, n: int, e: float, t: float, grounding: str
) -> float:
    """docs/spec.md §2.5 then §2.6: the stored confidence of a memory."""
    raw = confidence(s, n, e, t, weights=settings.write.confidence_weights)
    return apply_grounding(
        raw,
        grounding,
        floor=settings.write.grounding_floor,
        partial_penalty=settings.write.grounding_penalty_partial,
        unknown_penalty=settings.write.grounding_penalty_unknown,
    )


def derived_event_time(content: str, observed_at: datetime) -> datetime | None:
    """Event time implied by the content's own time expression, resolved against
    when it was said ("last week" said on 2023-05-08 → 2023-05-01); ``None`` when
    the content names no time or only a vague one ("recently")."""
    window = parse_time_window(content, observed_at)
    if window is None or window.precision == "vague":
        return None
    return window.center


def prepare_candidate(
    settings: Settings, index: int, candidate: MemoryCandidate, now: datetime
) -> Prepared | None:
    """docs/spec.md §2 steps 1–6 for one candidate (``index``: its place in the call): type prior,
    source strength, extractor confidence, ``n``, confidence with grounding, the content
    hash and the observation; ``None`` when grounding is ``unsupported`` (rejected)."""
    cfg = settings
    if candidate.grounding == "unsupported":
        return None
    known_type = candidate.type in MEMORY_TYPES
    t, uncertain = type_prior(
        candidate.type if known_type else None,
        priors=cfg.write.type_priors,
        uncertain=cfg.write.type_prior_uncertain,
    )
    s = source_strength(
        [candidate.source_level],
        levels=cfg.write.source_levels,
        hearsay=candidate.hearsay,
        hearsay_cap=cfg.write.hearsay_cap,
    )
    e = extractor_confidence(
        candidate.extractor,
        candidate.logprobs,
        table=cfg.write.extractor_table,
        unknown=cfg.write.extractor_unknown,
        verbatim=cfg.write.extractor_verbatim,
    )
    if candidate.extractor_confidence is not None and candidate.logprobs is None:
        e = candidate.extractor_confidence
    # docs/spec.md §9.1: textual evidence (a turn, or a direct / confirmed statement) is
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
    return Prepared(
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
        hash=content_hash(memory_type, candidate.subject, candidate.predicate, candidate.content),
        observation=observation,
    )


def inferred_relation_cap(settings: Settings, memory: Memory) -> float:
    """Confidence of a relation parsed from the memory's text (docs/spec.md §11): source
    strong_inference, ``e`` of the ``ner`` extractor, type prior Relation, the
    memory's ``n``."""
    cfg = settings
    e = extractor_confidence(
        "ner",
        None,
        table=cfg.write.extractor_table,
        unknown=cfg.write.extractor_unknown,
        verbatim=cfg.write.extractor_verbatim,
    )
    return compute_confidence(
        cfg,
        cfg.write.source_levels["strong_inference"],
        memory.n,
        e,
        cfg.write.type_priors["Relation"],
        "supported",
    )
