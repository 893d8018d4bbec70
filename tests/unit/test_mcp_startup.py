"""``graphmem mcp`` serves before the embedding model has loaded (docs/benchmarks.md
"Speed and scale": the first tool call within 2 s): the model loads in the
background and a call that needs it waits for it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import anyio
import numpy as np

from graphmem import GraphMem, Settings
from graphmem.aio import AsyncGraphMem
from graphmem.mcp.server import run_server
from graphmem.types import Vector
from tests.fakes import HashEmbedder


class SlowLoadingEmbedder(HashEmbedder):
    """An embedder whose first call blocks until ``released`` is set (at most 5 s),
    as a model that is still loading; records whether serving had begun by then."""

    def __init__(self) -> None:
        super().__init__()
        self.released = threading.Event()
        self.served_before_loaded: bool | None = None

    def embed(self, texts: Sequence[str]) -> Vector:
        if self.served_before_loaded is None:
            self.served_before_loaded = self.released.wait(timeout=5)
        return np.asarray(super().embed(texts))


class FakeServer:
    """Stands in for the SDK server: "serving" releases the model, then the client leaves."""

    def __init__(self, embedder: SlowLoadingEmbedder) -> None:
        self.embedder = embedder

    async def run_stdio_async(self) -> None:
        self.embedder.released.set()
        await anyio.sleep(0.2)  # the client's session, while the model finishes loading


def test_server_serves_while_the_model_loads(tmp_path: Path) -> None:
    embedder = SlowLoadingEmbedder()
    memory = AsyncGraphMem(
        memory=GraphMem(Settings(data_dir=tmp_path, extractor="capitalized"), embedder=embedder)
    )
    anyio.run(run_server, memory, FakeServer(embedder))  # type: ignore[arg-type]
    assert embedder.served_before_loaded is True


def test_a_model_that_fails_to_load_does_not_stop_the_server(tmp_path: Path) -> None:
    class Broken(HashEmbedder):
        def embed(self, texts: Sequence[str]) -> Vector:
            raise RuntimeError("no model")

    served: list[bool] = []

    class Server:
        async def run_stdio_async(self) -> None:
            await anyio.sleep(0.2)
            served.append(True)

    memory = AsyncGraphMem(
        memory=GraphMem(Settings(data_dir=tmp_path, extractor="capitalized"), embedder=Broken())
    )
    anyio.run(run_server, memory, Server())  # type: ignore[arg-type]
    assert served == [True]
