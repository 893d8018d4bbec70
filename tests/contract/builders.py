"""Builders of store-level objects for the store contract suite.

Embeddings come from :class:`tests.fakes.HashEmbedder`, so texts sharing words
have predictable cosines; ids follow the production derivations in
:mod:`graphmem.text` (memory and relation ids include the namespace, entity
ids do not).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from graphmem.models import Entity, Memory, Mention, Observation, Relation, Role
from graphmem.store.base import Vector
from graphmem.text import content_hash, entity_id, memory_id, relation_id, surface_hash
from tests.fakes import HashEmbedder

DIM = 384  # the default model's dimension: one vector index size on a shared Neo4j server
T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
EMBEDDER = HashEmbedder(DIM)


def embed(text: str) -> Vector:
    """The unit vector of ``text``, shape (DIM,)."""
    vector: Vector = EMBEDDER.embed([text])[0]
    return vector


def queries(*texts: str) -> Vector:
    """Query vectors, shape (len(texts), DIM)."""
    return EMBEDDER.embed(list(texts))


def cosine(a: str, b: str) -> float:
    """Cosine of two texts' embeddings, computed here (the expected value)."""
    return float(np.dot(embed(a), embed(b)))


def make_memory(
    namespace: str,
    content: str,
    *,
    type: str = "Fact",
    subject: str | None = None,
    predicate: str | None = None,
    observed_at: datetime = T0,
    sessions: Sequence[str] = ("s1",),
    event_time: datetime | None = None,
    mentions: Sequence[tuple[str, Role]] = (),
    with_embedding: bool = True,
    **fields: Any,
) -> Memory:
    """A valid :class:`Memory`; ``fields`` override any other model field.

    ``mentions`` are ``(entity_id, role)`` pairs; one observation per session,
    all at ``observed_at``.
    """
    chash = content_hash(type, subject, predicate, content)
    observations = tuple(
        Observation(
            session_id=session,
            turn_id=f"{session}:1",
            observed_at=observed_at,
            source_level="direct",
            surface_hash=surface_hash(content),
        )
        for session in sessions
    )
    values: dict[str, Any] = {
        "id": memory_id(namespace, chash),
        "namespace": namespace,
        "type": type,
        "content": content,
        "subject": subject,
        "predicate": predicate,
        "source_level": "direct",
        "source_strength": 0.95,
        "extractor": "verbatim",
        "extractor_confidence": 1.0,
        "type_prior": 0.8,
        "n": len(observations),
        "observations": observations,
        "confidence": 0.8,
        "created_at": observed_at,
        "last_observed_at": observed_at,
        "event_time": event_time,
        "content_hash": chash,
        "mentions": tuple(Mention(entity_id=e, role=role) for e, role in mentions),
        "embedding": tuple(float(x) for x in embed(content)) if with_embedding else None,
    }
    values.update(fields)
    return Memory(**values)


def make_entity(namespace: str, name: str, *, kind: str = "Thing") -> Entity:
    """An entity with the production fallback id (the same in every namespace)."""
    return Entity(id=entity_id(name), namespace=namespace, name=name, kind=kind)


def make_relation(
    namespace: str,
    source: Entity,
    predicate: str,
    target: Entity,
    *,
    memory: Memory,
    confidence: float = 0.9,
    valid_until: datetime | None = None,
) -> Relation:
    """A relation ``source -predicate-> target`` that came from ``memory``."""
    return Relation(
        id=relation_id(namespace, source.id, predicate, target.id),
        namespace=namespace,
        source_id=source.id,
        target_id=target.id,
        predicate=predicate,
        confidence=confidence,
        memory_id=memory.id,
        valid_until=valid_until,
    )
