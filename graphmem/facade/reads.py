"""The facade's reads: recall, get, history, entities, listing, stats (docs/spec.md §3, §5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from graphmem.about import (
    EntityReport,
    RelationView,
    about_entity,
    memory_relations,
    resolve_entity,
)
from graphmem.errors import (
    EntityNotFoundError,
    InvalidInputError,
    InvalidQueryError,
    MemoryNotFoundError,
)
from graphmem.facade.base import FacadeBase, field_error, validate_namespace
from graphmem.models import (
    Entity,
    Memory,
    RecallQuery,
    RecallResult,
)
from graphmem.store.base import (
    MemoryFilter,
)

_MIN_ID_PREFIX = 4
_AMBIGUOUS_SHOWN = 5


class Reads(FacadeBase):
    """:class:`graphmem.GraphMem`'s read calls (nothing here writes a memory)."""

    def recall(
        self, namespace: str, query: str | RecallQuery | Mapping[str, Any], **options: Any
    ) -> RecallResult:
        """Recall memories for a question (docs/spec.md §3); see :class:`RecallQuery` for options.

        Raises
        ------
        InvalidQueryError
            Empty text, k out of range, unknown option — naming the field.
        """
        validate_namespace(namespace)
        try:
            if isinstance(query, RecallQuery):
                parsed = query.model_copy(update=options) if options else query
            elif isinstance(query, str):
                parsed = RecallQuery.model_validate({"text": query, **options})
            else:
                parsed = RecallQuery.model_validate({**query, **options})
        except ValidationError as exc:
            raise InvalidQueryError(
                exc.errors()[0]["msg"], field=field_error(exc, "query")
            ) from exc
        if parsed.retrievers is not None:
            unknown = set(parsed.retrievers) - set(self.settings.read.fusion.retriever_weights)
            if unknown:
                raise InvalidQueryError(
                    f"unknown retriever(s) {sorted(unknown)}", field="query.retrievers"
                )
        self._use()
        self._check_embedder(namespace)
        return self._reader.recall(namespace, parsed)

    def get(self, namespace: str, memory_id: str, *, with_embedding: bool = False) -> Memory:
        """A memory with its provenance (observations: session, turn, time)."""
        validate_namespace(namespace)
        self._use()
        self._reader.flush()
        found = self.store.get_memories(namespace, [memory_id], with_embeddings=with_embedding)
        if not found:
            raise MemoryNotFoundError(memory_id, namespace)
        return found[0]

    def relations_of(self, namespace: str, memory_id: str) -> tuple[RelationView, ...]:
        """The current relations a memory asserts, both ends named, each with the
        wording its type was read from (``lemma``; docs/extraction.md "Vocabulary").

        Raises
        ------
        MemoryNotFoundError
            When the namespace has no memory with this id.
        """
        memory = self.get(namespace, memory_id)
        return memory_relations(self.store, namespace, memory, self._dictionary(namespace))

    def history(self, namespace: str, memory_id: str) -> list[Memory]:
        """The memory and the chain of memories that superseded it, oldest first."""
        chain = [self.get(namespace, memory_id)]
        seen = {memory_id}
        while chain[-1].superseded_by and chain[-1].superseded_by not in seen:
            seen.add(chain[-1].superseded_by)
            chain.append(self.get(namespace, chain[-1].superseded_by))
        return chain

    def about_entity(self, namespace: str, name: str, *, limit: int = 50) -> EntityReport:
        """Everything current about a named entity: the memories that mention it (most
        confident first, at most ``limit``) and its relations with the neighbours'
        names (see :mod:`graphmem.about`).

        Raises
        ------
        InvalidInputError
            Blank ``name`` or ``limit`` outside 1–1000.
        EntityNotFoundError
            When no entity of the namespace has this name or alias.
        """
        validate_namespace(namespace)
        if not isinstance(name, str) or not name.strip():
            raise InvalidInputError("must be a non-blank entity name", field="name")
        if not 1 <= limit <= 1000:
            raise InvalidInputError(f"must be in 1..1000, got {limit}", field="limit")
        self._use()
        self._reader.flush()
        known = self._dictionary(namespace)
        entity = resolve_entity(known, name)
        if entity is None:
            raise EntityNotFoundError(name, namespace)
        return about_entity(self.store, namespace, entity, known, limit=limit)

    def stats(self, namespace: str) -> dict[str, int]:
        """Counts for the namespace (memories, current, superseded, cold, entities, ...)."""
        validate_namespace(namespace)
        self._use()
        self._reader.flush()
        return self.store.stats(namespace)

    def namespaces(self) -> list[str]:
        """Namespaces with data in the store."""
        self._use()
        return self.store.namespaces()

    def entity(self, namespace: str, name: str) -> Entity:
        """The entity ``name`` (a name, alias or first name) resolves to.

        Raises
        ------
        InvalidInputError
            When no entity of the namespace has that name (field ``name``).
        """
        validate_namespace(namespace)
        self._use()
        entity = resolve_entity(self._dictionary(namespace), name) if name.strip() else None
        if entity is None:
            raise InvalidInputError(
                f"no entity named {name!r} in namespace {namespace!r}", field="name"
            )
        return entity

    def entity_memories(
        self, namespace: str, name: str, *, include_history: bool = False
    ) -> tuple[Entity, list[Memory]]:
        """An entity and every memory that mentions it, oldest first (by time anchor:
        event time, else first observation; then id). Superseded memories only with
        ``include_history``. Raises InvalidInputError for an unknown name."""
        entity = self.entity(namespace, name)
        self._reader.flush()
        limit = max(1, self.store.count_memories(namespace))
        hits = self.store.entity_search(
            namespace, [entity.id], limit, include_history=include_history
        )
        found = self.store.get_memories(namespace, [h.memory_id for h in hits])
        return entity, sorted(found, key=lambda m: (m.time_anchor, m.id))

    def list_memories(
        self,
        namespace: str,
        *,
        where: MemoryFilter | None = None,
        entity: str | None = None,
        after_id: str | None = None,
        limit: int = 100,
    ) -> list[Memory]:
        """Memories of ``namespace`` by id — current, superseded, cold and unretrievable
        alike unless ``where`` filters them — without embeddings (``graphmem list``;
        nothing is hidden from it). ``entity`` keeps those mentioning the entity with
        that name or alias; page with ``after_id`` = the last id returned.

        Raises
        ------
        InvalidInputError
            For ``limit < 1``, or an ``entity`` the namespace does not know
            (``field="entity"``).
        """
        validate_namespace(namespace)
        where = where or MemoryFilter()
        self._use()
        self._reader.flush()
        if entity is not None:
            found = self._dictionary(namespace).resolve(entity)
            if found is None:
                raise InvalidInputError(
                    f"no entity named {entity!r} in namespace {namespace!r}", field="entity"
                )
            where = replace(where, entity_ids=(*where.entity_ids, found[0]))
        return self.store.list_memories(namespace, where, after_id, limit)

    def resolve_id(self, namespace: str, memory_id: str) -> str:
        """The full id of the memory ``memory_id`` names: the id itself, or a unique
        prefix of one (the 8 characters tables show).

        Raises
        ------
        MemoryNotFoundError
            When no memory id starts with it.
        InvalidInputError
            When the prefix is shorter than 4 characters or names several memories
            (``field="memory_id"``; the message lists them).
        """
        validate_namespace(namespace)
        self._use()
        self._reader.flush()
        if self.store.get_memories(namespace, [memory_id]):
            return memory_id
        if len(memory_id) < _MIN_ID_PREFIX:
            raise InvalidInputError(
                f"{memory_id!r} is too short: give at least {_MIN_ID_PREFIX} characters of an id",
                field="memory_id",
            )
        # ids sort lexicographically: those starting with the prefix come right after it
        page = self.store.scan_memories(namespace, memory_id, _AMBIGUOUS_SHOWN + 1)
        matches = [m for m in page if m.id.startswith(memory_id)]
        if not matches:
            raise MemoryNotFoundError(memory_id, namespace)
        if len(matches) > 1:
            shown = "\n".join(f"  {m.id}  {m.content[:60]}" for m in matches[:_AMBIGUOUS_SHOWN])
            more = " (and more)" if len(matches) > _AMBIGUOUS_SHOWN else ""
            raise InvalidInputError(
                f"{memory_id!r} is the start of several memory ids{more}; give more"
                f" characters:\n{shown}",
                field="memory_id",
            )
        return matches[0].id
