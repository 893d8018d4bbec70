"""The records of forgetting on request (docs/spec.md §9.16; ``docs/forgetting.md``): what one
forget removes (:class:`ForgetPlan`), what the store counted while removing it
(:class:`ForgetCounts`) and the deletion log's entries (:class:`DeletionRecord`).

Plain frozen dataclasses, no I/O. The facade builds a plan from what it read
(:mod:`graphmem.facade.forgetting`); the store applies it in one transaction
(:meth:`graphmem.store.base.StoreForgetting.forget`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType

from graphmem.errors import WriteConflictError
from graphmem.models import Memory, Relation
from graphmem.store.records import WriteBatch
from graphmem.text import normalize

#: The kinds a forget report counts, in the order reports print them.
COUNT_KINDS = ("memories", "observations", "relations", "entities", "sessions", "turns", "vectors")


def forget_key(kind: str, namespace: str, value: str) -> str:
    """The deletion log's key of a forgotten memory id or entity name: SHA-256 hex of
    ``kind``, ``namespace`` and ``value`` (an entity name normalised:
    :func:`graphmem.text.normalize`). Lets a repeated forget report zeros instead of "unknown";
    holds no text (a name can only be confirmed by guessing it; ``docs/forgetting.md``)."""
    if kind == "entity":
        value = normalize(value)
    return hashlib.sha256(f"{kind}\x1f{namespace}\x1f{value}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class DeletionRecord:
    """One entry of the deletion log: what kind of forget ran, when, by which command,
    and how many of each kind (:data:`COUNT_KINDS`) it removed — never content.

    ``kind``: ``memory``, ``entity``, ``observations`` or ``relations``; ``command``:
    the command line or API call without its arguments (e.g. ``graphmem forget
    --entity``); ``keys``: :func:`forget_key` of what was asked for and removed.
    """

    namespace: str
    at: datetime
    kind: str
    command: str
    counts: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ForgetCounts:
    """What the store removed (or, for a dry run, would remove), counted inside the
    forget's transaction: memories, their vectors, relations, entities, and the
    sessions and turns left with no observation (docs/spec.md §9.16)."""

    memories: int = 0
    relations: int = 0
    entities: int = 0
    sessions: int = 0
    turns: int = 0
    vectors: int = 0


@dataclass
class ForgetPlan:
    """One forget, applied by the store in one transaction (all or nothing).

    ``batch``: the memories rewritten (mentions dropped, restored to current) as
    compare-and-sets on the versions read, the memories deleted (with their mentions,
    observations, association links and the relations they asserted), the entities
    pruned when nothing mentions or relates them any more (a
    :class:`~graphmem.store.records.WriteBatch`). ``relation_ids``: relations deleted
    whoever asserted them (every relation touching a forgotten entity).
    ``entity_ids``: entities deleted whatever still mentions them (their mention
    links go too). ``record``: the deletion-log entry written in the same
    transaction (its counts are filled in by the store); None writes none.
    """

    batch: WriteBatch = field(default_factory=WriteBatch)
    relation_ids: list[str] = field(default_factory=list)
    entity_ids: list[str] = field(default_factory=list)
    record: DeletionRecord | None = None

    @property
    def memory_ids(self) -> list[str]:
        """Every memory the plan deletes or rewrites (its claim, in the store)."""
        return [*self.batch.deleted_memory_ids, *(m.id for m in self.batch.memories)]


def check_unplanned(memory_ids: list[str], *, query: str) -> None:
    """Inside a forget's transaction, after its deletions and rewrites: raise
    :class:`~graphmem.errors.WriteConflictError` (the transaction rolls back, the facade
    plans again) when ``memory_ids`` — memories still mentioning an entity the plan
    deletes — is not empty: another writer added them after the plan was read."""
    if memory_ids:
        shown = ", ".join(sorted(memory_ids)[:5])
        raise WriteConflictError(
            f"{len(memory_ids)} memories mentioning a forgotten entity were written since"
            f" the forget was planned ({shown}); nothing was forgotten",
            memory_ids=tuple(sorted(memory_ids)),
            query=query,
        )


def restored(memory: Memory, relations: list[Relation]) -> tuple[Memory, list[Relation]]:
    """``memory`` made current again (its superseding memory was forgotten without its
    history) and the relations it asserted that ended with its supersession (docs/spec.md §9.9)."""
    ended = memory.valid_until
    revived = [
        r.model_copy(update={"valid_until": None})
        for r in relations
        if r.memory_id == memory.id and r.valid_until is not None and r.valid_until == ended
    ]
    return memory.model_copy(update={"superseded_by": None, "valid_until": None}), revived
