"""Export a namespace as JSON lines, and import it again (into any store).

The format (``graphmem export``), one JSON object per line:

1. a header ``{"graphmem_export": 1, "namespace", "store", "embedding_model",
   "embedding_dim", "exported_at", "counts"}`` (``counts``: the namespace's
   :meth:`~graphmem.GraphMem.stats` at export);
2. ``{"record": "entity", ...}`` for every entity (:class:`~graphmem.Entity` fields);
3. ``{"record": "memory", ...}`` for every memory, current or superseded, hot or cold:
   every :class:`~graphmem.Memory` field (confidence, observations = provenance,
   access statistics, supersession, mentions, the embedding) except ``namespace``
   and the store-managed ``version``;
4. ``{"record": "relation", ...}`` for every current relation, then
   ``{"record": "association", "source_id", "target_id", "similarity"}`` for every
   association link (docs/spec.md §4).

Ids are kept, so supersession chains, mentions and relations stay linked in the
new namespace. :func:`import_namespace` validates the whole file before writing,
refuses a namespace that already holds data, and re-embeds the memories when the
file's embedding model or dimension differs from the importing store's. Relations
that are no longer current (``valid_until`` set) are not exported: the stores
expose current relations only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from graphmem.errors import InvalidInputError
from graphmem.jsonlines import json_object
from graphmem.memory import GraphMem, validate_namespace
from graphmem.models import Entity, Memory, Relation
from graphmem.store.base import WriteBatch, association, memory_pages

FORMAT_VERSION = 1
_PAGE = 500


class ImportReport(BaseModel):
    """What :func:`import_namespace` wrote."""

    model_config = ConfigDict(frozen=True)

    namespace: str
    source_namespace: str
    memories: int
    entities: int
    relations: int
    associations: int
    reembedded: bool
    counts: dict[str, int]


def export_namespace(memory: GraphMem, namespace: str) -> Iterator[dict[str, Any]]:
    """The records of ``namespace`` in export order (see the module docstring).

    Reads page by page (``scan_memories``), so a large namespace streams.
    """
    validate_namespace(namespace)
    memory.open()
    store = memory.store
    yield {
        "graphmem_export": FORMAT_VERSION,
        "namespace": namespace,
        "store": store.name,
        "embedding_model": memory.embedder.name,
        "embedding_dim": memory.embedder.dim,
        "exported_at": datetime.now(UTC).isoformat(),
        "counts": memory.stats(namespace),
    }
    entities = sorted(store.list_entities(namespace), key=lambda e: e.id)
    for entity in entities:
        yield {"record": "entity", **entity.model_dump(mode="json", exclude={"namespace"})}
    ids: list[str] = []
    for page in memory_pages(store, namespace, _PAGE, with_embeddings=True):
        for item in page:
            ids.append(item.id)
            yield {
                "record": "memory",
                **item.model_dump(mode="json", exclude={"namespace", "version"}),
            }
    relations = store.relation_subgraph(namespace, [e.id for e in entities], 1)
    for relation in sorted(relations, key=lambda r: r.id):
        yield {"record": "relation", **relation.model_dump(mode="json", exclude={"namespace"})}
    for start in range(0, len(ids), _PAGE):
        for link in store.associations(namespace, ids[start : start + _PAGE]):
            yield {
                "record": "association",
                "source_id": link.source_id,
                "target_id": link.target_id,
                "similarity": link.similarity,
            }


class _Parsed:
    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.entities: list[dict[str, Any]] = []
        self.memories: list[dict[str, Any]] = []
        self.relations: list[dict[str, Any]] = []
        self.associations: list[tuple[str, str, float]] = []


def _parse(lines: Iterable[str]) -> _Parsed:
    parsed = _Parsed()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = json_object(line, number)
        if not parsed.header:
            if record.get("graphmem_export") != FORMAT_VERSION:
                raise InvalidInputError(
                    f"not a graphmem export (version {FORMAT_VERSION} header expected)",
                    field=f"line {number}",
                )
            parsed.header = record
            continue
        kind = record.pop("record", None)
        if kind == "entity":
            parsed.entities.append(record)
        elif kind == "memory":
            parsed.memories.append(record)
        elif kind == "relation":
            parsed.relations.append(record)
        elif kind == "association":
            try:
                parsed.associations.append(
                    (
                        str(record["source_id"]),
                        str(record["target_id"]),
                        float(record["similarity"]),
                    )
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise InvalidInputError(
                    f"association needs source_id, target_id, similarity ({exc})",
                    field=f"line {number}",
                ) from exc
        else:
            raise InvalidInputError(f"unknown record kind {kind!r}", field=f"line {number}.record")
    if not parsed.header:
        raise InvalidInputError("the file is empty", field="line 1")
    return parsed


def _validated(
    parsed: _Parsed, namespace: str
) -> tuple[list[Entity], list[Memory], list[Relation]]:
    try:
        entities = [Entity.model_validate({**e, "namespace": namespace}) for e in parsed.entities]
        memories = [Memory.model_validate({**m, "namespace": namespace}) for m in parsed.memories]
        relations = [
            Relation.model_validate({**r, "namespace": namespace}) for r in parsed.relations
        ]
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidInputError(first["msg"], field=f"{exc.title}.{where}") from exc
    return entities, memories, relations


def import_namespace(
    memory: GraphMem, lines: Iterable[str], namespace: str | None = None
) -> ImportReport:
    """Import an export (its lines) into ``namespace`` (default: the exported one).

    The whole file is parsed and validated first; nothing is written when any
    record is bad. Entities, then memories (in pages), then relations and
    associations are written; when a write fails part-way, the namespace is
    deleted again, so a retry starts clean.

    Raises
    ------
    InvalidInputError
        A bad line (``field`` names it), or a target namespace that holds data.
    """
    parsed = _parse(lines)
    source = str(parsed.header.get("namespace", ""))
    target = validate_namespace(namespace or source)
    entities, memories, relations = _validated(parsed, target)
    memory.open()
    store = memory.store
    if store.count_memories(target) or store.list_entities(target):
        raise InvalidInputError(
            f"namespace {target!r} already holds data; import into a new namespace"
            " (or graphmem delete-namespace it first)",
            field="namespace",
        )
    reembed = (
        parsed.header.get("embedding_model") != memory.embedder.name
        or parsed.header.get("embedding_dim") != memory.embedder.dim
        or any(m.embedding is None for m in memories)
    )
    try:
        store.write(target, WriteBatch(entities=entities))
        for start in range(0, len(memories), _PAGE):
            page = memories[start : start + _PAGE]
            if reembed:
                vectors = memory.embedder.embed([m.content for m in page])
                page = [
                    m.model_copy(update={"embedding": tuple(float(x) for x in vector)})
                    for m, vector in zip(page, vectors, strict=True)
                ]
            store.write(target, WriteBatch(memories=page))
        if relations:
            store.write(target, WriteBatch(relations=relations))
        links = [association(a, b, s) for a, b, s in parsed.associations]
        if links:
            store.add_associations(target, links)
    except BaseException:
        memory.delete_namespace(target)
        raise
    return ImportReport(
        namespace=target,
        source_namespace=source,
        memories=len(memories),
        entities=len(entities),
        relations=len(relations),
        associations=len(parsed.associations),
        reembedded=reembed,
        counts=memory.stats(target),
    )
