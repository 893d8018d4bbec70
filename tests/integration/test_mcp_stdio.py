"""``graphmem mcp`` as an MCP client starts it: a subprocess over stdio, the real
embedding model, a temp embedded store (issue 14's done-when session)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

pytestmark = pytest.mark.model

FIVE = [
    "Alice Walker prefers green tea in the morning",
    "Bob Stone works at Acme Corp as an engineer",
    "Alice Walker moved to Lisbon in 2021",
    "The team offsite is planned for Porto in June",
    "Bob Stone plays the cello on weekends",
]
QUESTIONS = {
    "What does Alice drink in the morning?": FIVE[0],
    "Where does Bob work?": FIVE[1],
    "Where does Alice live?": FIVE[2],
    "Where is the offsite?": FIVE[3],
    "Which instrument does Bob play?": FIVE[4],
}


def test_stdio_session_remembers_five_and_recalls_them(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphmem.cli.main", "mcp", "-n", "agent", "--data-dir", str(tmp_path)],
        env=env,
    )
    answers: dict[str, Any] = {}

    async def session() -> None:
        async with Client(server, read_timeout_seconds=300) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"remember", "recall"} <= names
            written = await client.call_tool(
                "remember", {"memories": [{"content": c} for c in FIVE], "session_id": "chat-1"}
            )
            assert not written.is_error
            assert written.structured_content is not None
            assert len(written.structured_content["created"]) == 5
            for question in QUESTIONS:
                result = await client.call_tool("recall", {"question": question, "k": 3})
                assert not result.is_error
                assert result.structured_content is not None
                answers[question] = result.structured_content

    asyncio.run(session())
    for question, expected in QUESTIONS.items():
        hits = answers[question]["hits"]
        found = next((h for h in hits if h["content"] == expected), None)
        assert found is not None, (question, [h["content"] for h in hits])
        assert found["sessions"] == ["chat-1"] and 0 < found["confidence"] <= 1
