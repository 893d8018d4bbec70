"""Forgetting over MCP on every store, as an agent calls it (an in-process client):
graphmem's ``forget`` and mcp-neo4j-memory's ``delete_entities``,
``delete_observations`` and ``delete_relations`` (SPEC §9.16). What they delete is gone
from ``read_graph``; what does not exist is a tool error naming what does, and nothing
is deleted."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from graphmem import GraphMem, Settings
from graphmem.aio import AsyncGraphMem
from graphmem.mcp.server import build_server
from graphmem.store.base import MemoryStore
from tests.fakes import HashEmbedder

Session = Callable[[Client], Awaitable[None]]
ERIN = [
    {
        "name": "Erin Hale",
        "type": "person",
        "observations": ["Erin Hale speaks Dutch", "Erin Hale owns a cat named Miso"],
    },
    {"name": "Globex", "type": "company", "observations": ["Globex sells widgets"]},
    {"name": "Faye Lin", "type": "person", "observations": ["Faye Lin plays the oboe"]},
]
WORKS = {"source": "Erin Hale", "target": "Globex", "relationType": "WORKS_AT"}


@pytest.fixture
def connect(store: MemoryStore, ns: str) -> Iterator[Callable[[Session], None]]:
    """Runs ``body(client)`` against a server on this test's store and namespace."""
    facades: list[AsyncGraphMem] = []

    def run(body: Session) -> None:
        memory = AsyncGraphMem(
            memory=GraphMem(Settings(), store=store, embedder=HashEmbedder(), owns_store=False)
        )
        facades.append(memory)
        server = build_server(memory, namespace=ns)

        async def session() -> None:
            async with Client(server) as client:
                await call(client, "create_entities", {"entities": ERIN})
                await call(client, "create_relations", {"relations": [WORKS]})
                await body(client)

        asyncio.run(session())

    yield run
    for memory in facades:
        asyncio.run(memory.close())


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    assert result.structured_content is not None, tool
    return result.structured_content


async def failure(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} {arguments} should have failed"
    return _text(result)


def _text(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


async def observations(client: Client) -> set[str]:
    graph = await call(client, "read_graph", {})
    return {o for e in graph["entities"] for o in e["observations"]}


def test_the_delete_tools_are_listed_destructive(connect: Callable[[Session], None]) -> None:
    async def body(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        for name in ("forget", "delete_entities", "delete_observations", "delete_relations"):
            assert listed[name].annotations is not None
            assert listed[name].annotations.destructive_hint is True, name
        assert set(listed["delete_entities"].input_schema["required"]) == {"entityNames"}
        assert set(listed["delete_observations"].input_schema["required"]) == {"deletions"}
        assert set(listed["delete_relations"].input_schema["required"]) == {"relations"}

    connect(body)


def test_delete_observations_then_relations_then_entities(
    connect: Callable[[Session], None],
) -> None:
    async def body(client: Client) -> None:
        deletion = {"entityName": "Erin Hale", "observations": ["Erin Hale owns a cat named Miso"]}
        report = await call(client, "delete_observations", {"deletions": [deletion]})
        assert report["memories"] == 1 and report["kind"] == "observations"
        assert "Erin Hale owns a cat named Miso" not in await observations(client)
        report = await call(client, "delete_relations", {"relations": [WORKS]})
        assert report["memories"] == 1 and report["relations"] >= 1
        graph = await call(client, "read_graph", {})
        triple = tuple(WORKS.values())
        assert triple not in {
            (r["source"], r["target"], r["relationType"]) for r in graph["relations"]
        }
        reports = await call(client, "delete_entities", {"entityNames": ["Erin Hale"]})
        assert reports["result"][0]["memories"] == 1  # "speaks Dutch" (the rest went before)
        left = await observations(client)
        assert not {o for o in left if "Erin" in o}
        assert {"Globex sells widgets", "Faye Lin plays the oboe"} <= left
        again = await call(client, "delete_entities", {"entityNames": ["Erin Hale"]})
        assert again["result"][0]["already_forgotten"] is True

    connect(body)


def test_forget_tool_and_what_does_not_exist(connect: Callable[[Session], None]) -> None:
    async def body(client: Client) -> None:
        text = await failure(client, "delete_entities", {"entityNames": ["Faye Lin", "Nobody"]})
        assert "Nobody" in text and "Erin Hale" in text
        deletion = {"entityName": "Globex", "observations": ["Globex sells gadgets"]}
        text = await failure(client, "delete_observations", {"deletions": [deletion]})
        assert "Globex sells widgets" in text
        wrong = {**WORKS, "relationType": "OWNS"}
        text = await failure(client, "delete_relations", {"relations": [wrong]})
        assert "works at" in text.lower().replace("_", " ")
        assert "Faye Lin plays the oboe" in await observations(client)  # nothing deleted
        assert "memory_id, entity" in await failure(client, "forget", {})
        preview = await call(client, "forget", {"entity": "Faye Lin", "dry_run": True})
        assert preview["dry_run"] is True and preview["memories"] == 1
        report = await call(client, "forget", {"entity": "Faye Lin"})
        assert report["memories"] == 1 and report["entities"] >= 1
        assert "Faye Lin plays the oboe" not in await observations(client)

    connect(body)
