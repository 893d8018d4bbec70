"""The doors the user-path benchmark writes and asks through: the Python API
(:class:`ApiDoor`) and the MCP server over stdio with the official MCP client
(:class:`McpDoor`). Both take the same calls; the MCP door's server runs with
its real clock, so times go in as ``observed_at`` / ``reference_time``."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from graphmem import GraphMem, Settings

T = TypeVar("T")


class Clock:
    """A settable clock for the API door's facade."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


def settings_for(data_dir: Path, neo4j_uri: str | None) -> Settings:
    """The embedded store in ``data_dir``, or Neo4j at ``neo4j_uri`` (user and password
    from ``GRAPHMEM_NEO4J_USER`` / ``GRAPHMEM_NEO4J_PASSWORD`` as usual)."""
    if neo4j_uri:
        return Settings(data_dir=data_dir, neo4j_uri=neo4j_uri, neo4j_allow_no_auth=_no_auth())
    return Settings(data_dir=data_dir, neo4j_uri=None)


def _no_auth() -> bool:
    """A local test server without authentication (GRAPHMEM_NEO4J_PASSWORD unset)."""
    return not os.environ.get("GRAPHMEM_NEO4J_PASSWORD")


class ApiDoor:
    """The Python API: :class:`graphmem.GraphMem` with a settable clock."""

    name = "api"

    def __init__(self, data_dir: Path, neo4j_uri: str | None = None) -> None:
        self.clock = Clock(datetime.fromisoformat("2025-01-01T00:00:00+00:00"))
        self.memory = GraphMem(settings_for(data_dir, neo4j_uri), clock=self.clock)

    def close(self) -> None:
        self.memory.close()

    def set_user(self, ns: str, name: str) -> None:
        setter = getattr(self.memory, "set_user", None)
        if setter is not None:  # a graphmem before the namespace's user (a baseline run)
            setter(ns, name)

    def remember(self, ns: str, item: dict[str, Any], at: datetime) -> str | None:
        self.clock.at = at
        report = self.memory.remember(ns, [{**item, "extractor": "verbatim"}])
        return report.memory_ids[0]

    def correct(self, ns: str, memory_id: str, text: str, at: datetime) -> str:
        self.clock.at = at
        _old, new = self.memory.correct(ns, memory_id, text)
        return new.id

    def recall(self, ns: str, question: str, at: datetime, record: bool) -> list[str]:
        self.clock.at = at
        result = self.memory.recall(ns, question, k=10, record_access=record)
        return [h.memory.id for h in result.hits]

    def consolidate_all(self, plan: list[tuple[str, datetime]]) -> None:
        for ns, at in plan:
            self.clock.at = at
            self.memory.consolidate(ns, now=at)


class McpDoor:
    """``graphmem mcp`` as an agent host starts it (stdio, the official client). The
    client lives on a private event loop thread; calls block until answered.
    ``consolidate`` runs through the API on the same store between server runs."""

    name = "mcp"

    def __init__(self, data_dir: Path, neo4j_uri: str | None = None) -> None:
        self._data_dir = data_dir
        self._neo4j_uri = neo4j_uri
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._session: Any = None
        self._inbox: Any = None
        self._start()

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def _start(self) -> None:
        """Start the server and one task that owns the client session for its whole
        life (anyio's cancel scopes must be left in the task that entered them)."""
        from mcp import StdioServerParameters

        env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
        for key in ("GRAPHMEM_NEO4J_USER", "GRAPHMEM_NEO4J_PASSWORD"):
            if key in os.environ:
                env[key] = os.environ[key]
        args = ["-m", "graphmem.cli.main", "mcp", "--multi-namespace"]
        args += ["--data-dir", str(self._data_dir)]
        if self._neo4j_uri:
            env["GRAPHMEM_NEO4J_URI"] = self._neo4j_uri
            if _no_auth():
                env["GRAPHMEM_NEO4J_ALLOW_NO_AUTH"] = "true"
        params = StdioServerParameters(command=sys.executable, args=args, env=env)
        ready: Future[None] = Future()

        async def make_inbox() -> asyncio.Queue[Any]:
            return asyncio.Queue()

        self._inbox = self._run(make_inbox())
        self._session = asyncio.run_coroutine_threadsafe(
            self._serve(params, ready, self._inbox), self._loop
        )
        ready.result()

    @staticmethod
    async def _serve(params: Any, ready: Future[None], inbox: asyncio.Queue[Any]) -> None:
        from mcp import Client

        try:
            async with Client(params, read_timeout_seconds=600) as client:
                ready.set_result(None)
                while (item := await inbox.get()) is not None:
                    tool, arguments, answer = item
                    try:
                        answer.set_result(await client.call_tool(tool, arguments))
                    except Exception as exc:  # handed to the caller's thread
                        answer.set_exception(exc)
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise

    def _stop(self) -> None:
        if self._session is not None:
            self._loop.call_soon_threadsafe(self._inbox.put_nowait, None)
            self._session.result()
            self._session = None

    def close(self) -> None:
        self._stop()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def _call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        answer: Future[Any] = Future()
        self._loop.call_soon_threadsafe(self._inbox.put_nowait, (tool, args, answer))
        result = answer.result()
        if result.is_error:
            text = " ".join(getattr(c, "text", "") for c in result.content)
            raise RuntimeError(f"MCP {tool} failed: {text}")
        out: dict[str, Any] = result.structured_content or {}
        return out

    def set_user(self, ns: str, name: str) -> None:
        self._call("set_user", {"namespace": ns, "name": name})

    def remember(self, ns: str, item: dict[str, Any], at: datetime) -> str | None:
        memory = {k: v for k, v in item.items() if v is not None}
        memory["observed_at"] = at.isoformat()
        if isinstance(memory.get("event_time"), datetime):
            memory["event_time"] = memory["event_time"].isoformat()
        out = self._call("remember", {"namespace": ns, "memories": [memory]})
        ids: list[str | None] = out["memory_ids"]
        return ids[0]

    def correct(self, ns: str, memory_id: str, text: str, at: datetime) -> str:
        out = self._call("correct", {"namespace": ns, "memory_id": memory_id, "content": text})
        new: str = out["new_id"]
        return new

    def recall(self, ns: str, question: str, at: datetime, record: bool) -> list[str]:
        out = self._call(
            "recall",
            {
                "namespace": ns,
                "question": question,
                "k": 10,
                "reference_time": at.isoformat(),
                "record_access": record,
            },
        )
        return [h["id"] for h in out["hits"]]

    def consolidate_all(self, plan: list[tuple[str, datetime]]) -> None:
        """Stops the server, consolidates each namespace through the API, starts the
        server again (its caches would not see another process's writes)."""
        self._stop()
        with GraphMem(settings_for(self._data_dir, self._neo4j_uri)) as memory:
            for ns, at in plan:
                memory.consolidate(ns, now=at)
        self._start()
