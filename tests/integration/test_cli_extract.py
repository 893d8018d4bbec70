"""``graphmem ingest --extract`` as a user runs it (issue 12, SPEC §11): a subprocess per
command, a conversation file, the chat model and the embedder both local stub servers
on 127.0.0.1 (never a real service), a temp store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stub_chat_server import Reply, chat_server
from tests.stub_embeddings_server import embeddings_server

pytest.importorskip("openai", reason="extra graphmem[llm] not installed")


def run(tmp_path: Path, chat: str, embed: str, *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env = {
        **clean,
        "GRAPHMEM_DATA_DIR": str(tmp_path / "store"),
        "GRAPHMEM_EMBEDDER": "openai",
        "GRAPHMEM_EMBEDDING_BASE_URL": embed,
        "GRAPHMEM_EMBEDDING_MODEL": "stub-embed",
        "GRAPHMEM_EXTRACTOR": "capitalized",
        "GRAPHMEM_LLM_BASE_URL": chat,
        "GRAPHMEM_LLM_MODEL": "stub-chat",
        "GRAPHMEM_LLM_MAX_RETRIES": "0",
    }
    return subprocess.run(
        [sys.executable, "-m", "graphmem.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


MEMORY = {
    "message": 1,
    "content": "Nadia works at Corvid Bakery.",
    "type": "Fact",
    "source_level": "direct",
    "hearsay": False,
    "entities": [{"name": "Nadia", "kind": "Person", "role": "subject"}],
    "relations": [],
    "subject": "Nadia",
    "predicate": "works_at",
    "object": "Corvid Bakery",
    "event_time": None,
}


def test_ingest_extract_writes_what_the_model_found(tmp_path: Path) -> None:
    conversation = tmp_path / "chat.txt"
    conversation.write_text(
        "Omar: How is the new job?\nNadia: Great, I work at Corvid Bakery now.\n\n",
        encoding="utf-8",
    )
    with chat_server() as (chat, state), embeddings_server(dim=384) as (embed, _):
        state.replies = [Reply(text=json.dumps({"memories": [MEMORY]}))]
        done = run(
            tmp_path, chat, embed, "ingest", str(conversation), "-n", "c", "--extract",
            "--session", "s9", "--json",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {
            "namespace": "c",
            "model": "stub-chat",
            "messages": 2,
            "candidates": 1,
            "created": 1,
            "merged": 0,
            "superseded": 0,
            "rejected": 0,
        }
        user = state.requests[0]["messages"][1]["content"]
        sent = [json.loads(x) for x in user.splitlines() if x.startswith("{")]
        assert [(m["speaker"], m["text"]) for m in sent] == [
            ("Omar", "How is the new job?"),
            ("Nadia", "Great, I work at Corvid Bakery now."),
        ]
        listed = run(tmp_path, chat, embed, "list", "-n", "c", "--json")
        assert listed.returncode == 0, listed.stderr
        (row,) = json.loads(listed.stdout)["memories"]
        assert row["content"] == "Nadia works at Corvid Bakery."
        assert row["extractor"] == "stub-chat"


def test_ingest_extract_failure_is_one_clear_line_and_writes_nothing(tmp_path: Path) -> None:
    conversation = tmp_path / "chat.jsonl"
    conversation.write_text(json.dumps({"speaker": "Nadia", "content": "Hi"}) + "\n")
    with chat_server() as (chat, state), embeddings_server(dim=384) as (embed, _):
        state.replies = [Reply(status=500)]
        failed = run(tmp_path, chat, embed, "ingest", str(conversation), "-n", "c", "--extract")
        assert failed.returncode == 2
        message = " ".join(failed.stderr.split())
        assert "error:" in message and "(model 'stub-chat') answered 500" in message
        assert "Traceback" not in failed.stderr
        # nothing was written: the namespace does not exist (stats names what does)
        stats = run(tmp_path, chat, embed, "stats", "-n", "c", "--json")
        assert stats.returncode == 1, stats.stderr
        assert "namespace 'c' does not exist" in stats.stderr
