"""``graphmem mcp`` as an MCP client starts it: a subprocess over stdio (issue 14's
done-when session) or streamable HTTP, the real embedding model, a temp embedded store."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_streamable_http_multi_namespace(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    log = tmp_path / "server.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "graphmem.cli.main", "mcp", "--transport", "streamable-http",
             "--port", str(port), "--multi-namespace", "--data-dir", str(tmp_path / "store")],
            stdout=sink, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while "graphmem MCP server ready" not in log.read_text() or "Uvicorn running" not in (
            log.read_text()
        ):
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        outputs: dict[str, Any] = {}

        async def session() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                text = "Ines Duarte teaches chemistry in Braga"
                written = await client.call_tool("remember", {"namespace": "web", "text": text})
                assert not written.is_error, written.content
                for ns in ("web", "other"):
                    found = await client.call_tool(
                        "recall", {"namespace": ns, "question": "What does Ines teach?"}
                    )
                    outputs[ns] = found.structured_content
                names = await client.call_tool("list_namespaces", {})
                outputs["namespaces"] = names.structured_content

        asyncio.run(session())
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert [h["content"] for h in outputs["web"]["hits"]] == [
        "Ines Duarte teaches chemistry in Braga"
    ]
    assert outputs["other"]["hits"] == []
    assert outputs["namespaces"] == {"namespaces": ["web"], "current": None}
