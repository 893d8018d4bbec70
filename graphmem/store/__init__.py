"""Stores: the protocol and its backends (embedded, Neo4j)."""

from graphmem.store.base import (
    AccessUpdate,
    EntityHit,
    MemoryStore,
    ScoredId,
    TermStats,
    Vector,
    WriteBatch,
)

__all__ = [
    "AccessUpdate",
    "EntityHit",
    "MemoryStore",
    "ScoredId",
    "TermStats",
    "Vector",
    "WriteBatch",
]
