"""What only the embedded store promises: file handling, rollback, cache invalidation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import ConfigurationError, InvalidInputError, StoreUnavailableError
from graphmem.store.base import AccessUpdate, MemoryStore, WriteBatch
from graphmem.store.embedded import EmbeddedStore
from graphmem.store.embedded import _sql as _embedded_sql
from tests.contract.builders import DIM, T0, make_entity, make_memory, make_relation, queries

NS = "unit"


def new_store(path: Path, dim: int = DIM) -> EmbeddedStore:
    return EmbeddedStore(path, dim=dim, bm25_k1=1.2, bm25_b=0.75)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EmbeddedStore]:
    opened = new_store(tmp_path / "db")
    opened.open()
    yield opened
    opened.close()


def test_constructor_does_no_io(tmp_path: Path) -> None:
    store = new_store(tmp_path / "not-yet")
    assert not (tmp_path / "not-yet").exists()
    assert isinstance(store, MemoryStore) and store.name == "embedded"
    with pytest.raises(StoreUnavailableError, match="open"):
        store.count_memories(NS)
    store.close()  # closing a never-opened store is fine


def test_open_creates_the_file_and_close_is_idempotent(tmp_path: Path) -> None:
    store = new_store(tmp_path / "a" / "b")
    store.open()
    store.open()
    assert (tmp_path / "a" / "b" / "graphmem.sqlite").is_file()
    store.close()
    store.close()
    with pytest.raises(StoreUnavailableError):
        store.write(NS, WriteBatch(memories=[make_memory(NS, "x")]))


def test_a_file_in_place_of_the_directory_is_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a directory")
    for path in (blocker, blocker / "sub"):
        with pytest.raises(StoreUnavailableError, match="GRAPHMEM_DATA_DIR"):
            new_store(path).open()


def test_a_corrupt_database_file_is_unavailable(tmp_path: Path) -> None:
    (tmp_path / "graphmem.sqlite").write_bytes(b"this is not a sqlite database" * 100)
    with pytest.raises(StoreUnavailableError, match="graphmem SQLite file"):
        new_store(tmp_path).open()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_directory_that_cannot_be_created_is_unavailable() -> None:
    # /proc refuses new entries to every user, root included (CI runs as root, which
    # a chmod would not stop)
    with pytest.raises(StoreUnavailableError, match="writable directory"):
        new_store(Path("/proc/self/graphmem-store")).open()


def test_a_database_file_that_cannot_be_opened_is_unavailable(tmp_path: Path) -> None:
    # the file's place is taken by a directory: SQLite cannot open it, root or not
    (tmp_path / "graphmem.sqlite").mkdir()
    with pytest.raises(StoreUnavailableError, match="writable graphmem SQLite file"):
        new_store(tmp_path).open()


def test_dimension_mismatch_with_the_file_is_a_configuration_error(tmp_path: Path) -> None:
    first = new_store(tmp_path)
    first.open()
    first.close()
    with pytest.raises(ConfigurationError, match="dim=8"):
        new_store(tmp_path, dim=8).open()


def test_invalid_arguments(store: EmbeddedStore) -> None:
    with pytest.raises(ConfigurationError):
        EmbeddedStore("x", dim=0, bm25_k1=1.2, bm25_b=0.75)
    with pytest.raises(InvalidInputError, match="k"):
        store.text_search(NS, "x", 0)
    with pytest.raises(InvalidInputError, match="embedding"):
        store.write(
            NS, WriteBatch(memories=[make_memory(NS, "x", embedding=(float("nan"),) * DIM)])
        )
    with pytest.raises(InvalidInputError, match="stability"):
        store.record_access(NS, [AccessUpdate("m", T0, stability=1.5, salience=0.5)])
    with pytest.raises(InvalidInputError, match="start"):
        store.time_window_search(NS, T0.replace(tzinfo=None), T0, 5)


def test_a_failure_mid_transaction_rolls_everything_back(
    store: EmbeddedStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = make_memory(NS, "half written")
    a, b = make_entity(NS, "A"), make_entity(NS, "B")

    def explode(*_: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(_embedded_sql, "relation_row", explode)
    batch = WriteBatch(
        memories=[memory], entities=[a, b], relations=[make_relation(NS, a, "r", b, memory=memory)]
    )
    with pytest.raises(RuntimeError, match="disk on fire"):
        store.write(NS, batch)
    assert store.count_memories(NS) == 0
    assert store.list_entities(NS) == []
    assert store.namespaces() == []


def test_writes_through_another_connection_invalidate_the_indexes(tmp_path: Path) -> None:
    reader, writer = new_store(tmp_path), new_store(tmp_path)
    reader.open()
    writer.open()
    try:
        first = make_memory(NS, "solar panels on the roof")
        writer.write(NS, WriteBatch(memories=[first]))
        assert [h.memory_id for h in reader.text_search(NS, "solar", 5)] == [first.id]

        second = make_memory(NS, "solar battery in the garage")
        writer.write(NS, WriteBatch(memories=[second]))
        assert {h.memory_id for h in reader.text_search(NS, "solar", 5)} == {first.id, second.id}
        assert len(reader.vector_search(NS, queries("solar"), 5)[0]) == 2

        cold = make_memory(NS, "a cold solar memory", tier="cold")
        writer.write(NS, WriteBatch(memories=[cold]))
        assert cold.id not in {
            h.memory_id for h in reader.vector_search(NS, queries("solar"), 5)[0]
        }
        writer.record_access(NS, [AccessUpdate(cold.id, T0, 0.1, 0.6, reactivate=True)])
        assert cold.id in {h.memory_id for h in reader.vector_search(NS, queries("solar"), 5)[0]}

        writer.delete_namespace(NS)
        assert reader.text_search(NS, "solar", 5) == []
        assert reader.term_stats(NS, ["solar"]).df == {"solar": 0}
    finally:
        reader.close()
        writer.close()


def test_memory_without_embedding_is_stored_but_not_vector_searchable(store: EmbeddedStore) -> None:
    bare = make_memory(NS, "no vector here", with_embedding=False)
    store.write(NS, WriteBatch(memories=[bare]))
    assert store.get_memories(NS, [bare.id], with_embeddings=True)[0].embedding is None
    assert store.vector_search(NS, queries("no vector here"), 5) == [[]]
    assert [h.memory_id for h in store.text_search(NS, "vector", 5)] == [bare.id]
    hits = store.time_window_search(NS, T0, T0.replace(year=2025), 5, embedding=queries("x")[0])
    assert [(h.memory_id, h.score) for h in hits] == [(bare.id, 0.0)]


def test_from_settings_and_context_management(tmp_path: Path) -> None:
    from graphmem.settings import Settings

    settings = Settings(data_dir=tmp_path / "ctx", embedding_dim=DIM, bm25_k1=1.5, bm25_b=0.5)
    with EmbeddedStore.from_settings(settings) as store:
        assert store.dim == DIM
        assert store.db_path.parent == tmp_path / "ctx"
        assert store.namespaces() == []
    with pytest.raises(StoreUnavailableError, match="not open"):
        store.write("ns", WriteBatch(memories=[make_memory("ns", "written after close")]))
