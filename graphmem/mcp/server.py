"""Build and run graphmem's MCP server (the official SDK's high-level ``MCPServer``).

:func:`build_server` registers every tool of :data:`graphmem.mcp.registry.TOOLS` (and of
the modules in :data:`TOOL_MODULES`) on an :class:`~mcp.server.mcpserver.MCPServer`
bound to one :class:`~graphmem.aio.AsyncGraphMem`; :func:`serve` opens the store,
serves over stdio or streamable HTTP at once while the embedding model loads in the
background (a first call waits for it), logs that the server is ready once the model
is loaded, and runs until the client goes away.
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
from graphmem.entities import EntityDictionary
from graphmem.mcp.registry import TOOLS, ToolContext, bind
from graphmem.memory import validate_namespace

log = logging.getLogger("graphmem.mcp")

# Modules whose import registers more tools with ``graphmem_tool`` (optional ones
# that fail to import are skipped). Add a module here to extend the server.
TOOL_MODULES: tuple[str, ...] = (
    "graphmem.mcp.tools",
    "graphmem.mcp.kg_tools",
    "graphmem.mcp.guard_tools",
    "graphmem.mcp.forget_tools",
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
    """Open the store and serve at once while the models load in the background
    (:func:`warm_in_background`), until the client leaves (stdio) or the process is
    stopped (HTTP); then close the facade.

    A tool call that arrives while the embedding model is still loading waits for it
    (the embedder loads once, under its own lock), so the first answer comes as soon as
    the model is ready, not after the start-up and the model one after the other. The
    store is opened before serving: a store that cannot open is an error at start.
    """
    started = time.perf_counter()
    await memory.open()
    log.info(
        "graphmem MCP server listening after %.2f s: store %s, transport %s%s",
        time.perf_counter() - started,
        memory.sync.store.name,
        transport,
        f" on http://{host}:{port}/mcp" if transport == "streamable-http" else "",
    )
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(warm_in_background, memory, started)
            if transport == "stdio":
                await server.run_stdio_async()
            else:
                await server.run_streamable_http_async(host=host, port=port)
            group.cancel_scope.cancel()  # the client left before the models were loaded
    finally:
        await memory.close()


async def warm_in_background(memory: AsyncGraphMem, started: float) -> None:
    """Load the embedding model (one tiny embedding), log "graphmem MCP server ready"
    with the seconds since ``started`` (``time.perf_counter``), then load the extractor
    (one tiny extraction: the spaCy pipeline when the ``ner`` extractor is used), which
    only ``remember`` needs. A failure is logged, not raised: the server keeps
    answering, and the tool that needs the model reports the same error."""
    sync = memory.sync
    try:
        await memory.run_sync(sync.embedder.embed, ["graphmem warm-up"])
        log.info(
            "graphmem MCP server ready in %.1f s: model %s loaded",
            time.perf_counter() - started,
            sync.embedder.name,
        )
        await memory.run_sync(
            sync.extractor.extract, "Ada Lovelace met Charles Babbage.", EntityDictionary()
        )
    except Exception as exc:  # logged for the operator; each tool call reports its own
        log.error("graphmem MCP: loading the models failed: %s", exc)


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
