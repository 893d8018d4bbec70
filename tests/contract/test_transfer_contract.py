"""Export → import of a namespace, on every store and across stores (issue 14).

The source namespace is written through the facade on an embedded store (and, for
the same-store case, on the store under test); the export is imported into the
store under test, so the ``neo4j`` run is the cross-store case (embedded → Neo4j).
What must survive is compared field by field with what was read from the source.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem, InvalidInputError, Settings
from graphmem.store.base import MemoryStore
from graphmem.store.embedded import EmbeddedStore
from graphmem.transfer import export_namespace, import_namespace
from tests.contract.builders import DIM
from tests.fakes import HashEmbedder

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0 + timedelta(days=10)

    def __call__(self) -> datetime:
        return self.now


def facade(store: MemoryStore) -> GraphMem:
    return GraphMem(
        Settings(), store=store, embedder=HashEmbedder(), clock=Clock(), owns_store=False
    )


@pytest.fixture
def source(tmp_path: Path) -> Iterator[GraphMem]:
    """A facade on a fresh embedded store (the export side of the cross-store case)."""
    settings = Settings()
    store = EmbeddedStore(
        tmp_path / "source",
        dim=DIM,
        bm25_k1=settings.read.fusion.bm25_k1,
        bm25_b=settings.read.fusion.bm25_b,
    )
    memory = facade(store)
    memory.open()
    yield memory
    memory.close()
    store.close()


def fill(memory: GraphMem, namespace: str) -> dict[str, str]:
    """Memories with provenance over two sessions, a merge, a relation, a correction
    and a confirmation; returns the ids the test looks at."""

    def cand(content: str, session: str, turn: str, **extra: Any) -> dict[str, Any]:
        return {
            "content": content,
            "extractor": "verbatim",
            "session_id": session,
            "turn_id": turn,
            "observed_at": (T0 + timedelta(hours=int(turn[-1]))).isoformat(),
            **extra,
        }

    first = memory.remember(
        namespace,
        [
            cand("Ada Lovelace prefers Earl Grey tea", "s1", "s1:1", type="Preference"),
            cand(
                "Ada Lovelace works with Charles Babbage",
                "s1",
                "s1:2",
                type="Relation",
                entities=[{"name": "Ada Lovelace"}, {"name": "Charles Babbage"}],
                relations=[
                    {
                        "source": "Ada Lovelace",
                        "predicate": "works_with",
                        "target": "Charles Babbage",
                    }
                ],
            ),
            cand("The Analytical Engine was designed in 1837", "s1", "s1:3"),
        ],
    )
    tea, works, engine = (str(i) for i in first.memory_ids)
    memory.remember(
        namespace, [cand("Ada Lovelace prefers Earl Grey tea", "s2", "s2:4", type="Preference")]
    )
    memory.confirm(namespace, engine)
    _, new = memory.correct(namespace, engine, "The Analytical Engine was designed in 1834")
    memory.recall(namespace, "what tea does Ada drink?")
    return {"tea": tea, "works": works, "engine": engine, "engine_new": new.id}


def roundtrip(source: GraphMem, from_ns: str, target: GraphMem, to_ns: str) -> list[str]:
    lines = [json.dumps(record) for record in export_namespace(source, from_ns)]
    import_namespace(target, lines, to_ns)
    return lines


def compared(memory: GraphMem, namespace: str, ident: str) -> dict[str, Any]:
    got = memory.get(namespace, ident, with_embedding=True)
    return got.model_dump(exclude={"namespace", "version"})


@pytest.mark.parametrize("origin", ["embedded", "same store"])
def test_export_import_round_trips_a_namespace(
    source: GraphMem, store: MemoryStore, new_namespace: Any, origin: str
) -> None:
    target = facade(store)
    exporter = source if origin == "embedded" else target
    from_ns, to_ns = new_namespace(), new_namespace()
    ids = fill(exporter, from_ns)
    lines = roundtrip(exporter, from_ns, target, to_ns)
    assert json.loads(lines[0])["counts"] == exporter.stats(from_ns)
    assert target.stats(to_ns) == exporter.stats(from_ns)
    for ident in ids.values():  # every field: content, confidence, n, provenance, access...
        assert compared(target, to_ns, ident) == compared(exporter, from_ns, ident)
    assert [m.id for m in target.history(to_ns, ids["engine"])] == [
        ids["engine"],
        ids["engine_new"],
    ]
    tea = target.get(to_ns, ids["tea"])
    assert [o.session_id for o in tea.observations] == ["s1", "s2"]
    about = target.about_entity(to_ns, "Ada Lovelace")
    assert about.relations == exporter.about_entity(from_ns, "Ada Lovelace").relations
    assert ("Ada Lovelace", "WORKS_WITH", "Charles Babbage") in [
        (r.source, r.predicate.upper(), r.target) for r in about.relations
    ]
    hits = target.recall(to_ns, "Which tea does Ada Lovelace prefer?", record_access=False)
    assert hits.hits[0].memory.id == ids["tea"]
    target.close()


def test_import_refuses_a_bad_file_or_a_namespace_with_data(
    source: GraphMem, store: MemoryStore, new_namespace: Any
) -> None:
    target = facade(store)
    from_ns, to_ns = new_namespace(), new_namespace()
    fill(source, from_ns)
    lines = [json.dumps(record) for record in export_namespace(source, from_ns)]
    broken = [*lines[:3], '{"record": "memory", "id": "x"}', *lines[3:]]
    with pytest.raises(InvalidInputError, match="Memory"):
        import_namespace(target, broken, to_ns)
    assert target.stats(to_ns)["memories"] == 0  # validated before anything was written
    with pytest.raises(InvalidInputError, match="line 1"):
        import_namespace(target, ['{"hello": 1}'], to_ns)
    import_namespace(target, lines, to_ns)
    with pytest.raises(InvalidInputError, match="already holds data"):
        import_namespace(target, lines, to_ns)
    target.close()
