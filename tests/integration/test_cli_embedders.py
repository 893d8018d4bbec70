"""Switching embedders as a user does it (issue 17): a subprocess per command, an
OpenAI-compatible stub server on 127.0.0.1 serving two "models", a temp store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.stub_embeddings_server import embeddings_server


def run(tmp_path: Path, url: str, model: str, *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env = {
        **clean,
        "GRAPHMEM_DATA_DIR": str(tmp_path / "store"),
        "GRAPHMEM_EMBEDDER": "openai",
        "GRAPHMEM_EMBEDDING_BASE_URL": url,
        "GRAPHMEM_EMBEDDING_MODEL": model,
    }
    return subprocess.run(
        [sys.executable, "-m", "graphmem.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_a_namespace_written_by_one_model_is_refused_by_another_until_reembedded(
    tmp_path: Path,
) -> None:
    rows = [
        {"content": "Ada builds looms in Leeds", "session_id": "s1"},
        {"content": "Ada prefers green tea", "session_id": "s1", "type": "Preference"},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with embeddings_server(dim=384) as (url, state):
        written = run(tmp_path, url, "stub-a", "ingest", str(source), "-n", "cli")
        assert written.returncode == 0, written.stderr

        refused = run(tmp_path, url, "stub-b", "recall", "-n", "cli", "what does Ada drink?")
        assert refused.returncode == 2
        message = " ".join(refused.stderr.split())
        assert "'openai:stub-a' (384-d)" in message and "'openai:stub-b' (384-d)" in message
        assert "graphmem reembed -n cli" in message

        usage = run(tmp_path, url, "stub-b", "reembed")
        assert usage.returncode == 2 and "--all" in usage.stderr

        converted = run(tmp_path, url, "stub-b", "reembed", "-n", "cli", "--json")
        assert converted.returncode == 0, converted.stderr
        (report,) = json.loads(converted.stdout)
        assert report["memories"] == 2
        assert report["before"] == "'openai:stub-a' (384-d)"
        assert report["after"] == "'openai:stub-b' (384-d)"

        answered = run(tmp_path, url, "stub-b", "recall", "-n", "cli", "green tea", "--json")
        assert answered.returncode == 0, answered.stderr
        assert "green tea" in answered.stdout
        assert {r["model"] for r in state.requests} == {"stub-a", "stub-b"}

        back = run(tmp_path, url, "stub-a", "recall", "-n", "cli", "green tea")
        assert back.returncode == 2 and "stub-b" in back.stderr
