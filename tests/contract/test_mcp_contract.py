"""The MCP server through the SDK's in-memory client, on every store (issue 14).

Every tool is called; the published schemas, hints and structured outputs are
checked; a bad argument and an unknown memory come back as tool errors naming
the field, never a traceback. Expected values come from the inputs of each test
(what was remembered), not from graphmem's code.
"""

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

GRAPHMEM_TOOLS = {
    "remember",
    "recall",
    "about_entity",
    "get_memory",
    "confirm",
    "correct",
    "forget_session",
    "list_namespaces",
    "stats",
}
NEO4J_MEMORY_TOOLS = {
    "create_entities",
    "create_relations",
    "add_observations",
    "search_memories",
    "find_memories_by_name",
    "read_graph",
}
READ_ONLY = {
    "recall",
    "about_entity",
    "get_memory",
    "list_namespaces",
    "stats",
    "search_memories",
    "find_memories_by_name",
    "read_graph",
}
DESTRUCTIVE = {"correct", "forget_session"}

Session = Callable[[Client], Awaitable[None]]


@pytest.fixture
def connect(store: MemoryStore, ns: str) -> Iterator[Callable[..., None]]:
    """Runs ``body(client)`` against a server on this test's store and namespace."""
    facades: list[AsyncGraphMem] = []

    def run(body: Session, *, multi: bool = False) -> None:
        memory = AsyncGraphMem(
            memory=GraphMem(Settings(), store=store, embedder=HashEmbedder(), owns_store=False)
        )
        facades.append(memory)
        server = build_server(memory, namespace=None if multi else ns)

        async def session() -> None:
            async with Client(server) as client:
                await body(client)

        asyncio.run(session())

    yield run
    for memory in facades:
        asyncio.run(memory.close())  # the store fixture closes the store


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    """A successful call's structured output (a list output comes as ``result``)."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    assert result.structured_content is not None, tool
    return result.structured_content


async def failure(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    """A failed call's message (and that it is one line of reason, no traceback)."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} {arguments} should have failed"
    text = _text(result)
    assert "Traceback" not in text and 'File "' not in text
    return text


def _text(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


FIVE = [
    "Alice Walker prefers green tea in the morning",
    "Bob Stone works at Acme Corp as an engineer",
    "Alice Walker lives in Lisbon",
    "The team offsite is planned for Porto in June",
    "Bob Stone plays the cello on weekends",
]


def test_tools_schemas_and_hints(connect: Callable[..., None]) -> None:
    async def body(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) >= GRAPHMEM_TOOLS | NEO4J_MEMORY_TOOLS
        for name in GRAPHMEM_TOOLS | NEO4J_MEMORY_TOOLS:
            tool = listed[name]
            assert tool.description and len(tool.description) > 40, name
            assert tool.output_schema is not None, name
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint is (name in READ_ONLY), name
            assert tool.annotations.destructive_hint is (name in DESTRUCTIVE), name
            # one namespace per server: no tool asks for it
            assert "namespace" not in tool.input_schema.get("properties", {}), name
        recall = listed["recall"].input_schema
        assert recall["required"] == ["question"]
        assert recall["properties"]["k"]["maximum"] == 100
        assert set(recall["properties"]) == {
            "question",
            "k",
            "types",
            "reference_time",
            "include_history",
            "profile",
            "record_access",
        }
        # mcp-neo4j-memory's argument names, so a client's calls keep working
        assert set(listed["create_relations"].input_schema["properties"]) == {"relations"}
        relation_item = listed["create_relations"].input_schema["$defs"]["KgRelation"]
        assert set(relation_item["required"]) == {"source", "target", "relationType"}
        assert set(listed["find_memories_by_name"].input_schema["required"]) == {"names"}
        assert listed["read_graph"].input_schema.get("required", []) == []
        assert set(listed["recall"].output_schema["required"]) >= {"plan", "hits"}

    connect(body)


def test_remember_five_and_recall_them(connect: Callable[..., None], ns: str) -> None:
    async def body(client: Client) -> None:
        written = await call(client, "remember", {"memories": [{"content": c} for c in FIVE]})
        assert len(written["created"]) == 5 and len(set(written["memory_ids"])) == 5
        stats = await call(client, "stats", {})
        assert stats["namespace"] == ns and stats["counts"]["memories"] == 5
        for content in FIVE:
            found = await call(client, "recall", {"question": content, "k": 3})
            top = next(hit for hit in found["hits"] if hit["content"] == content)
            assert 0 < top["confidence"] <= 1 and 0 < top["freshness"] <= 1
            assert top["retrievers"]["semantic"]["rank"] >= 1 and found["plan"]
        first = written["memory_ids"][0]

        async def uses() -> int:
            return int((await call(client, "get_memory", {"memory_id": first}))["access_count"])

        before = await uses()
        for record_access, expected in ((False, before), (True, before + 1)):
            found = await call(
                client, "recall", {"question": FIVE[0], "k": 5, "record_access": record_access}
            )
            assert first in [hit["id"] for hit in found["hits"]]
            assert await uses() == expected, record_access
        only = await call(client, "recall", {"question": "tea", "types": ["Preference"]})
        assert only["hits"] == []  # all five are Facts

    connect(body)


def test_memory_lifecycle_tools(connect: Callable[..., None], ns: str) -> None:
    async def body(client: Client) -> None:
        written = await call(
            client,
            "remember",
            {
                "memories": [
                    {
                        "content": "Carol Danvers drives a red bicycle",
                        "type": "Fact",
                        "entities": ["Carol Danvers"],
                        "session_id": "s-1",
                    }
                ],
                "text": "Dan Brown owns a sailing boat",
                "session_id": "s-2",
            },
        )
        first, second = written["memory_ids"]
        got = await call(client, "get_memory", {"memory_id": first})
        assert got["content"] == "Carol Danvers drives a red bicycle"
        assert [o["session_id"] for o in got["observations"]] == ["s-1"]
        assert [h["id"] for h in got["history"]] == [first]
        confirmed = await call(client, "confirm", {"memory_id": first})
        assert confirmed["confidence"] > confirmed["confidence_before"] and confirmed["n"] == 2
        corrected = await call(
            client,
            "correct",
            {"memory_id": first, "content": "Carol Danvers drives a blue bicycle"},
        )
        assert corrected["old_id"] == first and corrected["new_id"] != first
        history = await call(client, "get_memory", {"memory_id": first})
        assert history["current"] is False
        assert [h["id"] for h in history["history"]] == [first, corrected["new_id"]]
        about = await call(client, "about_entity", {"name": "carol danvers"})
        assert about["name"] == "Carol Danvers"
        assert [m["content"] for m in about["memories"]] == ["Carol Danvers drives a blue bicycle"]
        names = await call(client, "list_namespaces", {})
        assert ns in names["namespaces"] and names["current"] == ns
        dry = await call(client, "forget_session", {"session_id": "s-2", "dry_run": True})
        assert dry["deleted"] == [second]
        assert (await call(client, "get_memory", {"memory_id": second}))["id"] == second
        gone = await call(client, "forget_session", {"session_id": "s-2"})
        assert gone["deleted"] == [second] and gone["dry_run"] is False
        missing = await failure(client, "get_memory", {"memory_id": second})
        assert "memory_id" in missing and second in missing

    connect(body)


def test_bad_arguments_name_the_field(connect: Callable[..., None]) -> None:
    async def body(client: Client) -> None:
        assert "k" in await failure(client, "recall", {"question": "tea?", "k": 500})
        assert "question" in await failure(client, "recall", {"k": 3})
        text = await failure(
            client, "remember", {"memories": [{"content": "x", "type": "Opinion"}]}
        )
        assert "memories.0.type" in text
        assert "memories" in await failure(client, "remember", {})
        assert "memory_id" in await failure(client, "confirm", {"memory_id": "no-such-id"})
        assert "memory_id" in await failure(
            client, "correct", {"memory_id": "no-such-id", "content": "anything"}
        )
        assert "name" in await failure(client, "about_entity", {"name": "Nobody Known"})
        stats = await call(client, "stats", {})
        assert stats["counts"]["memories"] == 0  # nothing was written by the failures

    connect(body)


def test_neo4j_memory_tools(connect: Callable[..., None]) -> None:
    async def body(client: Client) -> None:
        entities = [
            {"name": "Erin Hale", "type": "person", "observations": ["Erin Hale speaks Dutch"]},
            {"name": "Globex", "type": "company", "observations": []},
        ]
        created = await call(client, "create_entities", {"entities": entities})
        assert created["result"] == entities
        relation = {"source": "Erin Hale", "target": "Globex", "relationType": "WORKS_AT"}
        assert (await call(client, "create_relations", {"relations": [relation]}))["result"] == [
            {**relation, "lemma": None}
        ]
        relation["lemma"] = None  # given as a type, not read from wording
        added = await call(
            client,
            "add_observations",
            {"observations": [{"entityName": "Globex", "observations": ["Globex sells widgets"]}]},
        )
        assert added["result"][0]["addedObservations"] == ["Globex sells widgets"]
        found = await call(client, "find_memories_by_name", {"names": ["Globex", "Nobody"]})
        assert [e["name"] for e in found["entities"]] == ["Globex"]
        assert set(found["entities"][0]["observations"]) == {
            "Globex is a company",
            "Globex sells widgets",
            "Erin Hale works at Globex",
        }
        assert relation in found["relations"]
        graph = await call(client, "read_graph", {})
        # (the entity extractor may add names it finds in the content, e.g. "Dutch")
        assert {e["name"] for e in graph["entities"]} >= {"Erin Hale", "Globex"}
        assert relation in graph["relations"]  # (the extractor may add relations of its own)
        searched = await call(
            client, "search_memories", {"query": "Which language does Erin speak?"}
        )
        erin = next(e for e in searched["entities"] if e["name"] == "Erin Hale")
        assert "Erin Hale speaks Dutch" in erin["observations"]

    connect(body)


def test_relations_carry_their_lemma(connect: Callable[..., None]) -> None:
    """A relation's wording ("start at" for WORKS_AT) comes back from every graph view;
    a type given without one comes back with lemma null; deleting ignores the lemma."""

    async def body(client: Client) -> None:
        worded = {
            "source": "Erin Hale",
            "target": "Globex",
            "relationType": "WORKS_AT",
            "lemma": "start at",
        }
        bare = {"source": "Erin Hale", "target": "Tomas Berg", "relationType": "FRIEND_OF"}
        created = await call(client, "create_relations", {"relations": [worded, bare]})
        assert created["result"] == [worded, {**bare, "lemma": None}]
        found = await call(client, "find_memories_by_name", {"names": ["Erin Hale"]})
        assert worded in found["relations"]
        assert {**bare, "lemma": None} in found["relations"]
        graph = await call(client, "read_graph", {})
        assert worded in graph["relations"]
        searched = await call(client, "search_memories", {"query": "Where does Erin work?"})
        assert worded in searched["relations"]
        too_long = {**worded, "lemma": "x" * 129}
        assert "lemma" in await failure(client, "create_relations", {"relations": [too_long]})
        report = await call(client, "delete_relations", {"relations": [{**worded, "lemma": None}]})
        assert report["memories"] == 1
        graph = await call(client, "read_graph", {})
        assert worded not in graph["relations"]

    connect(body)


def test_multi_namespace_mode_keeps_namespaces_apart(
    connect: Callable[..., None], new_namespace: Callable[[], str]
) -> None:
    a, b = new_namespace(), new_namespace()

    async def body(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "namespace" in listed["recall"].input_schema["required"]
        assert "namespace" not in listed["list_namespaces"].input_schema.get("properties", {})
        await call(client, "remember", {"namespace": a, "text": "Fay Lin collects stamps"})
        assert (await call(client, "stats", {"namespace": a}))["counts"]["memories"] == 1
        assert (await call(client, "stats", {"namespace": b}))["counts"]["memories"] == 0
        hits = await call(client, "recall", {"namespace": b, "question": "Fay Lin stamps"})
        assert hits["hits"] == []
        assert "namespace" in await failure(client, "stats", {"namespace": "bad namespace!"})

    connect(body, multi=True)


def test_check_answer_marks_each_claim(connect: Callable[..., None]) -> None:
    async def body(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        tool = listed["check_answer"]
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.input_schema["required"] == ["answer"]
        assert "namespace" not in tool.input_schema["properties"]
        written = await call(client, "remember", {"memories": [{"content": FIVE[1]}]})
        bob = written["memory_ids"][0]
        # the first claim is the memory word for word (cosine 1 with the test embedder);
        # the second names a city no memory holds
        report = await call(
            client,
            "check_answer",
            {"answer": f"{FIVE[1]}. Bob Stone lives in Madrid.", "memory_ids": [bob]},
        )
        assert [c["supported"] for c in report["claims"]] == [True, False]
        assert report["claims"][0]["memory_id"] == bob
        assert "Madrid" in report["claims"][1]["missing"]
        assert (report["faithfulness"], report["risk"]) == (0.5, "medium")
        recalled = await call(client, "check_answer", {"answer": FIVE[1], "question": "Bob?"})
        assert recalled["risk"] == "none" and bob in recalled["memory_ids"]
        text = await failure(client, "check_answer", {"answer": "x", "memory_ids": ["nope"]})
        assert "memories" in text

    connect(body)


def test_correcting_a_replaced_claims_past_says_its_successor_stays(
    connect: Callable[..., None],
) -> None:
    """`correct` on a replaced memory whose wrong value only it held corrects the past:
    the tool says that the successor stays current (docs/updates.md "correct follows the
    chain")."""

    async def body(client: Client) -> None:
        await call(client, "set_user", {"name": "Ava Lindqvist"})
        old = await call(client, "remember", {"text": "I teach Grade 9 science at Parkdale Collegiate in Toronto."})
        job = await call(client, "remember", {"text": "New job: science teacher at Dartmouth High School."})
        first, successor = old["memory_ids"][0], job["memory_ids"][0]
        assert (await call(client, "get_memory", {"memory_id": first}))["current"] is False
        fixed = await call(
            client, "correct",
            {"memory_id": first, "content": "In Toronto I taught at Western Tech, not Parkdale."},
        )
        assert fixed["old_id"] == first
        assert fixed["note"] is not None and successor in fixed["note"] and "stays current" in fixed["note"]
        assert (await call(client, "get_memory", {"memory_id": successor}))["current"] is True

    connect(body)
