"""The retriever protocol and the context every retriever receives (docs/spec.md §3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from graphmem.entities import EntityDictionary, EntityLink
from graphmem.language.timeparse import TimeWindow
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, Vector


@dataclass(frozen=True, slots=True)
class RetrievalContext:
    """Everything a retriever may use; built once per recall.

    ``embedding`` is the query's unit vector, shape (dim,). ``links`` are the
    query's linked entities; ``window`` its parsed time window; ``dictionary``
    the namespace's entities, when the caller has it.
    """

    namespace: str
    text: str
    embedding: Vector
    links: tuple[EntityLink, ...]
    window: TimeWindow | None
    k: int
    include_history: bool
    settings: Settings
    #: the namespace's entity names (for explanations: the graph retriever's path)
    dictionary: EntityDictionary | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """One retriever result: memory id, raw score (higher is better), detail.

    ``associative`` marks memories reached only through links (graph
    traversal), which get the smaller stability boost (docs/spec.md §4).
    """

    memory_id: str
    score: float
    detail: str | None = None
    associative: bool = False


class Retriever(Protocol):
    """One ranked list of up to ``ctx.k`` memory ids, from one store call."""

    name: str

    def retrieve(self, store: MemoryStore, ctx: RetrievalContext) -> list[Hit]:
        """Ranked hits, best first, ties by memory id."""
