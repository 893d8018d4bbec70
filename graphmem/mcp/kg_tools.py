"""mcp-neo4j-memory's tools mapped onto graphmem: create_entities, create_relations,
add_observations, search_memories, find_memories_by_name, read_graph (a client written
for that server works unchanged; registered with
:func:`graphmem.mcp.registry.graphmem_tool`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from graphmem.errors import (
    EntityNotFoundError,
)
from graphmem.mcp.registry import (
    ToolContext,
    ToolFailure,
    graphmem_tool,
    tool_errors,
)
from graphmem.mcp.schemas import (
    AddedObservations,
    KgEntity,
    KgRelation,
    KnowledgeGraph,
    ObservationAddition,
)
from graphmem.models import Entity, Memory, Relation
from graphmem.store.base import memory_pages


def _statement(
    ctx: ToolContext, content: str, entities: list[dict[str, str]], **fields: Any
) -> dict[str, Any]:
    """A verbatim memory candidate of this server's session about ``entities``."""
    return {
        "content": content,
        **fields,
        "extractor": "verbatim",
        "session_id": ctx.session_id,
        "entities": entities,
    }


def _about(name: str, observation: str) -> str:
    """An observation as a claim about its entity: "Lives in Portland" of Lena is stored
    "Lena — Lives in Portland" (its subject then reads from the text, docs/updates.md);
    one that already names the entity, or its first name, is stored as given."""
    words = name.split()
    lowered = observation.casefold()
    if name.casefold() in lowered or (words and words[0].casefold() in lowered.split()):
        return observation
    return f"{name} — {observation}"


def observation_text(name: str, content: str) -> str:
    """What the client wrote: a stored memory's content without the "<name> — " that
    :func:`_about` put before it."""
    prefix = f"{name} — "
    return content[len(prefix) :] if content.startswith(prefix) else content


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
            kind = "Fact" if entity.observations else "Entity"
            items.append(_statement(ctx, _about(entity.name, statement), [mention], type=kind))
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
        _statement(
            ctx,
            f"{r.source} {_words(r.relationType)} {r.target}",
            [{"name": r.source, "role": "subject"}, {"name": r.target, "role": "object"}],
            type="Relation",
            relations=[
                {"source": r.source, "predicate": r.relationType, "target": r.target}
                | ({"lemma": r.lemma} if r.lemma is not None else {})
            ],
        )
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
            subject = {"name": addition.entityName, "role": "subject"}
            items.append(_statement(ctx, _about(addition.entityName, statement), [subject]))
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
                text = observation_text(entities[mention.entity_id].name, memory.content)
                observations.setdefault(mention.entity_id, []).append(text)
    shown = [e for e in entities.values() if e.id in observations]
    kg_relations = [
        KgRelation(
            source=entities[r.source_id].name,
            target=entities[r.target_id].name,
            relationType=r.predicate,
            lemma=r.lemma,
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
    """Each relation once, in order; the same type read from two wordings ("work at",
    "start at") is listed once per wording."""
    seen: set[tuple[str, str, str, str | None]] = set()
    out: list[KgRelation] = []
    for r in relations:
        key = (r.source, r.relationType, r.target, r.lemma)
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
            observations=[
                observation_text(report.entity.name, m.content) for m in report.memories
            ],
        )
        relations.extend(
            KgRelation(source=r.source, target=r.target, relationType=r.predicate, lemma=r.lemma)
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
