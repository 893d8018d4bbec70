"""What one call of the write pipeline carries between its steps (docs/spec.md §2).

:class:`Prepared` is a candidate with its persist-time scores, :class:`BatchState`
what the call will write, :class:`Match` what dedup found for a candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphmem.language.claims import Compatibility
from graphmem.models import (
    Entity,
    Memory,
    MemoryCandidate,
    Observation,
    Relation,
    RelationInput,
)
from graphmem.settings import MemoryTypeName
from graphmem.store.base import Vector


@dataclass(slots=True)
class Prepared:
    """A candidate with its persist-time scores, before dedup (docs/spec.md §2 steps 1–6):
    ``s`` source strength, ``e`` extractor confidence, ``t`` type prior, ``n``
    independent observations, all in [0, 1] except ``n``; ``position`` is its index
    among the candidates that were not rejected (the row of its vector)."""

    index: int
    candidate: MemoryCandidate
    position: int
    memory_type: MemoryTypeName
    type_uncertain: bool
    s: float
    e: float
    t: float
    n: int
    confidence: float
    hash: str
    observation: Observation
    #: contextual key (graphmem.write.keys); None: the content
    key: str | None = None


@dataclass(slots=True)
class BatchState:
    """What this call will write, keyed by memory id (``read``: the stored memories it
    merges into, as read, so that those a retried batch leaves unchanged are not
    written again)."""

    memories: dict[str, Memory] = field(default_factory=dict)
    read: dict[str, Memory] = field(default_factory=dict)
    by_hash: dict[str, str] = field(default_factory=dict)
    new_ids: list[str] = field(default_factory=list)
    new_vectors: list[Vector] = field(default_factory=list)
    entities: dict[str, Entity] = field(default_factory=dict)
    relations: dict[str, Relation] = field(default_factory=dict)
    triples: dict[tuple[str, str], list[Memory]] = field(default_factory=dict)
    #: the stored memories about a subject's entities (sorted ids), read once per call
    subject_memories: dict[tuple[str, ...], list[Memory]] = field(default_factory=dict)
    #: superseded memory id → why (docs/updates.md), for the write report
    why: dict[str, str] = field(default_factory=dict)
    # relations the extractor found in a candidate's text, by id(candidate) (docs/spec.md §11)
    extracted: dict[int, tuple[RelationInput, ...]] = field(default_factory=dict)
    # the pairs of names the text relates, by id(candidate); absent: the extractor
    # cannot tell (docs/extraction.md "Co-occurrence")
    linked: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)


@dataclass(slots=True)
class Match:
    """What dedup found for a candidate: the memory to merge into (``target``), whether
    an ambiguous pair went to the judge, and the near-duplicates it conflicts with
    (incompatible by docs/spec.md §9.10; resolved by §9.9 when the candidate is created)."""

    target: Memory | None = None
    ambiguous: int = 0
    conflicts: list[tuple[Memory, Compatibility]] = field(default_factory=list)
