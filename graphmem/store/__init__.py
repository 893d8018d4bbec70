"""Stores: the protocol and its backends (embedded, Neo4j)."""

from graphmem.store.base import (
    AccessUpdate,
    Association,
    EntityHit,
    LifecycleUpdate,
    MemoryStore,
    ScoredId,
    TermStats,
    Vector,
    WriteBatch,
    association,
)

__all__ = [
    "AccessUpdate",
    "Association",
    "EntityHit",
    "LifecycleUpdate",
    "MemoryStore",
    "ScoredId",
    "TermStats",
    "Vector",
    "WriteBatch",
    "association",
]
