"""Input and output models of the MCP tools: the JSON schemas a client sees.

Inputs are trimmed to what an agent decides (the rest of
:class:`graphmem.MemoryCandidate` keeps its defaults); outputs are compact views of
graphmem's results, without embeddings. Every field carries a description, since
an LLM reads these schemas to call the tools. The mcp-neo4j-memory shapes
(``Entity`` / ``Relation`` / ``KnowledgeGraph`` with camelCase ``relationType``,
``entityName``) are kept as that server defines them, so a client switching from
it keeps its calls.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graphmem.models import AwareDatetime, Memory, RecallHit
from graphmem.settings import MemoryTypeName, SourceLevelName


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ graphmem tools
class RelationIn(_Input):
    """A directed relation between two named entities."""

    source: str = Field(min_length=1, max_length=512, description="Entity the relation starts at.")
    predicate: str = Field(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z_][A-Za-z0-9_ -]*$",
        description="Relation type in active voice, e.g. 'works_at', 'lives_in'.",
    )
    target: str = Field(min_length=1, max_length=512, description="Entity the relation ends at.")


class MemoryIn(_Input):
    """One statement to remember."""

    content: str = Field(
        min_length=1,
        max_length=20_000,
        description="The statement, self-contained (e.g. 'Alice prefers green tea').",
    )
    type: MemoryTypeName | None = Field(
        None,
        description="Fact (default), Preference, Event, Entity or Relation.",
    )
    source_level: SourceLevelName = Field(
        "direct",
        description="How the statement was obtained: 'direct' (the user said it) is the"
        " usual value; 'confirmed' when the user explicitly confirmed it; 'inferred' when"
        " you concluded it.",
    )
    entities: list[str] = Field(
        default_factory=list,
        description="Names of the people, places, things it is about (optional: names"
        " are also found in the content).",
    )
    relations: list[RelationIn] = Field(
        default_factory=list, description="Typed relations the statement asserts (optional)."
    )
    session_id: str | None = Field(
        None, max_length=200, description="Conversation/session id (defaults to the call's)."
    )
    observed_at: AwareDatetime | None = Field(
        None, description="When it was said, ISO 8601 with offset (default: now)."
    )
    event_time: AwareDatetime | None = Field(
        None, description="When the event it describes happened, ISO 8601 with offset."
    )
    subject: str | None = Field(
        None,
        max_length=512,
        description="Optional triple: who or what it is about, by full name ('Lena Park').",
    )
    predicate: str | None = Field(
        None,
        max_length=128,
        description="Optional triple: the attribute or relation ('lives_in', 'works_at').",
    )
    object: str | None = Field(
        None,
        max_length=2000,
        description="Optional triple: the value ('Denver'). With the same subject and"
        " predicate, another object is an update; the same object a restatement.",
    )

    @model_validator(mode="after")
    def _whole_triple(self) -> MemoryIn:
        given = [self.subject, self.predicate, self.object]
        if any(v is not None for v in given) and not all(v and v.strip() for v in given):
            raise ValueError("subject, predicate and object go together: give all three or none")
        return self


class RememberOut(BaseModel):
    """What remember did with each statement."""

    why_superseded: dict[str, str] = Field(
        default_factory=dict,
        description="Per superseded memory id, why it was replaced (e.g. 'both say where"
        " the subject lives: denver replaces portland').",
    )
    created: list[str] = Field(description="Ids of new memories.")
    merged: list[str] = Field(description="Ids of existing memories the statements confirmed.")
    superseded: list[str] = Field(description="Ids of memories replaced by newer statements.")
    rejected: list[str] = Field(description="Contents rejected (e.g. unsupported grounding).")
    memory_ids: list[str | None] = Field(
        description="Per input statement, in order: the memory id it ended in (None: rejected)."
    )
    entities_created: int
    relations_written: int


class RetrieverRank(BaseModel):
    """One retriever's verdict on a hit."""

    rank: int = Field(description="1-based rank in that retriever's list.")
    score: float = Field(description="The retriever's raw score.")


class HitOut(BaseModel):
    """One recalled memory with why it ranked there."""

    id: str
    content: str
    type: str
    weight: float = Field(description="Final ranking weight (higher ranks first).")
    confidence: float = Field(description="Belief in the memory, 0..1 (docs/spec.md §2).")
    freshness: float = Field(description="Recency factor, 0..1 (1: just observed).")
    time: datetime = Field(description="When it happened (event time, else first observation).")
    sessions: list[str] = Field(description="Sessions that observed it.")
    retrievers: dict[str, RetrieverRank] = Field(
        description="Retrievers that found it (semantic, bm25, entity, temporal, graph)."
    )
    current: bool = Field(description="False when superseded (only with include_history).")

    @classmethod
    def of(cls, hit: RecallHit) -> HitOut:
        memory, why = hit.memory, hit.explanation
        return cls(
            id=memory.id,
            content=memory.content,
            type=memory.type,
            weight=round(hit.weight, 6),
            confidence=round(why.confidence, 4),
            freshness=round(why.freshness, 4),
            time=memory.time_anchor,
            sessions=list(memory.session_ids),
            retrievers={
                name: RetrieverRank(rank=s.rank, score=round(s.score, 6))
                for name, s in why.retrievers.items()
            },
            current=memory.is_current,
        )


class RecallOut(BaseModel):
    """Recalled memories, best first, with the plan that chose the retriever weights."""

    plan: str = Field(description="Query plan: precise, entity-centric, temporal-anchored, ...")
    linked_entities: list[str] = Field(description="Entities the question named.")
    time_window: list[datetime] | None = Field(
        description="[start, end) the question's time expression resolved to, if any."
    )
    retriever_weights: dict[str, float] = Field(description="Weights of the plan, per retriever.")
    hits: list[HitOut]
    notes: list[str] = Field(description="Anything the pipeline wants you to know.")


class ObservationOut(BaseModel):
    """Where and when a memory was observed (provenance)."""

    session_id: str
    turn_id: str | None
    observed_at: datetime
    source_level: str


class MemoryBrief(BaseModel):
    """A memory, short."""

    id: str
    content: str
    type: str
    confidence: float
    current: bool
    time: datetime

    @classmethod
    def of(cls, memory: Memory) -> MemoryBrief:
        return cls(
            id=memory.id,
            content=memory.content,
            type=memory.type,
            confidence=round(memory.confidence, 4),
            current=memory.is_current,
            time=memory.time_anchor,
        )


class MemoryOut(BaseModel):
    """One memory with its provenance and its supersession history."""

    id: str
    content: str
    type: str
    confidence: float
    n: int = Field(description="Independent observations counted in its confidence.")
    source_level: str
    current: bool
    superseded_by: str | None
    created_at: datetime
    last_observed_at: datetime
    event_time: datetime | None
    access_count: int
    observations: list[ObservationOut] = Field(description="Provenance: every observation.")
    history: list[MemoryBrief] = Field(
        description="This memory, then each memory that superseded it, oldest first."
    )

    @classmethod
    def of(cls, memory: Memory, history: list[Memory]) -> MemoryOut:
        return cls(
            id=memory.id,
            content=memory.content,
            type=memory.type,
            confidence=round(memory.confidence, 4),
            n=memory.n,
            source_level=memory.source_level,
            current=memory.is_current,
            superseded_by=memory.superseded_by,
            created_at=memory.created_at,
            last_observed_at=memory.last_observed_at,
            event_time=memory.event_time,
            access_count=memory.access_count,
            observations=[
                ObservationOut(
                    session_id=o.session_id,
                    turn_id=o.turn_id,
                    observed_at=o.observed_at,
                    source_level=o.source_level,
                )
                for o in memory.observations
            ],
            history=[MemoryBrief.of(m) for m in history],
        )


class RelationOut(BaseModel):
    """A current relation of an entity, both ends named."""

    source: str
    predicate: str
    target: str
    confidence: float
    memory_id: str = Field(description="The memory that asserted it.")


class EntityOut(BaseModel):
    """Everything current about an entity."""

    name: str
    kind: str
    aliases: list[str]
    memories: list[MemoryBrief] = Field(
        description="Current memories about it, most confident first."
    )
    relations: list[RelationOut]
    neighbours: list[str] = Field(description="Entities it is related to.")


class ConfirmOut(BaseModel):
    """A confirmed memory."""

    id: str
    confidence_before: float
    confidence: float
    n: int


class CorrectOut(BaseModel):
    """A correction: the old memory is kept for audit, superseded by the new one."""

    old_id: str = Field(description="The memory corrected (the current end of the chain).")
    new_id: str
    content: str
    confidence: float
    note: str | None = Field(
        None,
        description="Set when the id given was already replaced: which current memory was"
        " corrected instead.",
    )


class UserOut(BaseModel):
    """The person a namespace is about."""

    namespace: str
    entity_id: str
    name: str


class ForgetOut(BaseModel):
    """What forgetting a session did (or would do, with dry_run)."""

    dry_run: bool
    deleted: list[str] = Field(description="Memories only that session supported.")
    updated: list[str] = Field(description="Memories recomputed without its observations.")


class NamespacesOut(BaseModel):
    """Namespaces with data in the store."""

    namespaces: list[str]
    current: str | None = Field(description="This server's namespace (None: multi-namespace).")


class StatsOut(BaseModel):
    """Counts for a namespace."""

    namespace: str
    counts: dict[str, int] = Field(
        description="memories, current, superseded, cold, unretrievable, entities, relations,"
        " sessions."
    )


# ------------------------------------------------------------ mcp-neo4j-memory shapes
class KgEntity(BaseModel):
    """mcp-neo4j-memory's entity: a name, a type and its observations."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=512, description="The entity's name.")
    type: str = Field(min_length=1, max_length=64, description="The entity's type, e.g. person.")
    observations: list[str] = Field(
        default_factory=list, description="Statements about the entity."
    )


class KgRelation(BaseModel):
    """mcp-neo4j-memory's relation: source, relationType, target; and ``lemma``, the
    wording the type was read from ("work at" for ``WORKS_AT``, "sister" for
    ``SISTER_OF``; at most 128 characters), None where the type was given as is
    (docs/extraction.md "Vocabulary"). Deleting a relation matches it by source,
    type and target; its lemma is not compared."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(min_length=1, max_length=512, description="Entity the relation starts at.")
    target: str = Field(min_length=1, max_length=512, description="Entity the relation ends at.")
    relationType: str = Field(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z_][A-Za-z0-9_ -]*$",
        description="Relation type in active voice, e.g. WORKS_AT.",
    )
    lemma: str | None = Field(
        None,
        min_length=1,
        max_length=128,
        description=(
            "The wording the type was read from, e.g. 'work at' for WORKS_AT; null when"
            " the type was given as is. Optional when creating."
        ),
    )


class ObservationAddition(BaseModel):
    """Observations to add to one entity."""

    model_config = ConfigDict(extra="forbid")

    entityName: str = Field(min_length=1, max_length=512, description="The entity to add them to.")
    observations: list[str] = Field(min_length=1, description="Statements about it.")


class AddedObservations(BaseModel):
    """Per entity, the observations that became memories."""

    entityName: str
    addedObservations: list[str]
    memoryIds: list[str | None]


class KnowledgeGraph(BaseModel):
    """mcp-neo4j-memory's graph view: entities with observations, and relations."""

    entities: list[KgEntity]
    relations: list[KgRelation]
