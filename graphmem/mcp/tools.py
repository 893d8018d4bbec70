"""The MCP tools: graphmem's own, and mcp-neo4j-memory's mapped onto graphmem.

Each tool is an ``async`` function ``(ctx, namespace, **arguments) -> model``
registered with :func:`graphmem_tool`; the server
(:func:`graphmem.mcp.server.build_server`) binds ``ctx`` and, with one namespace
per server, ``namespace``, so the schema a client sees has only the tool's own
arguments (plus ``namespace`` with ``--multi-namespace``). Arguments are typed
with pydantic, so the SDK validates them against the published schema; graphmem's
own errors become tool errors that name the field (:func:`tool_errors`).

To add a tool (e.g. from another module)::

    @graphmem_tool(title="Check an answer", read_only=True)
    async def check_answer(ctx: ToolContext, namespace: str, answer: str) -> SomeModel:
        \"\"\"What an LLM should know to call it.\"\"\"

and import that module before the server is built (see ``server.TOOL_MODULES``).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from graphmem.aio import AsyncGraphMem
from graphmem.errors import (
    EntityNotFoundError,
    GraphMemError,
    InvalidInputError,
    MemoryNotFoundError,
)
from graphmem.mcp.schemas import (
    AddedObservations,
    ConfirmOut,
    CorrectOut,
    EntityOut,
    ForgetOut,
    HitOut,
    KgEntity,
    KgRelation,
    KnowledgeGraph,
    MemoryBrief,
    MemoryIn,
    MemoryOut,
    NamespacesOut,
    ObservationAddition,
    RecallOut,
    RelationOut,
    RememberOut,
    StatsOut,
)
from graphmem.models import AwareDatetime, Entity, Memory, Relation
from graphmem.settings import MemoryTypeName
from graphmem.store.base import memory_pages

ToolFunction = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class ToolContext:
    """What every tool gets: the async facade, and the server's fixed namespace
    (None with ``--multi-namespace``)."""

    memory: AsyncGraphMem
    namespace: str | None
    session_id: str = "mcp"


@dataclass(frozen=True)
class ToolSpec:
    """A registered tool and its MCP hints (``read_only``: changes nothing;
    ``destructive``: may delete or overwrite; ``idempotent``: repeating it changes
    nothing more; ``namespaced``: takes a namespace)."""

    function: ToolFunction
    name: str
    title: str
    read_only: bool
    destructive: bool
    idempotent: bool
    namespaced: bool


TOOLS: dict[str, ToolSpec] = {}


def graphmem_tool(
    *,
    title: str,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
    namespaced: bool = True,
    name: str | None = None,
) -> Callable[[ToolFunction], ToolFunction]:
    """Register a tool function (its docstring is the description the LLM reads)."""

    def register(function: ToolFunction) -> ToolFunction:
        spec = ToolSpec(
            function=function,
            name=name or function.__name__,
            title=title,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            namespaced=namespaced,
        )
        TOOLS[spec.name] = spec
        return function

    return register


class ToolFailure(ToolError):
    """A tool error for the client: one line, the field named; never a traceback (the
    SDK returns a ``ToolError``'s message as an ``is_error`` result)."""


@contextmanager
def tool_errors() -> Iterator[None]:
    """Turn graphmem's errors into :class:`ToolFailure` messages an LLM can act on."""
    try:
        yield
    except MemoryNotFoundError as exc:
        raise ToolFailure(f"memory_id: {exc} (recall or search first to get a memory id)") from exc
    except EntityNotFoundError as exc:
        raise ToolFailure(
            f"name: {exc} (find_memories_by_name or recall show the known entities)"
        ) from exc
    except InvalidInputError as exc:
        raise ToolFailure(str(exc)) from exc
    except GraphMemError as exc:
        raise ToolFailure(f"{type(exc).__name__}: {exc}") from exc


# ------------------------------------------------------------------ argument types
MemoryId = Annotated[
    str, Field(min_length=1, max_length=200, description="A memory id from recall.")
]
SessionArg = Annotated[
    str | None,
    Field(None, max_length=200, description="Conversation/session id to record (optional)."),
]


def _report(report: Any) -> RememberOut:
    return RememberOut(
        created=list(report.created),
        merged=list(report.merged),
        superseded=list(report.superseded),
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
    for key in ("type", "observed_at", "event_time"):
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
    is superseded (kept for audit, no longer recalled); the new one is returned."""
    with tool_errors():
        old, new = await ctx.memory.correct(namespace, memory_id, content)
    return CorrectOut(
        old_id=old.id, new_id=new.id, content=new.content, confidence=round(new.confidence, 4)
    )


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


# ------------------------------------------------------- mcp-neo4j-memory's tools
def _words(relation_type: str) -> str:
    return relation_type.replace("_", " ").lower()


@graphmem_tool(title="Create entities")
async def create_entities(
    ctx: ToolContext,
    namespace: str,
    entities: Annotated[
        list[KgEntity], Field(min_length=1, description="Entities with their observations.")
    ],
) -> list[KgEntity]:
    """(mcp-neo4j-memory compatible) Create entities in the knowledge graph. Each
    observation becomes a memory about its entity; an entity without observations is
    remembered as '<name> is a <type>'. Known entities are merged, not duplicated."""
    items: list[dict[str, Any]] = []
    for entity in entities:
        mention = {"name": entity.name, "kind": entity.type, "role": "subject"}
        statements = entity.observations or [f"{entity.name} is a {entity.type}"]
        for statement in statements:
            items.append(
                {
                    "content": statement,
                    "type": "Fact" if entity.observations else "Entity",
                    "extractor": "verbatim",
                    "session_id": ctx.session_id,
                    "entities": [mention],
                }
            )
    with tool_errors():
        await ctx.memory.remember(namespace, items)
    return entities


@graphmem_tool(title="Create relations")
async def create_relations(
    ctx: ToolContext,
    namespace: str,
    relations: Annotated[
        list[KgRelation], Field(min_length=1, description="Relations, in active voice.")
    ],
) -> list[KgRelation]:
    """(mcp-neo4j-memory compatible) Create relations between entities, in active voice
    (source WORKS_AT target). Each becomes a Relation memory asserting it; missing
    entities are created."""
    items = [
        {
            "content": f"{r.source} {_words(r.relationType)} {r.target}",
            "type": "Relation",
            "extractor": "verbatim",
            "session_id": ctx.session_id,
            "entities": [
                {"name": r.source, "role": "subject"},
                {"name": r.target, "role": "object"},
            ],
            "relations": [{"source": r.source, "predicate": r.relationType, "target": r.target}],
        }
        for r in relations
    ]
    with tool_errors():
        await ctx.memory.remember(namespace, items)
    return relations


@graphmem_tool(title="Add observations")
async def add_observations(
    ctx: ToolContext,
    namespace: str,
    observations: Annotated[
        list[ObservationAddition],
        Field(min_length=1, description="Per entity, the statements to add."),
    ],
) -> list[AddedObservations]:
    """(mcp-neo4j-memory compatible) Add observations to entities: each becomes a memory
    about the entity (an entity not known yet is created)."""
    items: list[dict[str, Any]] = []
    for addition in observations:
        for statement in addition.observations:
            items.append(
                {
                    "content": statement,
                    "extractor": "verbatim",
                    "session_id": ctx.session_id,
                    "entities": [{"name": addition.entityName, "role": "subject"}],
                }
            )
    with tool_errors():
        report = await ctx.memory.remember(namespace, items)
    out: list[AddedObservations] = []
    ids = iter(report.memory_ids)
    for addition in observations:
        out.append(
            AddedObservations(
                entityName=addition.entityName,
                addedObservations=list(addition.observations),
                memoryIds=[next(ids, None) for _ in addition.observations],
            )
        )
    return out


def _graph(
    memories: list[Memory], entities: dict[str, Entity], relations: list[Relation]
) -> KnowledgeGraph:
    """mcp-neo4j-memory's view: each entity with the contents of the memories that
    mention it as observations; relations with both ends named."""
    observations: dict[str, list[str]] = {}
    for memory in memories:
        for mention in memory.mentions:
            if mention.entity_id in entities:
                observations.setdefault(mention.entity_id, []).append(memory.content)
    shown = [e for e in entities.values() if e.id in observations]
    kg_relations = [
        KgRelation(
            source=entities[r.source_id].name,
            target=entities[r.target_id].name,
            relationType=r.predicate,
        )
        for r in relations
        if r.source_id in entities and r.target_id in entities
    ]
    return KnowledgeGraph(
        entities=[
            KgEntity(name=e.name, type=e.kind, observations=list(dict.fromkeys(observations[e.id])))
            for e in shown
        ],
        relations=_unique(kg_relations),
    )


def _unique(relations: list[KgRelation]) -> list[KgRelation]:
    seen: set[tuple[str, str, str]] = set()
    out: list[KgRelation] = []
    for r in relations:
        key = (r.source, r.relationType, r.target)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


@graphmem_tool(title="Search memories (graph view)", read_only=True)
async def search_memories(
    ctx: ToolContext,
    namespace: str,
    query: Annotated[str, Field(min_length=1, max_length=4000, description="What to search for.")],
) -> KnowledgeGraph:
    """(mcp-neo4j-memory compatible) Search the knowledge graph: the entities of the
    best-matching memories (graphmem's recall, k = 10), each with those memories as
    observations, and their relations. Memories naming no entity are not shown here;
    recall returns them ranked, with confidence."""
    with tool_errors():
        result = await ctx.memory.recall(namespace, query, k=10)
        memories = [hit.memory for hit in result.hits]
        known = await ctx.memory.run_sync(ctx.memory.sync.store.list_entities, namespace)
        by_id = {e.id: e for e in known}
        ids = sorted({m.entity_id for mem in memories for m in mem.mentions})
        relations = await ctx.memory.run_sync(
            ctx.memory.sync.store.relation_subgraph, namespace, ids, 1
        )
    return _graph(memories, by_id, relations)


@graphmem_tool(title="Find memories by name", read_only=True, idempotent=True)
async def find_memories_by_name(
    ctx: ToolContext,
    namespace: str,
    names: Annotated[
        list[str], Field(min_length=1, description="Exact entity names (or aliases) to open.")
    ],
) -> KnowledgeGraph:
    """(mcp-neo4j-memory compatible) Open entities by exact name or alias: each with the
    current memories about it as observations, and their relations. Unknown names are
    skipped."""
    entities: dict[str, KgEntity] = {}
    relations: list[KgRelation] = []
    for name in names:
        try:
            with tool_errors():
                report = await ctx.memory.about_entity(namespace, name, limit=200)
        except ToolFailure as exc:
            if isinstance(exc.__cause__, EntityNotFoundError):
                continue
            raise
        entities[report.entity.id] = KgEntity(
            name=report.entity.name,
            type=report.entity.kind,
            observations=[m.content for m in report.memories],
        )
        relations.extend(
            KgRelation(source=r.source, target=r.target, relationType=r.predicate)
            for r in report.relations
        )
    return KnowledgeGraph(entities=list(entities.values()), relations=_unique(relations))


@graphmem_tool(title="Read the whole graph", read_only=True, idempotent=True)
async def read_graph(ctx: ToolContext, namespace: str) -> KnowledgeGraph:
    """(mcp-neo4j-memory compatible) The whole knowledge graph of the namespace: every
    entity with the current memories about it as observations, and every current
    relation. Large on a big namespace: prefer recall or find_memories_by_name."""
    store = ctx.memory.sync.store

    def read() -> tuple[list[Memory], dict[str, Entity], list[Relation]]:
        with tool_errors():
            ctx.memory.sync.open()
            memories: list[Memory] = []
            for page in memory_pages(store, namespace, 1000):
                memories.extend(m for m in page if m.is_current)
            entities = {e.id: e for e in store.list_entities(namespace)}
            relations = store.relation_subgraph(namespace, sorted(entities), 1)
        return memories, entities, relations

    memories, entities, relations = await ctx.memory.run_sync(read)
    return _graph(memories, entities, relations)


def bind(spec: ToolSpec, ctx: ToolContext) -> ToolFunction:
    """The function the SDK registers: ``ctx`` bound and, with a fixed namespace,
    ``namespace`` too; its signature (hence the schema) drops what is bound."""
    signature = inspect.signature(spec.function, eval_str=True)
    params = list(signature.parameters.values())[1:]  # drop ctx
    fixed = ctx.namespace if spec.namespaced else None
    if spec.namespaced and fixed is not None:
        params = [p for p in params if p.name != "namespace"]
    elif spec.namespaced:
        params = [
            p.replace(
                annotation=Annotated[
                    str,
                    Field(
                        min_length=1,
                        max_length=128,
                        description="Namespace (user / agent / tenant) to work in.",
                    ),
                ]
            )
            if p.name == "namespace"
            else p
            for p in params
        ]

    async def call(**arguments: Any) -> Any:
        if fixed is not None:
            arguments["namespace"] = fixed
        return await spec.function(ctx, **arguments)

    call.__name__ = spec.name
    call.__doc__ = spec.function.__doc__
    call.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    return call


__all__ = [
    "TOOLS",
    "ToolContext",
    "ToolFailure",
    "ToolSpec",
    "bind",
    "graphmem_tool",
    "tool_errors",
]
