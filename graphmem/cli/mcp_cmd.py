"""``graphmem mcp``: run graphmem as an MCP server for agents (see :mod:`graphmem.mcp`)."""

from __future__ import annotations

import contextlib
import logging
import threading
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.cli.common import DataDir, StoreOpt, err, open_memory

if TYPE_CHECKING:
    from graphmem.memory import GraphMem


def fail(message: str) -> None:
    """Print an error and exit with code 2."""
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


class TransportChoice(StrEnum):
    """How MCP clients reach the server."""

    stdio = "stdio"
    streamable_http = "streamable-http"


def _load_model(memory: GraphMem) -> None:
    """Load the embedding model (one tiny embedding); errors are left to the server's
    warm-up, which logs them, and to the tool calls, which report them."""
    with contextlib.suppress(Exception):
        memory.embedder.embed(["graphmem warm-up"])


def mcp(
    namespace: Annotated[
        str,
        typer.Option(
            "--namespace", "-n", help="The one namespace every tool works in (one per server)."
        ),
    ] = "default",
    multi_namespace: Annotated[
        bool,
        typer.Option(
            "--multi-namespace",
            help="Instead of one namespace, give each tool a 'namespace' argument.",
        ),
    ] = False,
    transport: Annotated[
        TransportChoice,
        typer.Option(help="stdio (the client starts this command) or streamable-http."),
    ] = TransportChoice.stdio,
    host: Annotated[str, typer.Option(help="streamable-http: address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="streamable-http: port to listen on.")
    ] = 8000,
    user: Annotated[
        str | None,
        typer.Option(
            "--user",
            help="The person the namespace is about, e.g. 'Jonas Weber': first-person"
            " statements and questions ('I moved to Graz', 'where do I live?') bind to them"
            " (set per namespace with the set_user tool). Default: an implicit 'User'.",
        ),
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    log_level: Annotated[
        str, typer.Option(help="Server log level on stderr (DEBUG, INFO, WARNING, ERROR).")
    ] = "INFO",
) -> None:
    """Run graphmem as an MCP server: agents remember and recall through its tools.

    Tools: remember, recall, about_entity, get_memory, confirm, correct, set_user,
    forget_session, forget, list_namespaces, stats, and mcp-neo4j-memory's
    create_entities, create_relations, add_observations, search_memories,
    find_memories_by_name, read_graph, delete_entities, delete_observations,
    delete_relations.

    With stdio (the default) an MCP client starts this command and talks over its
    stdin/stdout; logs go to stderr. The server answers at once while the embedding
    model loads in the background (a call that needs it waits for it) and logs
    "graphmem MCP server ready" when the model is loaded. Client configuration:
    docs/mcp.md.
    """
    level = log_level.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        fail(f"--log-level: one of DEBUG, INFO, WARNING, ERROR; got {log_level!r}")
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    sync = open_memory(store, data_dir, **({"user": user} if user else {}))
    # the model loads while the MCP SDK is imported (its import takes ~0.5 s idle); the
    # server's own warm-up then finds it loaded, and a failure is reported there
    threading.Thread(target=_load_model, args=(sync,), name="model-load", daemon=True).start()
    try:
        from graphmem.aio import AsyncGraphMem
        from graphmem.mcp.server import serve
    except ImportError as exc:
        fail(f"the MCP server needs the mcp extra: pip install 'graphmem[mcp]' ({exc})")
        return
    memory = AsyncGraphMem(memory=sync)
    serve(
        memory,
        namespace=None if multi_namespace else namespace,
        transport="stdio" if transport is TransportChoice.stdio else "streamable-http",
        host=host,
        port=port,
    )
