"""Forgetting on request over MCP (docs/spec.md §9.16; ``docs/forgetting.md``): graphmem's
``forget`` (a memory with its history, or an entity), and mcp-neo4j-memory's
``delete_entities``, ``delete_observations`` and ``delete_relations`` mapped onto it (a
client written for that server works unchanged). Registered with
:func:`graphmem.mcp.registry.graphmem_tool`.

Each call is one forget: one transaction, a report of what it removed, an entry in the
deletion log. Never silently nothing: an unknown entity, observation or relation is a
tool error naming what exists, and nothing is removed.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from graphmem.mcp.kg_tools import observation_text
from graphmem.mcp.registry import MemoryId, ToolContext, ToolFailure, graphmem_tool, tool_errors
from graphmem.mcp.schemas import KgRelation
from graphmem.reports import ForgetReport
from graphmem.text import normalize

__all__ = ["delete_entities", "delete_observations", "delete_relations", "forget"]

_SHOWN = 10


class ObservationDeletion(BaseModel):
    """mcp-neo4j-memory's observations to delete from one entity."""

    model_config = ConfigDict(extra="forbid")

    entityName: str = Field(min_length=1, max_length=512, description="The entity they are about.")
    observations: list[str] = Field(
        min_length=1, description="The statements to delete, as find_memories_by_name shows them."
    )


def _listed(values: list[str]) -> str:
    shown = "; ".join(values[:_SHOWN]) + (" ..." if len(values) > _SHOWN else "")
    return shown or "none"


@graphmem_tool(title="Forget a memory or an entity", destructive=True, idempotent=True)
async def forget(
    ctx: ToolContext,
    namespace: str,
    memory_id: Annotated[
        MemoryId | None, Field(None, description="Forget this memory (an id from recall).")
    ],
    entity: Annotated[
        str | None,
        Field(None, min_length=1, max_length=512, description="Or forget this entity (a name)."),
    ],
    include_mentions: Annotated[
        bool,
        Field(
            False,
            description="entity: also forget memories that name it only in passing"
            " (an erasure request for a person).",
        ),
    ],
    dry_run: Annotated[bool, Field(False, description="Only count what would go.")],
) -> ForgetReport:
    """Forget on request, completely: a memory with its history (what it superseded and
    what superseded it), or an entity with every memory about it and every relation
    touching it. What only they supported goes too (relations, entities, turns,
    sessions, vectors, association links). Returns counts per kind; a repeat reports
    zeros. Use it when the user asks you to forget something. Give exactly one of
    memory_id or entity."""
    if (memory_id is None) == (entity is None):
        raise ToolFailure("memory_id, entity: give exactly one of them")
    with tool_errors():
        if memory_id is not None:
            return await ctx.memory.forget_memory(
                namespace, memory_id, dry_run=dry_run, command="mcp forget"
            )
        assert entity is not None
        return await ctx.memory.forget_entity(
            namespace,
            entity,
            include_mentions=include_mentions,
            dry_run=dry_run,
            command="mcp forget",
        )


@graphmem_tool(title="Delete entities", destructive=True, idempotent=True)
async def delete_entities(
    ctx: ToolContext,
    namespace: str,
    entityNames: Annotated[  # mcp-neo4j-memory's argument name
        list[str], Field(min_length=1, max_length=100, description="Names of the entities.")
    ],
) -> list[ForgetReport]:
    """(mcp-neo4j-memory compatible) Delete entities: each with every memory about it
    (its observations), every relation touching it, and what only those supported. An
    unknown name fails the call before anything is deleted."""
    with tool_errors():
        for name in entityNames:  # every name resolves (or was forgotten) before any goes
            await ctx.memory.forget_entity(namespace, name, dry_run=True)
        return [
            await ctx.memory.forget_entity(namespace, name, command="mcp delete_entities")
            for name in entityNames
        ]


@graphmem_tool(title="Delete observations", destructive=True, idempotent=True)
async def delete_observations(
    ctx: ToolContext,
    namespace: str,
    deletions: Annotated[
        list[ObservationDeletion],
        Field(min_length=1, max_length=100, description="Per entity, the statements to delete."),
    ],
) -> ForgetReport:
    """(mcp-neo4j-memory compatible) Delete observations: each is the memory about the
    entity with that text, forgotten with its history. An entity or observation that does
    not exist fails the call (naming what does) before anything is deleted."""
    ids: list[str] = []
    with tool_errors():
        for deletion in deletions:
            entity, memories = await ctx.memory.entity_memories(namespace, deletion.entityName)
            by_text = {normalize(m.content): m.id for m in memories}
            for m in memories:  # as add_observations was given it (without "<name> — ")
                by_text.setdefault(normalize(observation_text(entity.name, m.content)), m.id)
            for text in deletion.observations:
                found = by_text.get(normalize(text))
                if found is None:
                    raise ToolFailure(
                        f"observations: {deletion.entityName!r} has no observation {text!r}"
                        f" (its observations: {_listed([m.content for m in memories])})"
                    )
                ids.append(found)
        return await ctx.memory.forget_memories(
            namespace, ids, kind="observations", command="mcp delete_observations"
        )


def _predicate(text: str) -> str:
    return " ".join(normalize(text).replace("_", " ").replace("-", " ").split())


@graphmem_tool(title="Delete relations", destructive=True, idempotent=True)
async def delete_relations(
    ctx: ToolContext,
    namespace: str,
    relations: Annotated[
        list[KgRelation], Field(min_length=1, max_length=100, description="Relations to delete.")
    ],
) -> ForgetReport:
    """(mcp-neo4j-memory compatible) Delete relations: the memories that assert each one
    are forgotten with their history, so the relation does not come back. A relation
    that does not exist fails the call (naming the source's relations) before anything
    is deleted."""
    ids: list[str] = []
    with tool_errors():
        store = ctx.memory.sync.store
        for wanted in relations:
            source = await ctx.memory.entity(namespace, wanted.source)
            target = await ctx.memory.entity(namespace, wanted.target)
            stored = await ctx.memory.run_sync(store.relations_of, namespace, [], [source.id])
            matching = [
                r.memory_id
                for r in stored
                if r.source_id == source.id
                and r.target_id == target.id
                and _predicate(r.predicate) == _predicate(wanted.relationType)
            ]
            if not matching:
                known = await ctx.memory.run_sync(store.list_entities, namespace)
                names = {e.id: e.name for e in known}
                existing = [
                    f"{names.get(r.source_id, r.source_id)} {r.predicate}"
                    f" {names.get(r.target_id, r.target_id)}"
                    for r in stored
                ]
                raise ToolFailure(
                    f"relations: no relation {wanted.source} {wanted.relationType}"
                    f" {wanted.target} (relations of {source.name}: {_listed(existing)})"
                )
            ids.extend(matching)
        return await ctx.memory.forget_memories(
            namespace, ids, kind="relations", command="mcp delete_relations"
        )
