"""The namespace's user (docs/spec.md §9.14; docs/updates.md): the person a namespace is about.

First-person statements and questions ("I live in Graz", "Where do I live?", "my
dog") and Mem0-style "User …" notes bind to one entity of the namespace: the one
named or aliased ``"User"``. :meth:`Users.set_user` names it; without a name,
the first first-person statement creates an implicit entity called "User", which
``set_user`` later renames (same id, so every memory that mentions it follows).
"""

from __future__ import annotations

from graphmem.errors import InvalidInputError
from graphmem.facade.base import validate_namespace
from graphmem.facade.reads import Reads
from graphmem.language.voice import USER_ALIAS
from graphmem.models import Entity
from graphmem.store.base import WriteBatch
from graphmem.text import entity_id, normalize

_MAX_NAME = 512


class Users(Reads):
    """:class:`graphmem.GraphMem`'s namespace-user calls."""

    def user(self, namespace: str) -> Entity | None:
        """The namespace's user entity, or ``None`` when it has none yet."""
        validate_namespace(namespace)
        self._use()
        return self._dictionary(namespace).user()

    def set_user(self, namespace: str, name: str) -> Entity:
        """Name the person ``namespace`` is about (idempotent).

        Parameters
        ----------
        namespace : str
        name : str
            The user's name as people write it ("Jonas Weber"), 1–512 characters.

        Returns
        -------
        Entity
            The user entity (kind Person, alias "User"): an existing entity of that
            name gains the alias; an implicit "User" entity is renamed; else a new one.

        Raises
        ------
        InvalidInputError
            For a blank or over-long name (``field="name"``).
        """
        validate_namespace(namespace)
        clean = " ".join(name.split())
        if not clean or len(clean) > _MAX_NAME:
            raise InvalidInputError(
                f"the user's name must be 1-{_MAX_NAME} characters", field="name"
            )
        self._use()
        with self._namespace_lock(namespace):
            known = self._dictionary(namespace)
            current = known.user()
            if current is not None and normalize(current.name) == normalize(clean):
                return current
            entity = self._user_entity(namespace, clean, current)
            self.store.write(namespace, WriteBatch(entities=[entity]))
            self._invalidate(namespace)
            return entity

    def _user_entity(self, namespace: str, name: str, current: Entity | None) -> Entity:
        known = self._dictionary(namespace)
        if current is not None and normalize(current.name) == normalize(USER_ALIAS):
            # the implicit user gets its name; memories mentioning it follow (same id)
            return current.model_copy(
                update={"name": name, "kind": "Person", "aliases": _with_alias(current.aliases)}
            )
        hit = known.resolve(name)
        existing = known.get(hit[0]) if hit is not None else None
        if existing is not None:
            return existing.model_copy(update={"aliases": _with_alias(existing.aliases)})
        return Entity(
            id=entity_id(name), namespace=namespace, name=name, kind="Person",
            aliases=(USER_ALIAS,),
        )  # fmt: skip


def _with_alias(aliases: tuple[str, ...]) -> tuple[str, ...]:
    if any(normalize(a) == normalize(USER_ALIAS) for a in aliases):
        return aliases
    return (*aliases, USER_ALIAS)
