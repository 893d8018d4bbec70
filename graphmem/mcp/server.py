"""Build and run graphmem's MCP server (the official SDK's high-level ``MCPServer``).

:func:`build_server` registers every tool of :data:`graphmem.mcp.registry.TOOLS` (and of
the modules in :data:`TOOL_MODULES`) on an :class:`~mcp.server.mcpserver.MCPServer`
bound to one :class:`~graphmem.aio.AsyncGraphMem`; :func:`serve` opens the store,
loads the embedding model once, logs that the server is ready, and runs it over
stdio or streamable HTTP until the client goes away.
"""

from __future__ import annotations

import importlib
import logging
import time
from typing import Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from graphmem.aio import AsyncGraphMem
from graphmem.mcp.registry import TOOLS, ToolContext, bind
from graphmem.memory import validate_namespace

log = logging.getLogger("graphmem.mcp")

# Modules whose import registers more tools with ``graphmem_tool`` (optional ones
# that fail to import are skipped). Add a module here to extend the server.
TOOL_MODULES: tuple[str, ...] = (
    "graphmem.mcp.tools",
    "graphmem.mcp.kg_tools",
    "graphmem.mcp.guard_tools",
)

Transport = Literal["stdio", "streamable-http"]

INSTRUCTIONS = (
    "graphmem is your long-term memory. Before answering anything about the user, their"
    " world or earlier conversations, call recall with the question. When the user tells"
    " you a durable fact, preference or event, call remember with self-contained"
    " statements. Use about_entity for 'what do you know about X', get_memory to see where"
    " a memory came from, confirm when the user confirms one, correct when they correct"
    " one. Hits carry confidence (0..1) and freshness: prefer confident, fresh memories and"
    " say when you are unsure."
)


def _load_tool_modules() -> None:
    for name in TOOL_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:  # an optional extension that is not installed
            log.warning("graphmem MCP: tool module %s not loaded: %s", name, exc)


def build_server(
    memory: AsyncGraphMem, *, namespace: str | None = "default", session_id: str = "mcp"
) -> MCPServer:
    """An MCP server exposing ``memory``.

    Parameters
    ----------
    memory : AsyncGraphMem
        The facade every tool calls (not opened here; :func:`serve` opens it).
    namespace : str or None
        The one namespace every tool works in; ``None`` for multi-namespace mode,
        where each tool (but ``list_namespaces``) takes a ``namespace`` argument.
    session_id : str
        Session recorded with memories when a call gives none.

    Raises
    ------
    InvalidInputError
        For an invalid ``namespace``.
    """
    if namespace is not None:
        validate_namespace(namespace)
    _load_tool_modules()
    server = MCPServer(
        name="graphmem",
        title="graphmem memory",
        instructions=INSTRUCTIONS,
        version=_version(),
    )
    ctx = ToolContext(memory=memory, namespace=namespace, session_id=session_id)
    for spec in TOOLS.values():
        function = bind(spec, ctx)
        server.add_tool(
            function,
            name=spec.name,
            title=spec.title,
            description=" ".join((spec.function.__doc__ or "").split()),
            annotations=ToolAnnotations(
                title=spec.title,
                read_only_hint=spec.read_only,
                destructive_hint=spec.destructive,
                idempotent_hint=spec.idempotent,
                open_world_hint=False,
            ),
            structured_output=True,
        )
    return server


def _version() -> str:
    from graphmem import __version__

    return __version__


async def run_server(
    memory: AsyncGraphMem,
    server: MCPServer,
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
) -> None:
    """Open the store, load the model, log readiness, serve until the client leaves
    (stdio) or the process is stopped (HTTP), then close the facade."""
    started = time.perf_counter()
    await memory.warm_up()
    settings = memory.settings
    log.info(
        "graphmem MCP server ready in %.1f s: store %s, model %s, transport %s%s",
        time.perf_counter() - started,
        memory.sync.store.name,
        settings.embedding_model,
        transport,
        f" on http://{host}:{port}/mcp" if transport == "streamable-http" else "",
    )
    try:
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            await server.run_streamable_http_async(host=host, port=port)
    finally:
        await memory.close()


def serve(
    memory: AsyncGraphMem,
    *,
    namespace: str | None = "default",
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
) -> None:
    """Build the server for ``memory`` and run it (blocking): see :func:`run_server`."""
    server = build_server(memory, namespace=namespace)

    async def main() -> None:
        await run_server(memory, server, transport=transport, host=host, port=port)

    anyio.run(main)
