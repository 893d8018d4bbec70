"""What a forget removes, planned from the store's reads (docs/spec.md §9.16;
``docs/forgetting.md``); :mod:`graphmem.facade.forgetting` runs the plans.

A plan deletes a set of memories (with their mentions, observations, association
links, vectors and the relations they asserted), rewrites the memories that keep
living beside them (a passing mention of a forgotten entity dropped; a memory made
current again when what superseded it is forgotten without its history), deletes
the relations and entities named, and prunes every entity that nothing mentions or
relates any more. Every memory deleted or rewritten is a compare-and-set on the
version read, so a writer that got in between makes the store refuse the plan whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from graphmem.models import Entity, Memory
from graphmem.store.base import MemoryStore, WriteBatch
from graphmem.store.forgetting import DeletionRecord, ForgetPlan, forget_key, restored
from graphmem.text import normalize


def with_history(store: MemoryStore, namespace: str, seeds: Iterable[Memory]) -> dict[str, Memory]:
    """``seeds`` and every memory linked to them by supersession, either way and
    transitively (the history of each fact: what it superseded, what superseded it)."""
    found = {m.id: m for m in seeds}
    frontier = list(found)
    while frontier:
        forward = [
            ident
            for ident in (found[i].superseded_by for i in frontier)
            if ident is not None and ident not in found
        ]
        linked = [
            *store.get_memories(namespace, forward),
            *store.supersession_links(namespace, frontier),
        ]
        new = {m.id: m for m in linked if m.id not in found}
        found.update(new)
        frontier = list(new)
    return found


def split_about(entity: Entity, memories: Sequence[Memory]) -> tuple[list[Memory], list[Memory]]:
    """The memories whose subject is ``entity`` (a subject mention of it, or a triple
    subject that is its name or an alias) and those that mention it in passing."""
    names = {normalize(entity.name), *(normalize(a) for a in entity.aliases)}
    about: list[Memory] = []
    passing: list[Memory] = []
    for memory in memories:
        subject = any(x.entity_id == entity.id and x.role == "subject" for x in memory.mentions)
        if subject or (memory.subject is not None and normalize(memory.subject) in names):
            about.append(memory)
        else:
            passing.append(memory)
    return about, passing


def build_plan(
    store: MemoryStore,
    namespace: str,
    doomed: dict[str, Memory],
    *,
    history: bool,
    entity_ids: Sequence[str] = (),
    kept: Sequence[Memory] = (),
) -> tuple[ForgetPlan, list[str]]:
    """The plan deleting ``doomed`` (and ``entity_ids`` with every relation touching
    them), rewriting ``kept`` (memories to keep, read with embeddings) without their
    mentions of those entities; without ``history``, the memories a doomed one
    superseded are made current again. Returns the plan and the restored ids."""
    gone = set(entity_ids)
    rewrites: dict[str, Memory] = {
        m.id: m.model_copy(
            update={"mentions": tuple(x for x in m.mentions if x.entity_id not in gone)}
        )
        for m in kept
        if m.id not in doomed
    }
    plan = ForgetPlan(entity_ids=sorted(gone))
    restored_ids: list[str] = []
    if not history:
        superseded = [
            m for m in store.supersession_links(namespace, list(doomed)) if m.id not in doomed
        ]
        ids = [m.id for m in superseded]
        relations = store.relations_of(namespace, ids, [])
        for memory in store.get_memories(namespace, ids, with_embeddings=True):
            base = rewrites.get(memory.id, memory)
            revived, revived_relations = restored(base, relations)
            rewrites[memory.id] = revived
            plan.batch.relations.extend(revived_relations)
            restored_ids.append(memory.id)
    touching = store.relations_of(namespace, list(doomed), sorted(gone))
    plan.relation_ids = [r.id for r in touching]
    prune = {x.entity_id for m in doomed.values() for x in m.mentions}
    prune.update(e for r in touching for e in (r.source_id, r.target_id))
    plan.batch.deleted_memory_ids = sorted(doomed)
    plan.batch.memories = list(rewrites.values())
    plan.batch.prune_entity_ids = sorted(prune - gone)
    plan.batch.expected_versions = {
        **{m.id: m.version for m in doomed.values()},
        **{m.id: m.version for m in rewrites.values()},
    }
    return plan, restored_ids


def deletion_record(
    namespace: str,
    kind: str,
    command: str,
    at: datetime,
    keys: Iterable[tuple[str, str]],
    doomed: dict[str, Memory],
) -> DeletionRecord:
    """The log entry of a forget: ``keys`` are ``(kind, value)`` pairs hashed with
    :func:`~graphmem.store.forgetting.forget_key`; the forgotten memories' ids are
    hashed too (a repeat of any of them reports zeros). Observations are counted here
    (the store counts the rest)."""
    hashed = {forget_key(k, namespace, v) for k, v in keys}
    hashed.update(forget_key("memory", namespace, ident) for ident in doomed)
    observations = sum(len(m.observations) for m in doomed.values())
    return DeletionRecord(
        namespace=namespace,
        at=at,
        kind=kind,
        command=command,
        counts={"observations": observations},
        keys=tuple(sorted(hashed)),
    )


def session_plan(
    namespace: str,
    session_id: str,
    read: Sequence[Memory],
    batch: WriteBatch,
    at: datetime,
    *,
    command: str = "GraphMem.forget_session",
) -> ForgetPlan:
    """A batch of ``forget_session`` (memories ``read``, the ``batch`` computed from
    them) as a forget: the store applies it in one transaction and logs it (kind
    ``session``, the session id hashed, the observations removed counted here)."""
    after = {m.id: len(m.observations) for m in batch.memories}
    removed = sum(
        len(m.observations) - after.get(m.id, 0)
        for m in read
        if m.id in after or m.id in set(batch.deleted_memory_ids)
    )
    record = DeletionRecord(
        namespace=namespace,
        at=at,
        kind="session",
        command=command,
        counts={"observations": removed},
        keys=(forget_key("session", namespace, session_id),),
    )
    return ForgetPlan(batch=batch, record=record)
