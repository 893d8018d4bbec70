"""The pool sizes that were module constants are settings now (docs/configuration.md):
setting one changes what the code asks the store for."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphmem import Settings
from graphmem.entities import EntityLink
from graphmem.retrieval.retrievers.base import RetrievalContext
from graphmem.retrieval.retrievers.entity import EntityRetriever


class _AskedStore:
    def __init__(self) -> None:
        self.asked: list[int] = []

    def entity_search(self, namespace: str, ids: list[str], k: int, **_: Any) -> list[Any]:
        self.asked.append(k)
        return []


def _context(settings: Settings) -> RetrievalContext:
    return RetrievalContext(
        namespace="n",
        text="Where does Ada work?",
        embedding=np.asarray([1.0, 0.0], dtype=np.float32),
        links=(EntityLink("ada", "Ada", 1.0),),
        window=None,
        k=10,
        include_history=False,
        settings=settings,
    )


def test_the_entity_retrievers_pool_is_k_times_the_setting() -> None:
    store = _AskedStore()
    EntityRetriever().retrieve(store, _context(Settings(neo4j_uri=None)))  # type: ignore[arg-type]
    EntityRetriever().retrieve(
        store,  # type: ignore[arg-type]
        _context(Settings(neo4j_uri=None, entity_pool_factor=2)),
    )
    assert store.asked == [40, 20]


def test_the_write_pools_are_settings_with_their_former_values() -> None:
    write = Settings(neo4j_uri=None).write
    assert (write.dedup_neighbours, write.attribute_neighbours, write.max_co_occurring) == (4, 50, 6)
    assert Settings(neo4j_uri=None, max_co_occurring=3).write.max_co_occurring == 3
