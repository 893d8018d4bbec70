"""The guards' commands as a user runs them: a subprocess, the real embedding model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.test_cli import run

pytestmark = pytest.mark.model


def test_faithfulness_recalls_and_flags_a_changed_number(tmp_path: Path) -> None:
    rows = [
        {
            "content": "Alice works at Google as a software engineer.",
            "entities": [{"name": "Alice"}],
        },
        {"content": "Alice moved to Berlin on 14 August 2021.", "entities": [{"name": "Alice"}]},
        {"content": "Bob has three kids: Mia, Leo and Sam.", "entities": [{"name": "Bob"}]},
    ]
    path = tmp_path / "memories.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert run(tmp_path, "ingest", str(path), "-n", "cli").returncode == 0

    good = run(
        tmp_path, "faithfulness", "-n", "cli", "--query", "Where does Alice live?", "--json",
        "Alice moved to Berlin in August 2021.",
    )  # fmt: skip
    assert good.returncode == 0, good.stderr
    report = json.loads(good.stdout)
    assert (report["faithfulness"], report["risk"]) == (1.0, "none")

    bad = run(
        tmp_path, "faithfulness", "-n", "cli", "--json",
        "Alice moved to Berlin in August 2021. She moved to Berlin in August 2020.",
    )  # fmt: skip
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert [c["supported"] for c in report["claims"]] == [True, False]
    assert report["claims"][1]["missing"] == ["2020"]
    assert report["risk"] == "medium"

    shown = run(tmp_path, "show-entity", "-n", "cli", "Alice")
    assert shown.returncode == 0
    assert "2021-08" in shown.stdout and "Alice moved to Berlin" in shown.stdout
    unknown = run(tmp_path, "show-entity", "-n", "cli", "Nobody")
    assert unknown.returncode == 2 and "no entity named 'Nobody'" in unknown.stderr
