"""The synthetic namespace of the speed benchmarks (docs/benchmarks.md "Speed and scale"; see
:mod:`bench.perf.latency`): sentences from templates over 400 people, 60 places, 40
activities and 24 months, each mentioning a person and a place (a co-occurrence
relation between them, plus a person–person ``KNOWS`` chain), with an event time in
2023–2024 and a seeded **random unit embedding** — so that 100k memories build in
minutes on 2 cores — and the fixed query set that covers the planner's plans.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import numpy as np

from graphmem.models import Entity, Memory, Mention, Observation, Relation
from graphmem.store.base import WriteBatch
from graphmem.text import content_hash, entity_id, memory_id, relation_id, surface_hash
from graphmem.write.relations import CO_OCCURS

__all__ = ["ACTIVITIES", "FIRST", "LAST", "PLACES", "QUERIES", "bench_queries", "synthetic_batches"]

_START = datetime(2023, 1, 1, tzinfo=UTC)

FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Max", "Nia", "Oto", "Pia", "Quin", "Rae", "Sol", "Tao"]  # fmt: skip
LAST = ["Abbott", "Baker", "Costa", "Diaz", "Evans", "Fujita", "Garcia", "Haddad", "Ito", "Jensen", "Kowal", "Lopez", "Moreau", "Nakamura", "Okafor", "Petrov", "Quinn", "Rossi", "Silva", "Tanaka"]  # fmt: skip
PLACES = [f"{a} {b}" for a in ("North", "South", "East", "West", "Old", "New") for b in ("Harbor", "Ridge", "Market", "Valley", "Park", "Bridge", "Hill", "Garden", "Square", "Lake")]  # fmt: skip
ACTIVITIES = ["went hiking", "painted a mural", "ran a half marathon", "adopted a puppy", "started pottery classes", "visited a museum", "baked sourdough", "joined a choir", "went camping", "fixed a bicycle", "planted tomatoes", "learned to surf", "watched a play", "hosted a dinner", "wrote a poem", "built a bookshelf", "took a photo class", "went birdwatching", "played chess", "sang karaoke"] * 2  # fmt: skip
QUERIES = (
    "What did {person} do in March 2024?",
    "Where did {person} go hiking?",
    "Who knows {person}?",
    "What happened last summer?",
    "pottery classes",
    "Tell me something interesting",
    "What did {person} do at {place}?",
    "Which people painted a mural in 2023?",
    "event {note}",
)


def people(count: int = 400) -> list[str]:
    return [f"{FIRST[i % 20]} {LAST[(i // 20) % 20]}" for i in range(count)]


def synthetic_batches(
    namespace: str, n: int, dim: int, *, confidence: float, batch_size: int = 5000, seed: int = 7
) -> Iterator[WriteBatch]:
    """Yield ``WriteBatch`` objects building ``n`` synthetic memories (see the module
    docstring), ``batch_size`` memories each; the first batch also carries every
    entity and the ``KNOWS`` chain.

    ``confidence`` is what the write pipeline gives a direct verbatim Event
    with n = 1; the bulk path skips the pipeline, so the caller computes it.
    """
    rng = np.random.default_rng(seed)
    names = people()
    entities = {
        name: Entity(id=entity_id(name), namespace=namespace, name=name, kind=kind)
        for group, kind in ((names, "Person"), (PLACES, "Place"))
        for name in group
    }
    relations: dict[str, Relation] = {}
    for offset in range(0, n, batch_size):
        size = min(batch_size, n - offset)
        vectors = rng.standard_normal((size, dim)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        memories: list[Memory] = []
        for j in range(size):
            i = offset + j
            person, place = names[i % len(names)], PLACES[(i * 7) % len(PLACES)]
            memory = _event(namespace, i, entities[person], entities[place], vectors[j], confidence)
            memories.append(memory)
            rid = relation_id(namespace, entities[person].id, CO_OCCURS, entities[place].id)
            relations.setdefault(
                rid,
                Relation(
                    id=rid,
                    namespace=namespace,
                    source_id=entities[person].id,
                    target_id=entities[place].id,
                    predicate=CO_OCCURS,
                    confidence=confidence,
                    memory_id=memory.id,
                ),
            )
        batch = WriteBatch(memories=memories)
        if offset == 0:
            batch.entities = list(entities.values())
            batch.relations.extend(_knows_chain(namespace, names, entities, memories[0].id))
        written = {m.id for m in memories}
        batch.relations.extend(r for r in relations.values() if r.memory_id in written)
        yield batch


def _event(
    namespace: str,
    i: int,
    person: Entity,
    place: Entity,
    vector: np.ndarray,
    confidence: float,
) -> Memory:
    """The ``i``-th synthetic memory: a direct verbatim Event of ``person`` at ``place``."""
    when = _START + timedelta(hours=(i * 37) % (24 * 730))
    text = f"{person.name} {ACTIVITIES[(i * 3) % len(ACTIVITIES)]} at {place.name} (note {i})."
    chash = content_hash("Event", None, None, text)
    return Memory(
        id=memory_id(namespace, chash),
        namespace=namespace,
        type="Event",
        content=text,
        source_level="direct",
        source_strength=0.95,
        extractor="verbatim",
        extractor_confidence=1.0,
        type_prior=0.85,
        n=1,
        observations=(
            Observation(
                session_id=f"s{i // 50}",
                turn_id=f"t{i}",
                observed_at=when,
                source_level="direct",
                surface_hash=surface_hash(text),
            ),
        ),
        confidence=confidence,
        created_at=when,
        last_observed_at=when,
        event_time=when,
        content_hash=chash,
        mentions=(
            Mention(entity_id=person.id, role="subject"),
            Mention(entity_id=place.id, role="object"),
        ),
        embedding=tuple(vector.tolist()),
    )


def _knows_chain(
    namespace: str, names: list[str], entities: dict[str, Entity], memory: str
) -> list[Relation]:
    """Each person ``KNOWS`` the next one (a chain for the graph retriever to walk)."""
    out: list[Relation] = []
    for a, b in itertools.pairwise(names):
        rid = relation_id(namespace, entities[a].id, "KNOWS", entities[b].id)
        out.append(
            Relation(
                id=rid,
                namespace=namespace,
                source_id=entities[a].id,
                target_id=entities[b].id,
                predicate="KNOWS",
                confidence=0.9,
                memory_id=memory,
            )
        )
    return out


def bench_queries(n: int) -> list[str]:
    """The fixed query set for a namespace of ``n`` synthetic memories."""
    names = people()
    return [
        q.format(
            person=names[(i * 13) % len(names)], place=PLACES[i % len(PLACES)], note=n // 2 + 1
        )
        for i, q in enumerate(QUERIES)
    ]
