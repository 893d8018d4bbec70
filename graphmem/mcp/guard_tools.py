"""The guards' MCP tool (docs/spec.md §10): ``check_answer`` — read-time faithfulness of an
answer the agent is about to give, against its memories."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from graphmem.mcp.registry import ToolContext, graphmem_tool, tool_errors
from graphmem.reports import FaithfulnessReport

__all__ = ["check_answer"]


@graphmem_tool(title="Check an answer against memory", read_only=True, idempotent=True)
async def check_answer(
    ctx: ToolContext,
    namespace: str,
    answer: Annotated[
        str,
        Field(min_length=1, max_length=20_000, description="The answer you are about to give."),
    ],
    question: Annotated[
        str | None,
        Field(
            None,
            min_length=1,
            max_length=4000,
            description="The question it answers: recalled to find the memories to check"
            " against (default: the answer itself).",
        ),
    ],
    memory_ids: Annotated[
        list[str] | None,
        Field(
            None,
            max_length=100,
            description="Check against exactly these memories (ids from recall) instead.",
        ),
    ],
) -> FaithfulnessReport:
    """Check an answer before you give it: it is split into claims, and each claim is
    marked supported (a memory says it, with the same numbers, dates and names) or
    unsupported, with the memory and the reason. Returns faithfulness = supported /
    total and a risk level: none, low (1-2 unsupported, none critical), medium (1-2
    with a number, date, name, health, money or identity claim), high (3 or more).
    Remove or hedge unsupported claims, or recall again. Changes nothing."""
    with tool_errors():
        return await ctx.memory.faithfulness(
            namespace, answer, list(memory_ids) if memory_ids else None, query=question
        )
