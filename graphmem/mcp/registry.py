"""The MCP tool registry: how a tool is declared, bound to a server and fails.

Each tool is an ``async`` function ``(ctx, namespace, **arguments) -> model``
registered with :func:`graphmem_tool`; the server
(:func:`graphmem.mcp.server.build_server`) binds ``ctx`` and, with one namespace
per server, ``namespace``, so the schema a client sees has only the tool's own
arguments (plus ``namespace`` with ``--multi-namespace``). Arguments are typed
with pydantic, so the SDK validates them against the published schema; graphmem's
own errors become tool errors that name the field (:func:`tool_errors`).

To add a tool (e.g. from another module)::

    @graphmem_tool(title="Check an answer", read_only=True)
    async def check_answer(ctx: ToolContext, namespace: str, answer: str) -> SomeModel:
        \"\"\"What an LLM should know to call it.\"\"\"

and import that module before the server is built (see ``server.TOOL_MODULES``).
graphmem's own tools are in :mod:`graphmem.mcp.tools`, mcp-neo4j-memory's in
:mod:`graphmem.mcp.kg_tools`, the guards in :mod:`graphmem.mcp.guard_tools`.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from graphmem.aio import AsyncGraphMem
from graphmem.errors import (
    EntityNotFoundError,
    GraphMemError,
    InvalidInputError,
    MemoryNotFoundError,
)

ToolFunction = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class ToolContext:
    """What every tool gets: the async facade, and the server's fixed namespace
    (None with ``--multi-namespace``)."""

    memory: AsyncGraphMem
    namespace: str | None
    session_id: str = "mcp"


@dataclass(frozen=True)
class ToolSpec:
    """A registered tool and its MCP hints (``read_only``: changes nothing;
    ``destructive``: may delete or overwrite; ``idempotent``: repeating it changes
    nothing more; ``namespaced``: takes a namespace)."""

    function: ToolFunction
    name: str
    title: str
    read_only: bool
    destructive: bool
    idempotent: bool
    namespaced: bool


TOOLS: dict[str, ToolSpec] = {}


def graphmem_tool(
    *,
    title: str,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
    namespaced: bool = True,
    name: str | None = None,
) -> Callable[[ToolFunction], ToolFunction]:
    """Register a tool function (its docstring is the description the LLM reads)."""

    def register(function: ToolFunction) -> ToolFunction:
        spec = ToolSpec(
            function=function,
            name=name or function.__name__,
            title=title,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            namespaced=namespaced,
        )
        TOOLS[spec.name] = spec
        return function

    return register


class ToolFailure(ToolError):
    """A tool error for the client: one line, the field named; never a traceback (the
    SDK returns a ``ToolError``'s message as an ``is_error`` result)."""


@contextmanager
def tool_errors() -> Iterator[None]:
    """Turn graphmem's errors into :class:`ToolFailure` messages an LLM can act on."""
    try:
        yield
    except MemoryNotFoundError as exc:
        raise ToolFailure(f"memory_id: {exc} (recall or search first to get a memory id)") from exc
    except EntityNotFoundError as exc:
        raise ToolFailure(
            f"name: {exc} (find_memories_by_name or recall show the known entities)"
        ) from exc
    except InvalidInputError as exc:
        raise ToolFailure(str(exc)) from exc
    except GraphMemError as exc:
        raise ToolFailure(f"{type(exc).__name__}: {exc}") from exc


# ------------------------------------------------------------------ argument types
MemoryId = Annotated[
    str, Field(min_length=1, max_length=200, description="A memory id from recall.")
]
SessionArg = Annotated[
    str | None,
    Field(None, max_length=200, description="Conversation/session id to record (optional)."),
]


def bind(spec: ToolSpec, ctx: ToolContext) -> ToolFunction:
    """The function the SDK registers: ``ctx`` bound and, with a fixed namespace,
    ``namespace`` too; its signature (hence the schema) drops what is bound."""
    signature = inspect.signature(spec.function, eval_str=True)
    params = list(signature.parameters.values())[1:]  # drop ctx
    fixed = ctx.namespace if spec.namespaced else None
    if spec.namespaced and fixed is not None:
        params = [p for p in params if p.name != "namespace"]
    elif spec.namespaced:
        params = [
            p.replace(
                annotation=Annotated[
                    str,
                    Field(
                        min_length=1,
                        max_length=128,
                        description="Namespace (user / agent / tenant) to work in.",
                    ),
                ]
            )
            if p.name == "namespace"
            else p
            for p in params
        ]

    async def call(**arguments: Any) -> Any:
        if fixed is not None:
            arguments["namespace"] = fixed
        return await spec.function(ctx, **arguments)

    call.__name__ = spec.name
    call.__doc__ = spec.function.__doc__
    call.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    return call


__all__ = [
    "TOOLS",
    "MemoryId",
    "SessionArg",
    "ToolContext",
    "ToolFailure",
    "ToolFunction",
    "ToolSpec",
    "bind",
    "graphmem_tool",
    "tool_errors",
]
