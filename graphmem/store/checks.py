"""Store-independent input checks, shared by every backend (validated once, here).

A store calls these at its boundary, before any I/O; each raises
:class:`~graphmem.errors.InvalidInputError` naming the offending field, so both
backends refuse the same input with the same message (``tests/contract``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from graphmem.errors import InvalidInputError, WriteConflictError
from graphmem.models import Entity, Memory, Relation
from graphmem.store.records import AccessUpdate, Association, WriteBatch, association
from graphmem.types import Vector

__all__ = [
    "canonical_links",
    "check_access",
    "check_aware",
    "check_batch",
    "check_expected_versions",
    "check_k",
    "check_vector",
    "check_versions",
    "unit_rows",
    "unit_vector",
]


def check_k(k: int, field: str = "k") -> None:
    """Raise unless ``k >= 1`` (result sizes, page limits)."""
    if k < 1:
        raise InvalidInputError(f"must be >= 1, got {k}", field=field)


def check_at_most(at_most: int) -> int:
    """``at_most`` of :meth:`~graphmem.store.base.StoreLookups.count_memories`; raises
    InvalidInputError when negative."""
    if at_most < 0:
        raise InvalidInputError(f"must be >= 0, got {at_most}", field="at_most")
    return int(at_most)


def check_aware(value: datetime, field: str) -> None:
    """Raise for a naive datetime (it would not compare with stored aware times)."""
    if value.utcoffset() is None:
        raise InvalidInputError("must be timezone-aware", field=field)


def check_vector(value: Any, dim: int, field: str) -> Vector:
    """``value`` as a finite float32 vector of shape ``(dim,)`` (a ``(1, dim)`` row is
    accepted); raises on another size or a NaN / infinite value. Not normalised."""
    array = np.asarray(value, dtype=np.float32)
    if array.size != dim or array.ndim > 2 or (array.ndim == 2 and array.shape[0] != 1):
        raise InvalidInputError(
            f"expected an embedding of dimension {dim}, got shape {array.shape}", field=field
        )
    if not np.all(np.isfinite(array)):
        raise InvalidInputError("embedding holds a non-finite value", field=field)
    return array.reshape(dim)


def unit_vector(value: Any, dim: int, field: str) -> Vector:
    """A query embedding: :func:`check_vector`, then L2-normalised (a zero vector stays
    zero, and scores 0 everywhere)."""
    array = check_vector(value, dim, field)
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 else array


def unit_rows(embeddings: Any, dim: int) -> Vector:
    """The rows of an ``(m, dim)`` query matrix, each a :func:`unit_vector`; raises for
    another shape (field ``embeddings``) or a bad row (``embeddings[i]``)."""
    array = np.asarray(embeddings, dtype=np.float32)
    if array.ndim != 2 or array.shape[1] != dim:
        raise InvalidInputError(f"expected shape (m, {dim}), got {array.shape}", field="embeddings")
    rows = [unit_vector(row, dim, f"embeddings[{i}]") for i, row in enumerate(array)]
    return np.stack(rows) if rows else np.zeros((0, dim), dtype=np.float32)


def check_batch(namespace: str, batch: WriteBatch, dim: int) -> None:
    """Every item of ``batch`` in ``namespace``, every embedding a finite vector of
    dimension ``dim``, every expected version about a memory the batch writes."""
    groups: tuple[tuple[str, Sequence[Memory | Entity | Relation]], ...] = (
        ("memories", batch.memories),
        ("entities", batch.entities),
        ("relations", batch.relations),
    )
    for group, items in groups:
        for i, item in enumerate(items):
            if item.namespace != namespace:
                raise InvalidInputError(
                    f"belongs to namespace {item.namespace!r}, not {namespace!r}",
                    field=f"{group}[{i}].namespace",
                )
    for i, memory in enumerate(batch.memories):
        if memory.embedding is not None:
            check_vector(memory.embedding, dim, f"memories[{i}].embedding")
    check_expected_versions(batch)


def check_access(updates: Sequence[AccessUpdate]) -> None:
    """Aware access times; stability and salience in [0, 1]."""
    for i, update in enumerate(updates):
        check_aware(update.accessed_at, f"updates[{i}].accessed_at")
        for name in ("stability", "salience"):
            value = getattr(update, name)
            if not (math.isfinite(value) and 0.0 <= value <= 1.0):
                raise InvalidInputError(
                    f"must be in [0, 1], got {value}", field=f"updates[{i}].{name}"
                )


def check_expected_versions(batch: WriteBatch) -> None:
    """Raise :class:`InvalidInputError` unless every id of ``batch.expected_versions`` is
    written or deleted by the batch, with a version ``>= 0``."""
    written = {m.id for m in batch.memories} | set(batch.deleted_memory_ids)
    for ident, version in batch.expected_versions.items():
        if ident not in written:
            raise InvalidInputError(
                "names a memory the batch neither writes nor deletes",
                field=f"expected_versions[{ident!r}]",
            )
        if version < 0:
            raise InvalidInputError(
                f"must be >= 0, got {version}", field=f"expected_versions[{ident!r}]"
            )


def check_versions(expected: dict[str, int], stored: dict[str, int], *, query: str) -> None:
    """The compare-and-set of a checked write: raise :class:`WriteConflictError` naming
    the ids whose stored version (0 when missing) differs from the expected one."""
    conflicts = tuple(sorted(i for i, v in expected.items() if stored.get(i, 0) != v))
    if conflicts:
        shown = ", ".join(conflicts[:5]) + (" ..." if len(conflicts) > 5 else "")
        raise WriteConflictError(
            f"{len(conflicts)} memories changed since they were read ({shown}); another"
            " writer committed first, nothing was written",
            memory_ids=conflicts,
            query=query,
        )


def canonical_links(links: Sequence[Association]) -> list[Association]:
    """``links`` validated and in canonical order, one per unordered pair (the last wins).

    Raises
    ------
    InvalidInputError
        For a link of a memory to itself or a similarity that is not a finite
        number in [-1, 1]; names ``links[i]``.
    """
    pairs: dict[tuple[str, str], Association] = {}
    for i, link in enumerate(links):
        if link.source_id == link.target_id:
            raise InvalidInputError("links a memory to itself", field=f"links[{i}]")
        if not (math.isfinite(link.similarity) and -1.0 <= link.similarity <= 1.0):
            raise InvalidInputError(
                f"similarity must be a finite cosine in [-1, 1], got {link.similarity}",
                field=f"links[{i}].similarity",
            )
        canonical = association(link.source_id, link.target_id, float(link.similarity))
        pairs[(canonical.source_id, canonical.target_id)] = canonical
    return list(pairs.values())
