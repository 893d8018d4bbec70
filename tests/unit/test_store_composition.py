"""How a store is put together (graphmem.store._composed): each protocol method is
answered by the store's role object, typed and documented by the protocol."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.store.base import StoreLookups, StoreRetrievers
from graphmem.store.embedded import EmbeddedStore
from graphmem.store.neo4j import Neo4jStore


def test_a_store_method_is_its_role_objects(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path, dim=4, bm25_k1=1.2, bm25_b=0.75)
    assert store.count_memories.__self__ is store._lookups  # type: ignore[attr-defined]
    assert store.vector_search.__self__ is store._retrievers  # type: ignore[attr-defined]
    # documented once, by the protocol: the class attribute carries its docstring
    assert EmbeddedStore.count_memories.__doc__ == StoreLookups.count_memories.__doc__
    assert Neo4jStore.term_stats.__doc__ == StoreRetrievers.term_stats.__doc__


def test_a_delegate_under_another_name_is_refused() -> None:
    from graphmem.store._composed import Delegated

    delegate = Delegated("_lookups", StoreLookups.count_memories)
    with pytest.raises(
        TypeError, match=r"Wrong\.stats delegates to another method, count_memories"
    ):
        delegate.__set_name__(type("Wrong", (), {}), "stats")  # what `stats = delegate` calls
    delegate.__set_name__(type("Right", (), {}), "count_memories")


def test_both_stores_are_context_managers(tmp_path: Path) -> None:
    with EmbeddedStore(tmp_path, dim=4, bm25_k1=1.2, bm25_b=0.75) as store:
        assert store.count_memories("ns") == 0
        assert store.server_info().backend == "embedded"
    assert Neo4jStore.__enter__ is EmbeddedStore.__enter__  # one implementation
