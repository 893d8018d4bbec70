"""graphmem: a knowledge memory for AI agents, backed by a graph database.

The public surface is small::

    from graphmem import GraphMem, Settings, MemoryCandidate, RecallQuery

Everything else is reachable through submodules (``graphmem.scoring`` for the
formulas of docs/spec.md, ``graphmem.store`` for backends) but the facade is the API.
"""

import importlib
from typing import TYPE_CHECKING, Any

from graphmem.errors import (
    AuthenticationError,
    ClosedError,
    ConfigurationError,
    ConstraintViolationError,
    EmbeddingError,
    EntityNotFoundError,
    ExtractionError,
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

if TYPE_CHECKING:
    from graphmem.aio import AsyncGraphMem
    from graphmem.memory import GraphMem
    from graphmem.models import (
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
    from graphmem.reports import ConsolidationReport, ForgetReport
    from graphmem.settings import Settings

# The facade, the models and the settings are imported on first use (PEP 562), so that
# ``import graphmem.cli.main`` (``graphmem --help``) and ``graphmem.errors`` stay cheap.
_LAZY: dict[str, str] = {
    "AsyncGraphMem": "graphmem.aio",
    "GraphMem": "graphmem.memory",
    "Settings": "graphmem.settings",
    "ConsolidationReport": "graphmem.reports",
    "ForgetReport": "graphmem.reports",
    **{
        name: "graphmem.models"
        for name in (
            "Entity",
            "EntityMention",
            "Explanation",
            "Memory",
            "MemoryCandidate",
            "RecallHit",
            "RecallQuery",
            "RecallResult",
            "Relation",
            "RelationInput",
            "WriteReport",
        )
    },
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "AsyncGraphMem",
    "AuthenticationError",
    "ClosedError",
    "ConfigurationError",
    "ConsolidationReport",
    "ConstraintViolationError",
    "EmbeddingError",
    "Entity",
    "EntityMention",
    "EntityNotFoundError",
    "Explanation",
    "ExtractionError",
    "ForgetReport",
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
