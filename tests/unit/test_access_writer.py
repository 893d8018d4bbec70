"""The access writer: recalls' access updates written off the recall path, several at a
time, with counts exact after flush and cold reactivation as if each recall were written
on its own (SPEC §4, seed 003). On a real embedded store."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest

from graphmem.errors import StoreError
from graphmem.retrieval.access import AccessWriter, reactivate_associated
from graphmem.settings import Settings
from graphmem.store.base import AccessUpdate, MemoryStore, WriteBatch, association
from graphmem.store.embedded import EmbeddedStore
from tests.contract.builders import DIM, T0, make_memory

NS = "ns"


class Spy:
    """The store, with its record_access calls counted (and failing on demand)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.record_calls: list[int] = []
        self.fail = False

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        if self.fail:
            raise StoreError("the server went away", query="record_access")
        self.record_calls.append(len(updates))
        self.store.record_access(namespace, updates)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    with EmbeddedStore(tmp_path / "store", dim=DIM, bm25_k1=1.2, bm25_b=0.75) as opened:
        yield opened


def update(memory_id: str, minutes: int = 0, *, reactivate: bool = False) -> AccessUpdate:
    return AccessUpdate(
        memory_id=memory_id,
        accessed_at=T0 + timedelta(days=1, minutes=minutes),
        stability=0.5 + minutes / 100,
        salience=0.6,
        session_id=f"s{minutes}",
        reactivate=reactivate,
    )


def submit(writer: AccessWriter, *updates: AccessUpdate) -> None:
    writer.submit(NS, updates, updates[0].accessed_at, updates[0].session_id)


def test_queued_recalls_are_written_in_one_transaction_and_counted_exactly(
    store: MemoryStore,
) -> None:
    a, b = make_memory(NS, "Nia lives in Oslo"), make_memory(NS, "Nia plays tennis")
    store.write(NS, WriteBatch(memories=[a, b]))
    spy = Spy(store)
    # a long window: the three recalls wait for each other, then go in one write
    writer = AccessWriter(cast(MemoryStore, spy), Settings(access_write_window_ms=10_000))
    submit(writer, update(a.id, 1), update(b.id, 1))
    submit(writer, update(a.id, 2))
    submit(writer, update(a.id, 3))
    writer.flush()
    assert spy.record_calls == [4]
    got = {m.id: m for m in store.get_memories(NS, [a.id, b.id])}
    assert (got[a.id].access_count, got[b.id].access_count) == (3, 1)
    # applied in recall order: the last update of a is the one that stays
    assert got[a.id].stability == pytest.approx(0.53)
    assert got[a.id].accessed_sessions == ("s1", "s2", "s3")
    writer.close()


def test_a_cold_associated_memory_is_reactivated_as_if_each_recall_were_alone(
    store: MemoryStore, tmp_path: Path
) -> None:
    def build(target: MemoryStore) -> list[str]:
        a, b = make_memory(NS, "Nia lives in Oslo"), make_memory(NS, "Nia plays tennis")
        cold = make_memory(NS, "Nia once lived in Bergen", tier="cold", stability=0.2)
        target.write(NS, WriteBatch(memories=[a, b, cold]))
        target.add_associations(NS, [association(a.id, cold.id, 0.9)])
        return [a.id, b.id, cold.id]

    a, b, cold = build(store)
    writer = AccessWriter(store, Settings(access_write_window_ms=10_000))
    submit(writer, update(b, 1))
    submit(writer, update(a, 2))
    writer.close()

    # the same recalls written one by one, each followed by its reactivation
    with EmbeddedStore(tmp_path / "alone", dim=DIM, bm25_k1=1.2, bm25_b=0.75) as alone:
        build(alone)
        for u in (update(b, 1), update(a, 2)):
            alone.record_access(NS, [u])
            reactivate_associated(alone, Settings(), NS, [u.memory_id], u.accessed_at, u.session_id)
        expected = alone.get_memories(NS, [a, b, cold])
    got = store.get_memories(NS, [a, b, cold])
    assert got[2].tier == "hot" and got[2].retrievable and got[2].access_count == 1
    assert got == expected


def test_flush_raises_a_failed_write_once_and_the_writer_goes_on(store: MemoryStore) -> None:
    a = make_memory(NS, "Nia lives in Oslo")
    store.write(NS, WriteBatch(memories=[a]))
    spy = Spy(store)
    writer = AccessWriter(cast(MemoryStore, spy), Settings())
    spy.fail = True
    submit(writer, update(a.id, 1))
    with pytest.raises(StoreError, match="went away"):
        writer.flush()
    writer.flush()  # reported once
    spy.fail = False
    submit(writer, update(a.id, 2))
    writer.close()
    assert store.get_memories(NS, [a.id])[0].access_count == 1
    submit(writer, update(a.id, 3))  # a closed writer starts again
    writer.close()
    assert store.get_memories(NS, [a.id])[0].access_count == 2


def test_wait_written_returns_after_a_slow_write_and_keeps_its_error(store: MemoryStore) -> None:
    """A recall waits for the earlier recalls' updates (window 0) before it ranks: with
    a writer thread that is slow to run, it read the store without them (a flaky
    contract test, test_use_does_not_reorder_recall)."""
    a = make_memory(NS, "Nia lives in Oslo")
    store.write(NS, WriteBatch(memories=[a]))
    gate = threading.Event()

    class Slow(Spy):
        def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
            gate.wait(10)
            super().record_access(namespace, updates)

    spy = Slow(store)
    writer = AccessWriter(cast(MemoryStore, spy), Settings())
    submit(writer, update(a.id, 1))
    threading.Timer(0.2, gate.set).start()
    writer.wait_written()
    assert store.get_memories(NS, [a.id])[0].access_count == 1
    spy.fail = True
    submit(writer, update(a.id, 2))
    writer.wait_written()  # the failed write is not this caller's to report
    with pytest.raises(StoreError, match="went away"):
        writer.flush()
    writer.close()
