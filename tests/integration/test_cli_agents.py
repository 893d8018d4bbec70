"""The CLI as the API's twin (issue 14): namespaces, remember, export / import, recall
options, one ``--json`` meaning, and model-free commands that never import the model
library. Subprocesses on a temp embedded store, as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MODEL_MODULES = ("torch", "sentence_transformers", "transformers")

# Runs the CLI in-process (as the console script does) and reports which model
# modules got imported; exit codes of the command itself are not the point here.
_PROBE = """
import json, sys
from graphmem.cli.main import main
sys.argv = ["graphmem", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print("MODULES=" + json.dumps(sorted(m for m in {mods} if m in sys.modules)), file=sys.stderr)
""".replace("{mods}", repr(MODEL_MODULES))


def env_for(tmp_path: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    return {**clean, "GRAPHMEM_DATA_DIR": str(tmp_path / "store")}


def run(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "graphmem.cli.main", *args],
        capture_output=True,
        text=True,
        env=env_for(tmp_path),
        input=stdin,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["stats", "-n", "x"],
        ["stats", "-n", "x", "--json"],
        ["show", "no-such-id", "-n", "x"],
        ["namespaces"],
        ["doctor"],
        ["forget", "--session", "s1", "-n", "x", "--dry-run"],
        ["delete-namespace", "-n", "x"],
        ["consolidate", "-n", "x"],
        ["export", "-n", "x"],
        ["bench", "--help"],
        ["recall", "--help"],
    ],
    ids=lambda args: " ".join(args),
)
def test_model_free_commands_never_import_the_model_library(
    tmp_path: Path, args: list[str]
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        capture_output=True,
        text=True,
        env=env_for(tmp_path),
        timeout=120,
        check=False,
    )
    loaded = [line for line in result.stderr.splitlines() if line.startswith("MODULES=")]
    assert loaded, result.stderr
    assert json.loads(loaded[-1].removeprefix("MODULES=")) == [], result.stderr


def test_help_points_agents_to_the_mcp_server_and_bench_files_use_json_out(
    tmp_path: Path,
) -> None:
    recall_help = run(tmp_path, "recall", "--help").stdout
    assert "graphmem mcp" in recall_help and "--reference-time" in recall_help
    top = run(tmp_path, "--help").stdout
    for command in ("namespaces", "remember", "export", "import", "mcp"):
        assert f" {command} " in top, command
    for bench in ("latency", "ingest", "locomo", "lifecycle", "forget", "import-locomo"):
        text = run_bench(tmp_path, bench, "--help").stdout
        assert "--json-out" in text and "--json " not in text, bench


def run_bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bench ...`` at the repository root, as docs/benchmarks.md runs it."""
    return subprocess.run(
        [sys.executable, "-m", "bench", *args],
        capture_output=True,
        text=True,
        env=env_for(tmp_path),
        cwd=Path(__file__).parents[2],
        timeout=300,
        check=False,
    )


def test_graphmem_lists_user_commands_only_and_points_at_the_bench(tmp_path: Path) -> None:
    top = run(tmp_path, "--help").stdout
    assert " bench " not in top and "import-locomo" not in top and "locomo" not in top
    for args in (
        ["bench", "locomo", "dev.json", "--corpus", "turns"],
        ["import-locomo", "dev.json"],
    ):
        moved = run(tmp_path, *args)
        assert moved.returncode == 2
        wanted = "python -m bench " + " ".join(args[1:] if args[0] == "bench" else args)
        assert wanted in " ".join(moved.stderr.split()), moved.stderr
    bench_help = run_bench(tmp_path, "--help")
    assert bench_help.returncode == 0, bench_help.stderr
    for command in ("locomo", "import-locomo", "lifecycle", "forget", "latency", "ingest"):
        assert f" {command} " in bench_help.stdout, command


@pytest.mark.model
def test_remember_namespaces_export_import_recall(tmp_path: Path) -> None:
    first = run(tmp_path, "remember", "Ada Lovelace prefers Earl Grey tea", "-n", "a", "--json")
    assert first.returncode == 0, first.stderr
    created = json.loads(first.stdout)
    assert created["namespace"] == "a" and len(created["created"]) == 1
    second = run(
        tmp_path,
        "remember",
        "Ada Lovelace visited Paris in May 2023",
        "-n",
        "a",
        "--type",
        "Event",
        "--session",
        "trip",
    )
    assert second.returncode == 0 and "new memory" in second.stdout, second.stderr
    assert "Loading weights" not in first.stderr + second.stderr
    bad = run(tmp_path, "remember", "x", "-n", "a", "--type", "Opinion")
    assert bad.returncode == 2 and "type" in bad.stderr

    listed = json.loads(run(tmp_path, "namespaces", "--json").stdout)
    assert listed == {"namespaces": {"a": 2}}

    exported = run(tmp_path, "export", "-n", "a")
    assert exported.returncode == 0, exported.stderr
    records = [json.loads(line) for line in exported.stdout.splitlines()]
    assert records[0]["graphmem_export"] == 1
    assert sorted(r["record"] for r in records[1:] if r["record"] == "memory") == ["memory"] * 2
    imported = run(tmp_path, "import", "-", "-n", "b", "--json", stdin=exported.stdout)
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["memories"] == 2
    stats_a = json.loads(run(tmp_path, "stats", "-n", "a", "--json").stdout)
    stats_b = json.loads(run(tmp_path, "stats", "-n", "b", "--json").stdout)
    assert {**stats_a, "namespace": "b"} == stats_b
    again = run(tmp_path, "import", "-", "-n", "b", stdin=exported.stdout)
    assert again.returncode == 2 and "already holds data" in again.stderr

    events = run(
        tmp_path,
        "recall",
        "Where was Ada last month?",
        "-n",
        "b",
        "--type",
        "Event",
        "--reference-time",
        "2023-06-15T12:00:00+00:00",
        "--json",
    )
    assert events.returncode == 0, events.stderr
    result = json.loads(events.stdout)
    assert [h["memory"]["content"] for h in result["hits"]] == [
        "Ada Lovelace visited Paris in May 2023"
    ]
    assert result["time_window"] is not None and result["time_window"][0].startswith("2023-05")
    naive = run(tmp_path, "recall", "x", "-n", "b", "--reference-time", "yesterday")
    assert naive.returncode == 2 and "reference_time" in naive.stderr
