"""graphmem: a knowledge memory for AI agents, backed by a graph database.

The public surface is small::

    from graphmem import GraphMem, Settings, MemoryCandidate, RecallQuery

Everything else is reachable through submodules (``graphmem.scoring`` for the
SPEC formulas, ``graphmem.store`` for backends) but the facade is the API.
"""

from graphmem.errors import (
    AuthenticationError,
    ConfigurationError,
    ConstraintViolationError,
    EmbeddingError,
    GraphMemError,
    InvalidInputError,
    InvalidMemoryError,
    InvalidQueryError,
    MemoryNotFoundError,
    SchemaError,
    StoreError,
    StoreUnavailableError,
    TransactionTimeoutError,
    WriteConflictError,
)
from graphmem.memory import GraphMem
from graphmem.models import (
    ConsolidationReport,
    Entity,
    EntityMention,
    Explanation,
    Memory,
    MemoryCandidate,
    RecallHit,
    RecallQuery,
    RecallResult,
    Relation,
    RelationInput,
    WriteReport,
)
from graphmem.settings import Settings

__version__ = "0.1.0"

__all__ = [
    "AuthenticationError",
    "ConfigurationError",
    "ConsolidationReport",
    "ConstraintViolationError",
    "EmbeddingError",
    "Entity",
    "EntityMention",
    "Explanation",
    "GraphMem",
    "GraphMemError",
    "InvalidInputError",
    "InvalidMemoryError",
    "InvalidQueryError",
    "Memory",
    "MemoryCandidate",
    "MemoryNotFoundError",
    "RecallHit",
    "RecallQuery",
    "RecallResult",
    "Relation",
    "RelationInput",
    "SchemaError",
    "Settings",
    "StoreError",
    "StoreUnavailableError",
    "TransactionTimeoutError",
    "WriteConflictError",
    "WriteReport",
    "__version__",
]
