"""Nothing process-wide in recall (docs/pipelines.md): each facade's recall pipeline
makes its own retrievers (the graph retriever with its thread pool and its concept
indexes), and ``close()`` (``GraphMem``'s and ``AsyncGraphMem``'s) stops that pool."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from graphmem import GraphMem, Settings
from graphmem.aio import AsyncGraphMem
from tests.fakes import HashEmbedder

FACT = {
    "content": "Maya Lopez works at Acme Robotics.",
    "type": "Fact",
    "entities": [
        {"name": "Maya Lopez", "kind": "Person"},
        {"name": "Acme Robotics", "kind": "Organization"},
    ],
    "relations": [{"source": "Maya Lopez", "predicate": "WORKS_AT", "target": "Acme Robotics"}],
}
QUESTION = "Where does Maya Lopez work?"


def _facade(path: Path) -> GraphMem:
    return GraphMem(Settings(data_dir=path, extractor="capitalized"), embedder=HashEmbedder())


def _crowd_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("graph-crowd")}


def test_two_facades_share_no_retriever(tmp_path: Path) -> None:
    with _facade(tmp_path / "a") as a, _facade(tmp_path / "b") as b:
        mine, theirs = a.recall_pipeline.retrievers, b.recall_pipeline.retrievers
        assert set(mine) == set(theirs) == {"semantic", "bm25", "entity", "temporal", "graph"}
        assert all(mine[name] is not theirs[name] for name in mine)


def test_close_stops_the_graph_retrievers_threads(tmp_path: Path) -> None:
    before = _crowd_threads()
    memory = _facade(tmp_path / "store")
    memory.remember("ns", [FACT])
    assert memory.recall("ns", QUESTION, record_access=False).hits
    started = _crowd_threads() - before
    assert started, "the relation walk asks for the seeds' memories on its own threads"
    other = _facade(tmp_path / "other")  # another facade, left open, keeps nothing alive
    memory.close()
    assert not any(t.is_alive() for t in started)
    other.close()
    # reopened, the facade recalls again on fresh threads
    with memory.open():
        assert memory.recall("ns", QUESTION, record_access=False).hits


def test_async_close_stops_them_too(tmp_path: Path) -> None:
    before = _crowd_threads()

    async def run() -> set[threading.Thread]:
        memory = AsyncGraphMem(memory=_facade(tmp_path / "store"))
        await memory.remember("ns", [FACT])
        assert (await memory.recall("ns", QUESTION, record_access=False)).hits
        started = _crowd_threads() - before
        await memory.close()
        return started

    started = asyncio.run(run())
    assert started and not any(t.is_alive() for t in started)
