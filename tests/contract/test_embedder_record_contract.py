"""Which embedder wrote a namespace's vectors (issue 17), on both stores.

The store records ``(model, dim)`` per namespace; a facade whose embedder differs
refuses the namespace with an error naming both; ``reembed`` converts it, after
which the stored vectors are the new embedder's and recall works again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import EmbedderMismatchError
from graphmem.store.base import EmbedderRecord, MemoryStore, Vector
from tests.contract.builders import DIM
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder


class ShiftedEmbedder(HashEmbedder):
    """Another model: the hash embedding rolled by one dimension, under another name."""

    @property
    def name(self) -> str:
        return "shifted-test-embedder"

    def embed(self, texts: Sequence[str]) -> Vector:
        return np.roll(super().embed(texts), 1, axis=1)


def facade(store: MemoryStore, embedder: HashEmbedder) -> GraphMem:
    return GraphMem(Settings(embedding_dim=DIM), store=store, embedder=embedder)


FACTS = [
    {"content": "Alice prefers green tea", "type": "Preference"},
    {"content": "Bob moved to Lisbon in 2021", "type": "Event"},
    {"content": "Carol plays the cello", "type": "Fact"},
]


def test_records_are_per_namespace_replaced_and_removed(
    store: MemoryStore, new_namespace: object
) -> None:
    make = new_namespace
    a, b = make(), make()  # type: ignore[operator]
    store.set_embedder_record(a, EmbedderRecord("model-a", DIM))
    store.set_embedder_record(b, EmbedderRecord("model-b", DIM))
    store.set_embedder_record(a, EmbedderRecord("model-c", DIM))
    records = store.embedder_records()
    assert records[a] == EmbedderRecord("model-c", DIM)
    assert records[b] == EmbedderRecord("model-b", DIM)
    store.set_embedder_record(b, None)
    assert b not in store.embedder_records()
    store.delete_namespace(a)  # deleting a namespace forgets its record
    assert a not in store.embedder_records()


def test_the_first_write_records_the_embedder(
    store_factory: StoreFactory, store: MemoryStore, ns: str
) -> None:
    with facade(store_factory(), HashEmbedder(DIM)) as memory:
        memory.remember(ns, FACTS)
    assert store.embedder_records()[ns] == EmbedderRecord("hash-test-embedder", DIM)


def test_another_embedder_is_refused_naming_both_and_reembed_converts(
    store_factory: StoreFactory, store: MemoryStore, ns: str, new_namespace: object
) -> None:
    untouched = new_namespace()  # type: ignore[operator]
    with facade(store_factory(), HashEmbedder(DIM)) as memory:
        memory.remember(ns, FACTS)
        memory.remember(untouched, FACTS[:1])
    with facade(store_factory(), ShiftedEmbedder(DIM)) as other:
        for call in (
            lambda: other.recall(ns, "what does Alice drink?"),
            lambda: other.remember(ns, [{"content": "Dan sings", "type": "Fact"}]),
            lambda: other.consolidate(ns),
        ):
            with pytest.raises(EmbedderMismatchError) as caught:
                call()
            message = str(caught.value)
            assert "'hash-test-embedder'" in message and "'shifted-test-embedder'" in message
            assert f"graphmem reembed -n {ns}" in message
        assert store.count_memories(ns) == len(FACTS)  # the refused write wrote nothing

        report = other.reembed(ns, batch_size=2)
        assert report.memories == len(FACTS)
        assert report.before == f"'hash-test-embedder' ({DIM}-d)"
        assert report.after == f"'shifted-test-embedder' ({DIM}-d)"
        hits = other.recall(ns, "what does Alice drink?").hits
        assert hits and hits[0].memory.content == "Alice prefers green tea"
        with pytest.raises(EmbedderMismatchError):  # the other namespace is not converted
            other.recall(untouched, "tea")
    stored = {m.content: m for m in store.scan_memories(ns, None, 10, with_embeddings=True)}
    for content, m in stored.items():
        assert m.embedding is not None
        expected = ShiftedEmbedder(DIM).embed([content])[0]
        np.testing.assert_allclose(np.asarray(m.embedding), expected, atol=1e-6)
    assert store.embedder_records()[ns] == EmbedderRecord("shifted-test-embedder", DIM)
    with facade(store_factory(), HashEmbedder(DIM)) as memory, pytest.raises(EmbedderMismatchError):
        memory.recall(ns, "tea")


def test_reembed_keeps_everything_but_the_vectors(
    store_factory: StoreFactory, store: MemoryStore, ns: str
) -> None:
    with facade(store_factory(), HashEmbedder(DIM)) as memory:
        memory.remember(ns, FACTS)
    before = {m.id: m for m in store.scan_memories(ns, None, 10)}
    with facade(store_factory(), ShiftedEmbedder(DIM)) as other:
        other.reembed(ns)
    after = {m.id: m for m in store.scan_memories(ns, None, 10)}
    assert after.keys() == before.keys()
    for ident, old in before.items():
        new = after[ident]
        assert new.version == old.version + 1
        assert new.model_dump(exclude={"version"}) == old.model_dump(exclude={"version"})
