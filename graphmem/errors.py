"""graphmem's exception tree.

::

    GraphMemError
    ├── InvalidInputError            bad input at the boundary (field named)
    │   ├── InvalidMemoryError       a memory candidate failed validation
    │   └── InvalidQueryError        a recall query failed validation
    ├── MemoryNotFoundError          no memory with that id in the namespace
    ├── EntityNotFoundError          no entity with that name or alias in the namespace
    ├── ConfigurationError           settings that cannot work together
    ├── EmbeddingError               the embedding model failed or is missing
    ├── ExtractionError              the LLM extractor or judge failed (nothing written)
    ├── ClosedError                  a GraphMem used after close() (open() reopens it)
    └── StoreError                   anything the store reports
        ├── StoreUnavailableError    cannot reach / open the store
        ├── AuthenticationError      credentials refused
        ├── SchemaError              schema missing, index not online
        ├── ConstraintViolationError a uniqueness constraint fired
        ├── WriteConflictError       a memory changed between a writer's read and its write
        └── TransactionTimeoutError  a transaction ran past its time limit

Driver and library errors are translated into these at the boundary; the
original is kept as ``__cause__``.
"""

from __future__ import annotations


class GraphMemError(Exception):
    """Root of every error graphmem raises on purpose."""


class InvalidInputError(GraphMemError, ValueError):
    """Input failed validation; ``field`` names the offending field.

    Parameters
    ----------
    message : str
        What is wrong and how to fix it.
    field : str, optional
        Dotted name of the field (``"candidates[3].confidence"``).
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


class InvalidMemoryError(InvalidInputError):
    """A memory candidate is invalid; nothing was written."""


class InvalidQueryError(InvalidInputError):
    """A recall query is invalid (empty text, k out of range, ...)."""


class MemoryNotFoundError(GraphMemError, KeyError):
    """No memory with this id exists in the namespace."""

    def __init__(self, memory_id: str, namespace: str) -> None:
        self.memory_id = memory_id
        self.namespace = namespace
        super().__init__(f"no memory {memory_id!r} in namespace {namespace!r}")

    def __str__(self) -> str:
        return str(self.args[0])


class EntityNotFoundError(GraphMemError, KeyError):
    """No entity with this name or alias exists in the namespace."""

    def __init__(self, name: str, namespace: str) -> None:
        self.name = name
        self.namespace = namespace
        super().__init__(f"no entity named {name!r} in namespace {namespace!r}")

    def __str__(self) -> str:
        return str(self.args[0])


class ClosedError(GraphMemError, RuntimeError):
    """A :class:`graphmem.GraphMem` was used after :meth:`~graphmem.GraphMem.close` (or the
    end of its ``with`` block). Nothing was read or written; ``open()`` reopens it."""


class ConfigurationError(GraphMemError):
    """Settings that cannot work (e.g. model dimension != index dimension)."""


class EmbedderMismatchError(ConfigurationError):
    """The store's vectors were written by another embedder than the configured one: the message
    names both; ``graphmem reembed`` converts a namespace."""

    def __init__(self, message: str, *, namespaces: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.namespaces = namespaces


class EmbeddingError(GraphMemError):
    """The embedding model could not be loaded or failed on input."""


class ExtractionError(GraphMemError):
    """The LLM extractor or judge (docs/spec.md §11) failed: the ``openai`` client is missing,
    the server cannot be reached, answers an error status, times out, refuses, or
    answers no JSON of the asked schema after one retry. Raised before anything is
    written."""


class StoreError(GraphMemError):
    """The store failed; ``query`` names the store operation when known."""

    def __init__(self, message: str, *, query: str | None = None) -> None:
        self.query = query
        super().__init__(f"{message} (query: {query})" if query else message)


class StoreUnavailableError(StoreError):
    """The store cannot be reached or opened."""


class AuthenticationError(StoreError):
    """The store refused the credentials."""


class SchemaError(StoreError):
    """The schema is missing, outdated, or an index is not online."""


class ConstraintViolationError(StoreError):
    """A uniqueness constraint was violated."""


class WriteConflictError(StoreError):
    """Optimistic concurrency: memories a read-modify-write expected at one version had
    another when it wrote (another writer committed in between); nothing was written.

    The facade re-reads and recomputes such a write a few times
    (``Settings.write.write_conflict_attempts``) before raising this to the caller.

    Parameters
    ----------
    message : str
    memory_ids : tuple of str
        The memories whose stored version differed.
    """

    def __init__(
        self, message: str, *, memory_ids: tuple[str, ...] = (), query: str | None = None
    ) -> None:
        self.memory_ids = memory_ids
        super().__init__(message, query=query)


class TransactionTimeoutError(StoreError):
    """A store transaction ran past its time limit (e.g. waiting for a lock another
    transaction held) and was rolled back; nothing of it was written."""
