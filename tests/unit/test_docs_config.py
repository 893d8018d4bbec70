"""docs/configuration.md is generated from graphmem.Settings and must not go stale.

The page is written by scripts/gen_config_doc.py; when a setting is added, renamed, or its
default, range or description changes, these tests fail until the page is regenerated
(`python scripts/gen_config_doc.py`).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from graphmem.settings import LEAF_PATHS, PRESETS

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "configuration.md"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_config_doc", ROOT / "scripts" / "gen_config_doc.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_configuration_page_is_current() -> None:
    expected = _generator().render()
    assert PAGE.read_text(encoding="utf-8") == expected, (
        "docs/configuration.md is stale: run `python scripts/gen_config_doc.py`"
    )


def test_every_setting_has_a_row_with_its_environment_variable() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name, path in LEAF_PATHS.items():
        assert f"| `{'.'.join(path)}` | `GRAPHMEM_{name.upper()}` |" in page, name
    for name in PRESETS:
        assert f"| `{name}` |" in page, name


def test_rows_are_grouped_by_concern() -> None:
    page = PAGE.read_text(encoding="utf-8")
    sections = {part.split("\n", 1)[0]: part for part in page.split("\n## ")[1:]}
    assert "| `store.neo4j_uri` |" in sections["Store"]
    assert "| `read.fusion.rrf_k` |" in sections["Read: fusion"]
    assert "| `read.graph.max_hops` |" in sections["Read: graph"]
    assert "| `guards.drift_distance` |" in sections["Guards and monitors"]
    assert "| `llm.llm_model` |" in sections["LLM extraction and judge"]


def test_check_mode_fails_on_a_stale_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    generator = _generator()
    stale = tmp_path / "docs" / "configuration.md"
    stale.parent.mkdir()
    stale.write_text(generator.render().replace("`GRAPHMEM_RRF_K`", "`GRAPHMEM_RRF`"))
    monkeypatch.setattr(generator, "ROOT", tmp_path)
    monkeypatch.setattr(generator, "PAGE", stale)
    assert generator.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().out
    assert generator.main([]) == 0
    assert generator.main(["--check"]) == 0
