"""Rows in, models out: how graphmem's models map onto Neo4j properties.

Pure functions, no driver import (:mod:`graphmem.store.neo4j` is the only
module that imports ``neo4j``). A :class:`~graphmem.models.Memory` is one
``:Memory`` node whose scalar fields are readable properties (``content``,
``type``, ``confidence``, ``n``, ``created_at`` as a zoned DATETIME, ...) plus

- ``version``: the write counter of optimistic concurrency (``write/claim_memories``);
- ``time_anchor`` (DATETIME, in UTC): :attr:`Memory.time_anchor`, for time windows;
- ``ns_key``: a one-token hash of the namespace, indexed by the fulltext
  index so that a search stays inside its namespace in Lucene;
- ``observations_json``: the observations as JSON (exact round trip), beside
  the provenance graph ``(:Memory)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(:Session)``;
- ``embedding``: a float32 vector (``db.create.setNodeVectorProperty``);
- ``embedding_nonzero``: whether it has a direction (a cosine); reading it spares the
  read statements a scan of the 384 stored values (the vector read is what costs:
  ~40 µs per node on the bench machine);
- mentions as ``(:Memory)-[:MENTIONS {role, ord}]->(:Entity)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timezone
from typing import Any, Protocol

from graphmem.errors import InvalidInputError
from graphmem.models import Entity, Memory, Mention, Observation, Relation
from graphmem.store.checks import check_vector, check_versions
from graphmem.store.lucene import MAX_QUERY_WORDS as MAX_QUERY_WORDS
from graphmem.store.lucene import lucene_escape as lucene_escape
from graphmem.store.lucene import lucene_query as lucene_query
from graphmem.store.lucene import ns_key as ns_key
from graphmem.store.records import ACCESS_FIELDS, AccessUpdate, EntityHit, ScoredId, WriteBatch

# Memory fields stored as node properties of the same name.
MEMORY_PROPERTIES: tuple[str, ...] = (
    "type",
    "type_uncertain",
    "content",
    "subject",
    "predicate",
    "object",
    "source_level",
    "source_strength",
    "hearsay",
    "extractor",
    "extractor_confidence",
    "type_prior",
    "n",
    "grounding",
    "confidence",
    "access_count",
    "last_accessed_at",
    "accessed_sessions",
    "stability",
    "salience",
    "retrievable",
    "tier",
    "created_at",
    "last_observed_at",
    "event_time",
    "valid_until",
    "superseded_by",
    "content_hash",
    "key",
)
# The DATETIME ones among them (read back as text, see :func:`instant`).
_MEMORY_TIMES = ("last_accessed_at", "created_at", "last_observed_at", "event_time", "valid_until")
RELATION_PROPERTIES: tuple[str, ...] = (
    "predicate",
    "confidence",
    "memory_id",
    "valid_from",
    "valid_until",
    "lemma",
)
NO_TURN = ""  # Turn id of a session's observations that carry no turn id


# -- validation ----------------------------------------------------------------
def vector(value: Any, dim: int, field: str) -> list[float]:
    """``value`` as a finite float32 vector of length ``dim`` (as Python floats)."""
    values: list[float] = check_vector(value, dim, field).tolist()  # ~20x faster than float(x)
    return values


# -- rows for the write statements ----------------------------------------------
def wire(value: datetime | None) -> datetime | None:
    """``value`` with a fixed-offset ``datetime.timezone`` (same instant, same offset).

    Only such datetimes cross the driver boundary: the ``neo4j`` driver (6.4) packs an
    aware datetime by calling ``tzinfo.utcoffset`` with its own ``neo4j.time.DateTime``,
    which ``zoneinfo.ZoneInfo``'s C implementation does not type-check, and the process
    intermittently crashes (segmentation fault). A fixed offset raises ``TypeError``
    there instead, which the driver handles. Equality is unaffected; the zone name is
    not kept (as in the embedded store's JSON).
    """
    if value is None:
        return None
    offset = value.utcoffset()
    if offset is None:
        raise InvalidInputError("must be timezone-aware", field="datetime")
    return value.astimezone(UTC if not offset else timezone(offset))


def _wired(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: wire(v) if isinstance(v, datetime) else v for k, v in values.items()}


def latest_by_id(memories: Iterable[Memory]) -> list[Memory]:
    """One memory per id, the last given (a batch that repeats an id upserts it twice)."""
    return list({m.id: m for m in memories}.values())


def memory_row(memory: Memory, dim: int, *, keep_access: bool = False) -> dict[str, Any]:
    """Parameters of one row of ``write/upsert_memories``; with ``keep_access`` the stored
    access bookkeeping (:data:`~graphmem.store.base.ACCESS_FIELDS`) is left as it is."""
    props: dict[str, Any] = {
        name: getattr(memory, name) for name in MEMORY_PROPERTIES if name not in ACCESS_FIELDS
    }
    access: dict[str, Any] = {name: getattr(memory, name) for name in ACCESS_FIELDS}
    access["accessed_sessions"] = list(memory.accessed_sessions)
    props["observations_json"] = json.dumps(
        [o.model_dump(mode="json") for o in memory.observations], separators=(",", ":")
    )
    # In UTC: Neo4j orders DATETIMEs of one instant in different zones by their offset,
    # so only values in one zone compare as instants (the window bounds are UTC too).
    props["time_anchor"] = memory.time_anchor.astimezone(UTC)
    props["ns_key"] = ns_key(memory.namespace)
    # the field of the memory_content fulltext index the BM25 retriever searches
    props["search_text"] = memory.key if memory.key is not None else memory.content
    embedding = None if memory.embedding is None else vector(memory.embedding, dim, "embedding")
    if embedding is None:
        props["embedding"] = None  # removes a stored one
    props["embedding_nonzero"] = embedding is not None and any(embedding)
    return {
        "id": memory.id,
        "props": _wired(props),
        "access": None if keep_access else _wired(access),
        "embedding": embedding,
    }


def mention_rows(memories: Iterable[Memory]) -> list[dict[str, Any]]:
    """Rows of ``write/add_mentions``: one per mention, ``ord`` keeps their order."""
    return [
        {"memory_id": m.id, "entity_id": x.entity_id, "role": x.role, "ord": i}
        for m in memories
        for i, x in enumerate(m.mentions)
    ]


def observation_rows(memories: Iterable[Memory]) -> list[dict[str, Any]]:
    """Rows of ``write/add_observations``: one per (memory, session, turn), earliest time."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for memory in memories:
        for obs in memory.observations:
            key = (memory.id, obs.session_id, obs.turn_id or NO_TURN)
            row = rows.get(key)
            if row is None or obs.observed_at < row["observed_at"]:
                rows[key] = {
                    "memory_id": key[0],
                    "session_id": key[1],
                    "turn_id": key[2],
                    "observed_at": wire(obs.observed_at),
                }
    return list(rows.values())


def entity_row(entity: Entity) -> dict[str, Any]:
    """One row of ``write/upsert_entities``."""
    return {
        "id": entity.id,
        "name": entity.name,
        "kind": entity.kind,
        "aliases": list(entity.aliases),
    }


def relation_row(relation: Relation) -> dict[str, Any]:
    """One row of ``write/upsert_relations``."""
    return {
        "id": relation.id,
        "source_id": relation.source_id,
        "target_id": relation.target_id,
        "props": _wired({name: getattr(relation, name) for name in RELATION_PROPERTIES}),
    }


def ended_relation_rows(memories: Sequence[Memory]) -> list[dict[str, Any]]:
    """Rows of ``write/end_memory_relations``: each superseded memory of a batch ends
    the relations it asserted at its ``valid_until`` (docs/spec.md §9.9)."""
    return [
        {"memory_id": m.id, "valid_until": wire(m.valid_until or m.last_observed_at)}
        for m in memories
        if m.superseded_by is not None
    ]


def access_row(update: AccessUpdate) -> dict[str, Any]:
    """One row of ``write/record_access``."""
    return {
        "memory_id": update.memory_id,
        "accessed_at": wire(update.accessed_at),
        "stability": update.stability,
        "salience": update.salience,
        "session_id": update.session_id,
        "reactivate": update.reactivate,
    }


class StatementRunner(Protocol):
    """Runs a named ``cypher/`` statement in the current transaction; rows as dicts."""

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]: ...


def apply_batch(tx: StatementRunner, namespace: str, batch: WriteBatch, dim: int) -> None:
    """The statements of one :meth:`~graphmem.store.neo4j.Neo4jStore.write`, in order.

    The claim (lock and version every memory written or deleted; compare with
    ``batch.expected_versions``, raising
    :class:`~graphmem.errors.WriteConflictError` — the caller's transaction then
    rolls back — on a difference); entities; memories
    (properties, then their mentions and observations replaced); relations; the
    relations of superseded memories ended (docs/spec.md §9.9); deletions (memories with their links
    and the relations they are the source of); the turns and sessions left without memories; finally
    the entities of ``batch.prune_entity_ids`` nothing mentions or relates any more.
    """
    ns = namespace
    memories = latest_by_id(batch.memories)
    deleted = list(dict.fromkeys(batch.deleted_memory_ids))
    sessions: set[str] = set()
    stored: set[str] = set()
    claim = sorted({m.id for m in memories} | set(deleted))
    if claim:
        rows = tx.run("write/claim_memories", {"namespace": ns, "ids": claim})[0]["claimed"]
        before = {row["id"]: int(row["version"]) for row in rows}
        check_versions(batch.expected_versions, before, query="write/claim_memories")
        stored = {row["id"] for row in rows if row["stored"]}
    if batch.entities:
        rows = [entity_row(e) for e in batch.entities]
        tx.run("write/upsert_entities", {"namespace": ns, "rows": rows})
    if memories:
        checked = batch.expected_versions
        rows = [
            memory_row(m, dim, keep_access=m.id in checked and m.id in stored) for m in memories
        ]
        tx.run("write/upsert_memories", {"namespace": ns, "rows": rows})
        ids = [m.id for m in memories]
        cleared = tx.run("write/clear_memory_links", {"namespace": ns, "ids": ids})
        sessions.update(cleared[0]["session_ids"])
        if mentions := mention_rows(memories):
            tx.run("write/add_mentions", {"namespace": ns, "rows": mentions})
        if observations := observation_rows(memories):
            tx.run("write/add_observations", {"namespace": ns, "rows": observations})
    if batch.relations:
        rows = [relation_row(r) for r in batch.relations]
        tx.run("write/upsert_relations", {"namespace": ns, "rows": rows})
    if ended := ended_relation_rows(memories):
        tx.run("write/end_memory_relations", {"namespace": ns, "rows": ended})
    if deleted:
        tx.run("write/delete_memory_relations", {"namespace": ns, "ids": deleted})
        gone = tx.run("write/delete_memories", {"namespace": ns, "ids": deleted})
        sessions.update(gone[0]["session_ids"])
    if sessions:
        tx.run("write/prune_provenance", {"namespace": ns, "session_ids": sorted(sessions)})
    if batch.prune_entity_ids:
        ids = sorted(set(batch.prune_entity_ids))
        tx.run("write/prune_entities", {"namespace": ns, "ids": ids})


# -- models from records ---------------------------------------------------------
def native(value: Any) -> Any:
    """Driver temporal values (``neo4j.time.DateTime``) as ``datetime``; others unchanged."""
    to_native = getattr(value, "to_native", None)
    return value if to_native is None else to_native()


def instant(value: Any) -> datetime | None:
    """A DATETIME read as ``toString(...)`` (ISO 8601, maybe ``[zone]``-suffixed) as an
    aware ``datetime``; a driver ``DateTime`` or ``None`` as :func:`native` does.

    The read statements project times as text: the driver hydrates a ``DateTime``
    ~100x slower than :meth:`datetime.fromisoformat` parses one (~0.2 ms each, 750 of
    them per recall). Digits past microseconds are dropped, as ``to_native`` drops them.

    Examples
    --------
    >>> instant("2024-05-08T12:00:00.123456789+02:00[Europe/Paris]").isoformat()
    '2024-05-08T12:00:00.123456+02:00'
    """
    if isinstance(value, str):
        return datetime.fromisoformat(value.split("[", 1)[0])
    result: datetime | None = native(value)
    return result


def memory_from_record(record: Mapping[str, Any], namespace: str) -> Memory:
    """The :class:`Memory` of a ``memory`` map projected by a ``read/*`` statement."""
    data: dict[str, Any] = {name: record[name] for name in MEMORY_PROPERTIES}
    for name in _MEMORY_TIMES:
        data[name] = instant(data[name])
    data["id"] = record["id"]
    data["namespace"] = namespace
    data["version"] = int(record["version"] or 0)
    data["accessed_sessions"] = tuple(record["accessed_sessions"] or ())
    data["observations"] = tuple(
        Observation.model_validate(o) for o in json.loads(record["observations_json"] or "[]")
    )
    data["mentions"] = tuple(Mention.model_validate(x) for x in record["mentions"])
    # the stored vector comes back as a list of floats: pydantic validates a tuple of 384
    # floats in ~4 µs, where converting each value in Python (float(...)) cost ~40 µs, more
    # than the rest of the memory (a recall over a transcript reads ~250 at a time)
    embedding = record["embedding"]
    data["embedding"] = None if embedding is None else tuple(embedding)
    return Memory.model_validate(data)


def entity_from_record(record: Mapping[str, Any], namespace: str) -> Entity:
    """The :class:`Entity` of a ``read/list_entities`` row."""
    return Entity(
        id=record["id"],
        namespace=namespace,
        name=record["name"],
        kind=record["kind"] or "Thing",
        aliases=tuple(record["aliases"] or ()),
    )


def relation_from_record(record: Mapping[str, Any], namespace: str) -> Relation:
    """The :class:`Relation` of a ``read/relation_subgraph`` row."""
    return Relation(
        id=record["id"],
        namespace=namespace,
        source_id=record["source_id"],
        target_id=record["target_id"],
        predicate=record["predicate"],
        confidence=record["confidence"],
        memory_id=record["memory_id"],
        valid_from=instant(record["valid_from"]),
        valid_until=instant(record["valid_until"]),
        lemma=record.get("lemma"),
    )


# -- rows of the read statements ------------------------------------------------
def collected(rows: Sequence[Mapping[str, Any]], key: str) -> list[Any]:
    """The list a one-row statement collected under ``key`` (read statements return their
    results as one collected row: the driver's cost is per row, not per value)."""
    return list(rows[0][key]) if rows else []


def scored(rows: Sequence[Mapping[str, Any]]) -> list[ScoredId]:
    """``(memory_id, score)`` rows as :class:`ScoredId`."""
    return [ScoredId(row["memory_id"], float(row["score"])) for row in rows]


def entity_hit(row: Mapping[str, Any]) -> EntityHit:
    """An ``entity_search`` hit row as :class:`EntityHit`."""
    return EntityHit(
        memory_id=row["memory_id"],
        entity_ids=tuple(row["entity_ids"]),
        roles=tuple(row["roles"]),
        similarity=float(row["similarity"]),
    )
