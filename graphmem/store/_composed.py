"""How a store is put together: role objects behind one facade.

A backend is a small lifecycle class (:class:`ComposedStore` subclass: open, close,
health, server_info) holding one query executor (the SQLite connections, the Neo4j
statement seam) and four role objects that share it: writes, maintenance, lookups and
retrievers (the roles of :mod:`graphmem.store.base`). Each protocol method of the
store is answered by its role object through a :class:`Delegated` descriptor, written
once here for both backends; the role objects are plain classes with no base class
and no stubs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from graphmem.store.base import (
    ServerInfo,
    StoreForgetting,
    StoreHealth,
    StoreLookups,
    StoreMaintenance,
    StoreRetrievers,
    StoreWrites,
)

_S = TypeVar("_S")
_P = ParamSpec("_P")
_R = TypeVar("_R")


class Delegated(Generic[_S, _P, _R]):
    """A store method answered by a role object: ``store.name(...)`` calls
    ``store.<role>.name(...)``, typed (and documented) by the role protocol's method."""

    def __init__(self, role: str, method: Callable[Concatenate[_S, _P], _R]) -> None:
        self._role = role
        self._name = method.__name__
        self.__doc__ = method.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self._name:
            raise TypeError(f"{owner.__name__}.{name} delegates to another method, {self._name}")

    @overload
    def __get__(self, store: None, owner: type) -> Delegated[_S, _P, _R]: ...
    @overload
    def __get__(self, store: object, owner: type) -> Callable[_P, _R]: ...
    def __get__(self, store: object | None, owner: type) -> Any:
        if store is None:
            return self
        return getattr(getattr(store, self._role), self._name)


class ComposedStore(ABC):
    """The protocol methods of a store, each answered by its role object; subclasses set
    ``_writes``, ``_maintenance``, ``_lookups``, ``_retrievers`` and ``_forgetting`` and implement the
    lifecycle (``open``, ``close``, ``health``, ``server_info``). A context manager:
    ``with store:`` opens it and closes it at the end."""

    _writes: StoreWrites
    _maintenance: StoreMaintenance
    _lookups: StoreLookups
    _retrievers: StoreRetrievers
    _forgetting: StoreForgetting

    name: str

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def health(self) -> StoreHealth: ...

    @abstractmethod
    def server_info(self) -> ServerInfo: ...

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    write = Delegated("_writes", StoreWrites.write)
    record_access = Delegated("_writes", StoreWrites.record_access)
    delete_namespace = Delegated("_writes", StoreWrites.delete_namespace)

    scan_memories = Delegated("_maintenance", StoreMaintenance.scan_memories)
    list_memories = Delegated("_maintenance", StoreMaintenance.list_memories)
    set_lifecycle = Delegated("_maintenance", StoreMaintenance.set_lifecycle)
    add_associations = Delegated("_maintenance", StoreMaintenance.add_associations)
    associations = Delegated("_maintenance", StoreMaintenance.associations)
    embedder_records = Delegated("_maintenance", StoreMaintenance.embedder_records)
    set_embedder_record = Delegated("_maintenance", StoreMaintenance.set_embedder_record)

    get_memories = Delegated("_lookups", StoreLookups.get_memories)
    rank_fields = Delegated("_lookups", StoreLookups.rank_fields)
    mask_texts = Delegated("_lookups", StoreLookups.mask_texts)
    find_by_hashes = Delegated("_lookups", StoreLookups.find_by_hashes)
    find_by_subject_predicate = Delegated("_lookups", StoreLookups.find_by_subject_predicate)
    memories_in_session = Delegated("_lookups", StoreLookups.memories_in_session)
    list_entities = Delegated("_lookups", StoreLookups.list_entities)
    count_memories = Delegated("_lookups", StoreLookups.count_memories)
    stats = Delegated("_lookups", StoreLookups.stats)
    namespaces = Delegated("_lookups", StoreLookups.namespaces)

    vector_search = Delegated("_retrievers", StoreRetrievers.vector_search)
    text_search = Delegated("_retrievers", StoreRetrievers.text_search)
    entity_search = Delegated("_retrievers", StoreRetrievers.entity_search)
    time_window_search = Delegated("_retrievers", StoreRetrievers.time_window_search)
    relation_subgraph = Delegated("_retrievers", StoreRetrievers.relation_subgraph)
    term_stats = Delegated("_retrievers", StoreRetrievers.term_stats)
    memory_sessions = Delegated("_retrievers", StoreRetrievers.memory_sessions)
    memory_cosines = Delegated("_retrievers", StoreRetrievers.memory_cosines)

    supersession_links = Delegated("_forgetting", StoreForgetting.supersession_links)
    relations_of = Delegated("_forgetting", StoreForgetting.relations_of)
    forget = Delegated("_forgetting", StoreForgetting.forget)
    deletion_log = Delegated("_forgetting", StoreForgetting.deletion_log)
    forgotten = Delegated("_forgetting", StoreForgetting.forgotten)
    session_ids = Delegated("_forgetting", StoreForgetting.session_ids)
