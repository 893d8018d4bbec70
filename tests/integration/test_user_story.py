"""One person's story over five sessions, told the way an agent tells it (SPEC
§9.13-§9.15; docs/updates.md): first person, one statement per call, a move, a job
change, a diet change, a birthday correction, a negation, a restatement, repeated
events and a coworker as distractor (tests/data/user_story.json, written for this
test). Through the MCP server over stdio with the official client and through the
API, on both stores, every phase (fresh, after use, consolidated +1 and +120 days):
at least 9 of the 10 questions have the current fact first, and no stale fact ranks
above the current one."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from bench.user_path.data import load_file
from bench.user_path.doors import ApiDoor, McpDoor
from bench.user_path.run import PHASES, run

STORY = Path(__file__).resolve().parents[1] / "data" / "user_story.json"

pytestmark = pytest.mark.model


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def neo4j_uri(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """None (the embedded store), or the session's Neo4j with its credentials in the
    environment the doors read (no password: a local server without auth)."""
    if request.param == "embedded":
        return None
    server = request.getfixturevalue("neo4j_server")
    monkeypatch.delenv("GRAPHMEM_NEO4J_PASSWORD", raising=False)
    if server.password:
        monkeypatch.setenv("GRAPHMEM_NEO4J_USER", server.user or "neo4j")
        monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", server.password)
    uri: str = server.uri
    return uri


@pytest.mark.parametrize("door_kind", ["api", "mcp"])
def test_the_story_comes_back_current(
    tmp_path: Path, neo4j_uri: str | None, door_kind: str, request: pytest.FixtureRequest
) -> None:
    door = (ApiDoor if door_kind == "api" else McpDoor)(tmp_path, neo4j_uri)
    # a namespace of its own on every run: a Neo4j server keeps what earlier runs wrote
    prefix = f"story-{door_kind}-{request.node.callspec.id}-{uuid.uuid4().hex[:8]}"
    try:
        results = run(door, load_file(STORY), "plain", uses=20, prefix=prefix)
    finally:
        door.close()
    for phase in PHASES:
        tally = results[phase]
        assert tally.first >= 9, (phase, tally.failures)
        assert tally.stale_out == 0, (phase, tally.failures)
