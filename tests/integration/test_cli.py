"""The CLI as a user runs it: a subprocess, the real embedding model, a temp store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.model


def run(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``graphmem ARGS`` in a subprocess on a store under ``tmp_path``; ``env`` adds settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env = {**clean, "GRAPHMEM_DATA_DIR": str(tmp_path / "store"), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "graphmem.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def line(content: str, turn: str, **extra: object) -> str:
    row = {
        "content": content,
        "session_id": "s1",
        "turn_id": turn,
        "observed_at": "2024-05-01T10:00:00+00:00",
        "entities": [{"name": "Ada"}],
        **extra,
    }
    return json.dumps(row)


def test_malformed_line_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line("Ada builds looms", "t1") + "\n{not json\n", encoding="utf-8")
    result = run(tmp_path, "ingest", str(bad), "-n", "cli")
    assert result.returncode == 2
    assert "line 2" in result.stderr
    stats = run(tmp_path, "stats", "-n", "cli", "--json")
    assert stats.returncode == 1 and "namespace 'cli' does not exist" in stats.stderr


def test_unknown_type_names_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line("Ada builds looms", "t1", type="Opinion") + "\n", encoding="utf-8")
    result = run(tmp_path, "ingest", str(bad))
    assert result.returncode == 2
    assert "line 1: type" in result.stderr


def test_ingest_recall_show_forget(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(
        "\n".join(
            [
                line("Ada builds mechanical looms in her workshop", "t1"),
                line("Ada's favourite composer is Purcell", "t2", type="Preference"),
                line("The workshop floods every spring", "t3", session_id="s2"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    ingest = run(tmp_path, "ingest", str(good), "-n", "cli")
    assert ingest.returncode == 0, ingest.stderr
    assert "3 new" in ingest.stdout
    recall = run(
        tmp_path, "recall", "Which composer does Ada like?", "-n", "cli", "-k", "2", "--json"
    )
    assert recall.returncode == 0, recall.stderr
    payload = json.loads(recall.stdout)
    top = payload["hits"][0]
    assert "Purcell" in top["memory"]["content"]
    assert top["explanation"]["retrievers"]["semantic"]["rank"] >= 1
    assert payload["plan"] == "entity-centric"
    table = run(tmp_path, "recall", "Which composer does Ada like?", "-n", "cli", "--explain")
    assert "Purcell" in table.stdout and "plan entity-centric" in table.stdout
    show = run(tmp_path, "show", top["memory"]["id"], "-n", "cli")
    assert "observed in session s1 turn t2" in show.stdout
    dry = run(tmp_path, "forget", "--session", "s2", "-n", "cli", "--dry-run", "--json")
    assert len(json.loads(dry.stdout)["deleted"]) == 1
    empty = run(tmp_path, "recall", "  ", "-n", "cli")
    assert empty.returncode == 2 and "query.text" in empty.stderr
    missing = run(tmp_path, "show", "nope", "-n", "cli")
    assert missing.returncode == 2 and "no memory 'nope'" in missing.stderr


def test_recall_explain_shows_the_rules_and_the_learned_order(tmp_path: Path) -> None:
    """A newer claim about the cafe someone goes to comes first even for a question that
    names the old one; --explain says why: the rule that moved it, and the learned score
    that wanted the old claim higher but was held below it (docs/updates.md "The learned
    order")."""
    nia = tmp_path / "nia.jsonl"
    rows = [
        {"content": "Nia goes to Cafe Solberg every morning", "session_id": "s1",
         "observed_at": "2026-03-01T08:00:00+00:00"},
        {"content": "Nia goes to Cafe Fjordlys every morning now", "session_id": "s2",
         "observed_at": "2026-06-01T08:00:00+00:00"},
    ]  # fmt: skip
    nia.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert run(tmp_path, "ingest", str(nia), "-n", "cli").returncode == 0
    table = run(tmp_path, "recall", "Does Nia go to Cafe Solberg?", "-n", "cli", "--explain")
    assert table.returncode == 0, table.stderr
    assert table.stdout.index("Fjordlys") < table.stdout.index("Solberg every")
    assert "#1 moved above" in table.stdout and "an older memory it contradicts" in table.stdout
    assert "#2 learned order: score" in table.stdout
    assert "rule order 2; kept below rule order 1" in table.stdout


def test_recall_no_record_access_changes_nothing(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(line("Ada's favourite composer is Purcell", "t1") + "\n", encoding="utf-8")
    assert run(tmp_path, "ingest", str(good), "-n", "cli").returncode == 0

    def accesses(*flags: str) -> int:
        done = run(tmp_path, "recall", "Ada's composer", "-n", "cli", "--json", *flags)
        assert done.returncode == 0, done.stderr
        return int(json.loads(done.stdout)["hits"][0]["memory"]["access_count"])

    assert accesses("--no-record-access") == 0
    assert accesses("--no-record-access") == 0  # looking twice changed nothing
    accesses()  # the default counts the recall as use
    assert accesses("--no-record-access") == 1


def test_demo_runs(tmp_path: Path) -> None:
    result = run(tmp_path, "demo")
    assert result.returncode == 0, result.stderr
    assert "multi-hop" in result.stdout
    assert "plan entity-centric" in result.stdout
    # it says what built the graph: the default install has no spaCy, the dev install has
    from graphmem.extract import nlp_available

    extractor = "ner" if nlp_available() else "capitalized"
    assert f"entity extractor {extractor}" in result.stdout


def test_embedded_store_past_its_size_says_use_neo4j(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        "\n".join(
            line(text, f"t{n}")
            for n, text in enumerate(
                [
                    "Ada planted tulip bulbs by the gate",
                    "Ada's brother repairs vintage motorbikes",
                    "The village choir rehearses on Thursdays",
                ]
            )
        )
        + "\n",
        encoding="utf-8",
    )
    small = {"GRAPHMEM_EMBEDDED_WARN_SIZE": "2"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return run(tmp_path, *args, env=small)

    first = cli("ingest", str(rows), "-n", "big", "--batch-size", "2")
    assert first.returncode == 0, first.stderr
    assert "3 memories is past the embedded store's comfortable size (2" in first.stderr
    assert "Neo4j" in first.stderr
    stats = cli("stats", "-n", "big")
    assert "past the embedded store's comfortable size" in stats.stderr
    written = cli("remember", "Ada builds looms", "-n", "other")
    assert written.returncode == 0, written.stderr
    other = cli("stats", "-n", "other")  # a small namespace of the same store: no warning
    assert other.returncode == 0 and "warning" not in other.stderr


@pytest.mark.parametrize(("extractor", "relations"), [("ner", 2), ("capitalized", 1)])
def test_ingest_extractor_choice(tmp_path: Path, extractor: str, relations: int) -> None:
    """Without caller-given entities, --extractor decides what the graph gets: ner parses
    SISTER_OF and WORK_AT; capitalized only the role statement's SISTER_OF (its
    patterns read no verbs)."""
    rows = tmp_path / "rows.jsonl"
    text = "Maya's sister Priya Raman started working at Lumen Labs."
    rows.write_text(json.dumps({"content": text, "session_id": "s1"}) + "\n", encoding="utf-8")
    done = run(tmp_path, "ingest", str(rows), "-n", "x", "--extractor", extractor)
    assert done.returncode == 0, done.stderr
    stats = run(tmp_path, "stats", "-n", "x", "--json")
    assert json.loads(stats.stdout)["relations"] == relations


def test_rekey_builds_and_clears_contextual_keys(tmp_path: Path) -> None:
    # issue 15: memories written with keys off have none; rekey builds them from the
    # stored turns of each session, and with keys off clears them again
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        "\n".join(
            [
                line("Ada: How was the loom fair?", "D1:1"),
                line("Bo: Great, we went yesterday!", "D1:2"),
                line("Ada: Lovely.", "D1:3"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    off = {"GRAPHMEM_CONTEXTUAL_KEYS": "false"}
    assert run(tmp_path, "ingest", str(turns), "-n", "cli", env=off).returncode == 0
    before = run(tmp_path, "recall", "loom fair", "-n", "cli", "--json")
    assert bm25_found(before.stdout) == {"Ada: How was the loom fair?"}
    rekey = run(tmp_path, "rekey", "-n", "cli", "--json")
    assert rekey.returncode == 0, rekey.stderr
    assert json.loads(rekey.stdout) == [{"namespace": "cli", "memories": 3, "changed": 3}]
    after = run(tmp_path, "recall", "loom fair", "-n", "cli", "--json")
    # through its key (the turn before it), BM25 finds the answer that names no fair
    assert "Bo: Great, we went yesterday!" in bm25_found(after.stdout)
    again = run(tmp_path, "rekey", "-n", "cli", "--json")
    assert json.loads(again.stdout)[0]["changed"] == 0
    cleared = run(tmp_path, "rekey", "--all", "--json", env=off)
    assert json.loads(cleared.stdout)[0]["changed"] == 3
    none = run(tmp_path, "rekey", "--json")
    assert none.returncode == 2


def bm25_found(recall_json: str) -> set[str]:
    """Contents of the hits of a ``recall --json`` that the BM25 retriever ranked."""
    hits = json.loads(recall_json)["hits"]
    return {h["memory"]["content"] for h in hits if "bm25" in h["explanation"]["retrievers"]}
