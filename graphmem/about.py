"""Everything current about one named entity: the agent's entity-centric question.

:func:`about_entity` resolves a name (or alias) against the namespace's entities
(docs/spec.md §2.12: exact normalised name or alias), then reads the current memories that
mention it (the entity retriever's store query, docs/spec.md §3) and the current relations
touching it (one hop of the relation graph), with each neighbour's name.
``GraphMem.about_entity`` is the public entry point.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from graphmem.entities import EntityDictionary
from graphmem.models import Entity, Memory, Relation
from graphmem.store.base import MemoryStore


class RelationView(BaseModel):
    """A current relation of the entity, with both ends named.

    ``direction`` is ``"out"`` when the entity is the source, ``"in"`` when it is
    the target; ``confidence`` in [0, 1] is the relation's own (docs/spec.md §1);
    ``memory_id`` is the memory that asserted it; ``lemma`` the wording its type
    was read from ("start at", "sister"), None for co-occurrence
    (docs/extraction.md "Vocabulary").
    """

    model_config = ConfigDict(frozen=True)

    source: str
    predicate: str
    target: str
    direction: Literal["out", "in"]
    confidence: float
    memory_id: str
    lemma: str | None = None


class EntityReport(BaseModel):
    """What :func:`about_entity` returns.

    ``memories`` are current memories mentioning the entity, most confident first
    (at most ``limit``); ``relations`` are its current relations, by predicate then
    neighbour; ``neighbours`` the distinct entity names at the other ends.
    """

    model_config = ConfigDict(frozen=True)

    entity: Entity
    memories: tuple[Memory, ...]
    relations: tuple[RelationView, ...]
    neighbours: tuple[str, ...]


def resolve_entity(known: EntityDictionary, name: str) -> Entity | None:
    """The entity a name or alias resolves to (exact normalised match), else None."""
    hit = known.resolve(name)
    return None if hit is None else known.get(hit[0])


def about_entity(
    store: MemoryStore, namespace: str, entity: Entity, known: EntityDictionary, *, limit: int
) -> EntityReport:
    """Current memories and relations of ``entity`` (see the module docstring).

    One entity-search query, one memory fetch and one one-hop relation query.
    """
    hits = store.entity_search(namespace, [entity.id], limit)
    memories = store.get_memories(namespace, [h.memory_id for h in hits])
    current = sorted((m for m in memories if m.is_current), key=lambda m: (-m.confidence, m.id))
    views = [
        _view(relation, known, out=relation.source_id == entity.id)
        for relation in store.relation_subgraph(namespace, [entity.id], 1)
        if entity.id in (relation.source_id, relation.target_id)
    ]
    views.sort(key=lambda v: (v.predicate, v.source, v.target))
    neighbours = tuple(dict.fromkeys(v.target if v.direction == "out" else v.source for v in views))
    return EntityReport(
        entity=entity, memories=tuple(current), relations=tuple(views), neighbours=neighbours
    )


def memory_relations(
    store: MemoryStore, namespace: str, memory: Memory, known: EntityDictionary
) -> tuple[RelationView, ...]:
    """The current relations ``memory`` asserts (its ``memory_id``), both ends named,
    each with its lemma (``direction`` "out": read source → target), by predicate
    then names. One one-hop relation query over the memory's mentioned entities; a
    relation restated by a later memory is that memory's."""
    ids = list(dict.fromkeys(m.entity_id for m in memory.mentions))
    found = store.relation_subgraph(namespace, ids, 1) if ids else []
    views = [_view(r, known, out=True) for r in found if r.memory_id == memory.id]
    return tuple(sorted(views, key=lambda v: (v.predicate, v.source, v.target)))


def _view(relation: Relation, known: EntityDictionary, *, out: bool) -> RelationView:
    source = known.get(relation.source_id)
    target = known.get(relation.target_id)
    return RelationView(
        source=source.name if source else relation.source_id,
        predicate=relation.predicate,
        target=target.name if target else relation.target_id,
        direction="out" if out else "in",
        confidence=relation.confidence,
        memory_id=relation.memory_id,
        lemma=relation.lemma,
    )
