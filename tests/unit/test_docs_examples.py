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
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/graphmem demo\n"
        "scripts/test.sh\n"
    )
