"""Public data models: what goes into graphmem and what comes out.

Inputs (:class:`MemoryCandidate`, :class:`RecallQuery`) validate every field
and raise :class:`graphmem.errors.InvalidMemoryError` /
:class:`~graphmem.errors.InvalidQueryError` naming the field. Outputs
(:class:`Memory`, :class:`RecallResult`, ...) are frozen.

Times are timezone-aware ``datetime`` values everywhere (naive ones are
rejected: on Neo4j a naive time is a LOCAL DATETIME that never compares with a
zoned one, see NEO4J.md).

What is written and stored is in :mod:`graphmem.models.memories`, what a recall takes
and gives back in :mod:`graphmem.models.recall`; this module names them all. The
guards' reports are in :mod:`graphmem.reports`.
"""

from graphmem.models.memories import (
    Entity,
    EntityMention,
    Memory,
    MemoryCandidate,
    Mention,
    Observation,
    Relation,
    RelationInput,
    WriteReport,
)
from graphmem.models.recall import (
    Explanation,
    RecallHit,
    RecallQuery,
    RecallResult,
    RetrieverScore,
)
from graphmem.types import (
    AwareDatetime,
    Grounding,
    PlanName,
    Profile,
    Role,
    Tier,
    UnitFloat,
    WriteOutcome,
)

__all__ = [
    "AwareDatetime",
    "Entity",
    "EntityMention",
    "Explanation",
    "Grounding",
    "Memory",
    "MemoryCandidate",
    "Mention",
    "Observation",
    "PlanName",
    "Profile",
    "RecallHit",
    "RecallQuery",
    "RecallResult",
    "Relation",
    "RelationInput",
    "RetrieverScore",
    "Role",
    "Tier",
    "UnitFloat",
    "WriteOutcome",
    "WriteReport",
]
