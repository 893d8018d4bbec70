"""graphmem's own MCP tools: remember, recall, about_entity, get_memory, confirm,
correct, forget_session, list_namespaces, stats (registered with
:func:`graphmem.mcp.registry.graphmem_tool`; the registry's names are re-exported
here for the modules that extend the server)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from graphmem.mcp.registry import (
    TOOLS,
    MemoryId,
    SessionArg,
    ToolContext,
    ToolFailure,
    ToolSpec,
    bind,
    graphmem_tool,
    tool_errors,
)
from graphmem.mcp.schemas import (
    ConfirmOut,
    CorrectOut,
    EntityOut,
    ForgetOut,
    HitOut,
    MemoryBrief,
    MemoryIn,
    MemoryOut,
    NamespacesOut,
    RecallOut,
    RelationOut,
    RememberOut,
    StatsOut,
    UserOut,
)
from graphmem.models import AwareDatetime
from graphmem.settings import MemoryTypeName


def _report(report: Any) -> RememberOut:
    return RememberOut(
        created=list(report.created),
        merged=list(report.merged),
        superseded=list(report.superseded),
        why_superseded=dict(report.why_superseded),
        rejected=list(report.rejected),
        memory_ids=list(report.memory_ids),
        entities_created=report.entities_created,
        relations_written=report.relations_written,
    )


def _candidate(item: MemoryIn, session_id: str) -> dict[str, Any]:
    candidate: dict[str, Any] = {
        "content": item.content,
        "source_level": item.source_level,
        "extractor": "verbatim",
        "session_id": item.session_id or session_id,
        "entities": [{"name": name} for name in item.entities],
        "relations": [r.model_dump() for r in item.relations],
    }
    for key in ("type", "observed_at", "event_time", "subject", "predicate", "object"):
        value = getattr(item, key)
        if value is not None:
            candidate[key] = value
    return candidate


# ------------------------------------------------------------------ graphmem tools
@graphmem_tool(title="Remember statements")
async def remember(
    ctx: ToolContext,
    namespace: str,
    memories: Annotated[
        list[MemoryIn],
        Field(default_factory=list, description="Statements to remember, one memory each."),
    ],
    text: Annotated[
        str | None,
        Field(
            None,
            min_length=1,
            max_length=20_000,
            description="Shortcut for one statement: stored verbatim as a Fact.",
        ),
    ],
    session_id: SessionArg,
) -> RememberOut:
    """Store durable facts, preferences and events the user told you, so you can recall
    them in later conversations. Give self-contained statements ('Alice's sister is
    called Mia', not 'her sister is Mia'). A statement already known is merged (its
    confidence rises) instead of duplicated; a statement that contradicts a known one
    about the same subject supersedes it. All statements of a call are stored
    together or not at all. Returns the memory id of each statement."""
    items = [_candidate(m, session_id or ctx.session_id) for m in memories]
    if text is not None:
        items.append(
            {"content": text, "extractor": "verbatim", "session_id": session_id or ctx.session_id}
        )
    if not items:
        raise ToolFailure("memories: give at least one statement (memories or text)")
    with tool_errors():
        return _report(await ctx.memory.remember(namespace, items))


@graphmem_tool(title="Recall memories", read_only=True)
async def recall(
    ctx: ToolContext,
    namespace: str,
    question: Annotated[
        str,
        Field(
            min_length=1,
            max_length=4000,
            description="A natural-language question, e.g. 'what does Alice drink?'.",
        ),
    ],
    k: Annotated[int, Field(ge=1, le=100, description="How many memories to return.")] = 10,
    types: Annotated[
        list[MemoryTypeName] | None,
        Field(description="Only these memory types (Fact, Preference, Event, Entity, Relation)."),
    ] = None,
    reference_time: Annotated[
        AwareDatetime | None,
        Field(
            description="'Now' for relative times in the question ('last week'), ISO 8601"
            " with offset; default: the current time."
        ),
    ] = None,
    include_history: Annotated[
        bool, Field(description="Also return superseded (outdated) memories.")
    ] = False,
    profile: Annotated[
        Literal["rrf", "composite"],
        Field(description="Ranking: rrf (default) or composite (similarity+salience+confidence)."),
    ] = "rrf",
    record_access: Annotated[
        bool,
        Field(
            description="Count this recall as a use of the memories it returns (default);"
            " false just looks, changing nothing."
        ),
    ] = True,
) -> RecallOut:
    """Recall what you know that answers a question: memories ranked by five retrievers
    (semantic, BM25 keywords, entity, temporal, graph) fused by weighted RRF. Each hit
    has its confidence (0..1), freshness and each retriever's rank, so you can judge it;
    time expressions in the question ('in May 2023', 'last week') select a time window.
    Call it before answering anything about the user or earlier conversations. Changes
    nothing but the access statistics ranking uses (none with record_access=false)."""
    options: dict[str, Any] = {
        "k": k,
        "include_history": include_history,
        "profile": profile,
        "record_access": record_access,
    }
    if types:
        options["types"] = tuple(types)
    if reference_time is not None:
        options["reference_time"] = reference_time
    with tool_errors():
        result = await ctx.memory.recall(namespace, question, **options)
    return RecallOut(
        plan=result.plan,
        linked_entities=list(result.linked_entities),
        time_window=list(result.time_window) if result.time_window else None,
        retriever_weights={name: round(w, 4) for name, w in result.weights.items()},
        hits=[HitOut.of(hit) for hit in result.hits],
        notes=list(result.notes),
    )


@graphmem_tool(title="About an entity", read_only=True, idempotent=True)
async def about_entity(
    ctx: ToolContext,
    namespace: str,
    name: Annotated[
        str,
        Field(min_length=1, max_length=512, description="Entity name or alias, e.g. 'Alice'."),
    ],
    limit: Annotated[int, Field(ge=1, le=200, description="At most this many memories.")] = 20,
) -> EntityOut:
    """Everything currently known about one person, place or thing: the memories that
    mention it (most confident first) and its relations to other entities. Use it for
    'tell me about X'; use recall for a specific question."""
    with tool_errors():
        report = await ctx.memory.about_entity(namespace, name, limit=limit)
    return EntityOut(
        name=report.entity.name,
        kind=report.entity.kind,
        aliases=list(report.entity.aliases),
        memories=[MemoryBrief.of(m) for m in report.memories],
        relations=[
            RelationOut(
                source=r.source,
                predicate=r.predicate,
                target=r.target,
                confidence=round(r.confidence, 4),
                memory_id=r.memory_id,
            )
            for r in report.relations
        ],
        neighbours=list(report.neighbours),
    )


@graphmem_tool(title="Get a memory", read_only=True, idempotent=True)
async def get_memory(ctx: ToolContext, namespace: str, memory_id: MemoryId) -> MemoryOut:
    """One memory in full: its provenance (every session, turn and time it was observed),
    confidence, and its history (the memories that superseded it). Use it to check where
    a recalled memory came from."""
    with tool_errors():
        found = await ctx.memory.get(namespace, memory_id)
        history = await ctx.memory.history(namespace, memory_id)
    return MemoryOut.of(found, history)


@graphmem_tool(title="Confirm a memory")
async def confirm(
    ctx: ToolContext, namespace: str, memory_id: MemoryId, session_id: SessionArg
) -> ConfirmOut:
    """Record that the user explicitly confirmed a memory ('yes, that's right'): its
    source becomes 'confirmed' and its confidence rises (capped at 0.99)."""
    with tool_errors():
        before = await ctx.memory.get(namespace, memory_id)
        after = await ctx.memory.confirm(namespace, memory_id, session_id=session_id)
    return ConfirmOut(
        id=after.id,
        confidence_before=round(before.confidence, 4),
        confidence=round(after.confidence, 4),
        n=after.n,
    )


@graphmem_tool(title="Correct a memory", destructive=True)
async def correct(
    ctx: ToolContext,
    namespace: str,
    memory_id: MemoryId,
    content: Annotated[
        str,
        Field(min_length=1, max_length=20_000, description="The corrected statement, in full."),
    ],
) -> CorrectOut:
    """Replace a wrong memory with the corrected statement the user gave. The old memory
    is superseded (kept for audit, no longer recalled); the new one is returned. An id
    that an update or restatement already replaced corrects its current successor,
    unless the correction is about the replaced claim's past ("…, not Riverdale")."""
    with tool_errors():
        old, new = await ctx.memory.correct(namespace, memory_id, content)
    note = None
    if old.id != memory_id:
        note = f"memory {memory_id} was already replaced; corrected its current successor {old.id}"
    elif old.superseded_by not in (None, new.id):  # it corrects the past (docs/updates.md)
        note = f"memory {memory_id} was already replaced by {old.superseded_by}, which stays current"
    return CorrectOut(
        old_id=old.id,
        new_id=new.id,
        content=new.content,
        confidence=round(new.confidence, 4),
        note=note,
    )


@graphmem_tool(title="Name the user", idempotent=True)
async def set_user(
    ctx: ToolContext,
    namespace: str,
    name: Annotated[
        str,
        Field(min_length=1, max_length=512, description="The user's name, e.g. 'Jonas Weber'."),
    ],
) -> UserOut:
    """Name the person this namespace is about. Statements and questions in the first
    person ('I moved to Graz', 'where do I live?', 'my dog') and notes like 'User is
    vegetarian' are then about this person. Call it once per user."""
    with tool_errors():
        entity = await ctx.memory.set_user(namespace, name)
    return UserOut(namespace=namespace, entity_id=entity.id, name=entity.name)


@graphmem_tool(title="Forget a session", destructive=True, idempotent=True)
async def forget_session(
    ctx: ToolContext,
    namespace: str,
    session_id: Annotated[
        str, Field(min_length=1, max_length=200, description="The session to forget.")
    ],
    dry_run: Annotated[
        bool, Field(description="Only report what would change; delete nothing.")
    ] = False,
) -> ForgetOut:
    """Forget everything a conversation/session contributed (e.g. the user asks to
    delete it): memories only it supported are deleted, the others are recomputed
    without it. Cannot be undone; use dry_run first to see what would change."""
    with tool_errors():
        outcome = await ctx.memory.forget_session(namespace, session_id, dry_run=dry_run)
    return ForgetOut(dry_run=dry_run, deleted=outcome["deleted"], updated=outcome["updated"])


@graphmem_tool(title="List namespaces", read_only=True, idempotent=True, namespaced=False)
async def list_namespaces(ctx: ToolContext) -> NamespacesOut:
    """The namespaces (users / agents / tenants) that hold memories in this store."""
    with tool_errors():
        found = await ctx.memory.namespaces()
    return NamespacesOut(namespaces=found, current=ctx.namespace)


@graphmem_tool(title="Memory statistics", read_only=True, idempotent=True)
async def stats(ctx: ToolContext, namespace: str) -> StatsOut:
    """How much is remembered: counts of memories (current, superseded, cold), entities,
    relations and sessions."""
    with tool_errors():
        counts = await ctx.memory.stats(namespace)
    return StatsOut(namespace=namespace, counts=counts)


__all__ = [
    "TOOLS",
    "ToolContext",
    "ToolFailure",
    "ToolSpec",
    "bind",
    "graphmem_tool",
    "tool_errors",
]
