"""What is written and stored: candidates, their mentions and relations, memories,
entities, relations and the write report.

The input (:class:`MemoryCandidate`) validates every field and raises
:class:`graphmem.errors.InvalidMemoryError` naming the field. Outputs
(:class:`Memory`, :class:`WriteReport`, ...) are frozen.

Times are timezone-aware ``datetime`` values everywhere (naive ones are
rejected: on Neo4j a naive time is a LOCAL DATETIME that never compares with a
zoned one, see NEO4J.md).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
)

from graphmem.settings import MemoryTypeName, SourceLevelName
from graphmem.types import (
    AwareDatetime,
    Grounding,
    Role,
    Tier,
    UnitFloat,
    WriteOutcome,
)


class EntityMention(BaseModel):
    """An entity a candidate names, as the writer saw it (docs/spec.md §2.12).

    ``name`` is resolved against the namespace's entity names and aliases;
    unresolved names become new entities with a uuid5 id.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=512)
    kind: str = Field("Thing", min_length=1, max_length=64)
    aliases: tuple[str, ...] = ()
    role: Role = "mention"

    @field_validator("name")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("entity name must not be blank")
        return value.strip()


class RelationInput(BaseModel):
    """A typed, directed relation between two named entities of a candidate.

    ``lemma``, optional, is the wording the type was read from, kept beside the
    normalised type: a verb lemma and its preposition ("start at" for ``WORKS_AT``)
    or a role noun ("sister" for ``SISTER_OF``); at most 128 characters
    (docs/extraction.md "Vocabulary")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = Field(min_length=1, max_length=512)
    predicate: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z_][A-Za-z0-9_ -]*$")
    target: str = Field(min_length=1, max_length=512)
    lemma: str | None = Field(None, min_length=1, max_length=128)

    @field_validator("source", "target")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():  # it becomes an entity name, which must not be blank
            raise ValueError("relation source and target must not be blank")
        return value


class MemoryCandidate(BaseModel):
    """One claim an agent wants remembered (docs/spec.md §2 input).

    ``type`` is one of the five types of docs/spec.md §1, or ``"unknown"`` when the extractor
    could not tell: that is stored as ``Fact`` with ``type_uncertain`` (docs/spec.md
    §2.3); any other word is an error (a typo must not silently become a Fact).
    ``extractor="verbatim"`` means the content is the source text itself (docs/spec.md
    §9.8). ``extractor_confidence`` in [0, 1], when given, replaces the model
    table (a calibrated score from the caller); ``logprobs`` take precedence.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str = Field(min_length=1, max_length=20_000)
    type: MemoryTypeName | Literal["unknown"] = "Fact"
    source_level: SourceLevelName = "direct"
    hearsay: bool = False
    extractor: str = Field("unknown", min_length=1, max_length=200)
    logprobs: tuple[float, ...] | None = None
    extractor_confidence: UnitFloat | None = None
    entities: tuple[EntityMention, ...] = ()
    relations: tuple[RelationInput, ...] = ()
    subject: str | None = Field(None, max_length=512)
    predicate: str | None = Field(None, max_length=128)
    object: str | None = Field(None, max_length=2000)
    session_id: str = Field("default", min_length=1, max_length=200)
    turn_id: str | None = Field(None, max_length=200)
    observed_at: AwareDatetime | None = None
    event_time: AwareDatetime | None = None
    grounding: Grounding = "supported"
    salience: UnitFloat | None = None

    @field_validator("content")
    @classmethod
    def _content_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("content must not be blank")
        return value

    @field_validator("logprobs")
    @classmethod
    def _logprobs(cls, value: tuple[float, ...] | None) -> tuple[float, ...] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("logprobs must be non-empty when given")
        if any(not math.isfinite(x) or x > 0.0 for x in value):
            raise ValueError("logprobs must be finite and <= 0")
        return value


class Observation(BaseModel):
    """One observation of a memory's claim: where and when it was seen (docs/spec.md §1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session_id: str
    turn_id: str | None = None
    observed_at: AwareDatetime
    source_level: SourceLevelName
    surface_hash: str
    independent: bool = True


class Mention(BaseModel):
    """A memory's link to an entity, with the entity's role in the claim."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entity_id: str
    role: Role = "mention"


class Memory(BaseModel):
    """A stored memory (docs/spec.md §1). Frozen; the pipeline replaces, never mutates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    namespace: str
    type: MemoryTypeName
    type_uncertain: bool = False
    content: str
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    source_level: SourceLevelName
    source_strength: float
    hearsay: bool = False
    extractor: str
    extractor_confidence: float
    type_prior: float
    n: int = Field(ge=0)
    observations: tuple[Observation, ...] = ()
    grounding: Grounding = "supported"
    confidence: float
    access_count: int = 0
    last_accessed_at: AwareDatetime | None = None
    accessed_sessions: tuple[str, ...] = ()
    stability: float = 0.0
    salience: float = 0.5
    retrievable: bool = True
    tier: Tier = "hot"
    created_at: AwareDatetime
    last_observed_at: AwareDatetime
    event_time: AwareDatetime | None = None
    valid_until: AwareDatetime | None = None
    superseded_by: str | None = None
    content_hash: str
    key: str | None = Field(
        None,
        description=(
            "Contextual key (graphmem.write.keys): the text the BM25 retriever indexes,"
            " built at write time from the memory's context (session date or event time,"
            " the neighbouring turns of its session); None: the key is the content."
        ),
    )
    mentions: tuple[Mention, ...] = ()
    embedding: tuple[float, ...] | None = Field(None, repr=False)
    version: int = Field(
        0,
        ge=0,
        description=(
            "Store-managed write counter (0: never stored). Every write of the memory's"
            " claim or lifecycle fields raises it (access updates do not); a read-modify-"
            "write passes the version it read and fails if another writer got in first."
        ),
    )

    @property
    def time_anchor(self) -> datetime:
        """When the claim happened: ``event_time``, else its first observation."""
        if self.event_time is not None:
            return self.event_time
        if self.observations:
            return min(o.observed_at for o in self.observations)
        return self.last_observed_at

    @property
    def session_ids(self) -> tuple[str, ...]:
        """Sessions that observed this memory, in first-seen order."""
        return tuple(dict.fromkeys(o.session_id for o in self.observations))

    @property
    def turn_ids(self) -> tuple[str, ...]:
        """Turns that observed this memory, in first-seen order."""
        return tuple(dict.fromkeys(o.turn_id for o in self.observations if o.turn_id))

    @property
    def is_current(self) -> bool:
        """Not superseded (docs/spec.md §2.11)."""
        return self.superseded_by is None


class Entity(BaseModel):
    """A resolved entity (docs/spec.md §1): canonical id, name, aliases, kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    namespace: str
    name: str
    kind: str = "Thing"
    aliases: tuple[str, ...] = ()


class Relation(BaseModel):
    """A typed, directed edge between two entities, with its own confidence.

    ``lemma`` is the wording the type was read from ("start at", "sister"; see
    :class:`RelationInput`), None for co-occurrence and for relations given
    without one."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    namespace: str
    source_id: str
    target_id: str
    predicate: str
    confidence: float
    memory_id: str
    valid_from: AwareDatetime | None = None
    valid_until: AwareDatetime | None = None
    lemma: str | None = None


class WriteReport(BaseModel):
    """What ``remember`` did with each candidate."""

    model_config = ConfigDict(frozen=True)

    created: tuple[str, ...] = ()
    merged: tuple[str, ...] = ()
    superseded: tuple[str, ...] = Field(
        (),
        description=(
            "Every memory this call left superseded: older memories a conflicting"
            " candidate replaced, and candidates that lost their conflict (docs/spec.md §9.9)."
        ),
    )
    why_superseded: dict[str, str] = Field(
        default_factory=dict,
        description="Per superseded memory id, why in words ('both say where the subject"
        " lives: denver replaces portland'; docs/updates.md).",
    )
    rejected: tuple[str, ...] = ()
    ambiguous: int = 0
    entities_created: int = 0
    relations_written: int = 0
    memory_ids: tuple[str | None, ...] = ()
    outcomes: tuple[WriteOutcome, ...] = Field(
        (),
        description=(
            "What became of each candidate, in input order: 'created' (a new current"
            " memory, which may have superseded older ones), 'merged' (a new observation of"
            " a stored memory), 'superseded' (stored, but an older memory it conflicts with"
            " stays current), 'rejected' (not written). They add up to the candidates."
        ),
    )
    attempts: int = Field(
        1,
        description=(
            "Store write attempts: more than 1 when another writer changed a memory this"
            " call merged into between its read and its write, and it re-read and recomputed."
        ),
    )
