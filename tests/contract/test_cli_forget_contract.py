"""``graphmem forget`` as users run it (typer's runner, in-process, the test embedder) on
every store (SPEC §9.16): a memory by the id start tables show, an entity with its dry
run and its refusal without ``--yes``, the deletion log, and never silently nothing —
an unknown namespace, session, memory id or entity exits 1 naming what exists, for
``forget``, ``export`` and ``stats`` alike."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, Settings
from graphmem.cli import common, data_cmds
from graphmem.cli import main as cli
from graphmem.store.base import MemoryStore
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
Run = Callable[..., tuple[int, str]]
PARIS = "Dana Whitfield lives in Paris"
BERLIN = "Dana Whitfield lives in Berlin"
BOB = "Bob Stone plays chess"


@pytest.fixture
def run(store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Runs ``graphmem ARGS`` against this test's store; returns (exit code, output)."""

    def open_memory(*_: Any, **__: Any) -> GraphMem:
        return GraphMem(Settings(), store=store_factory(), embedder=HashEmbedder())

    monkeypatch.setattr(common, "open_memory", open_memory)
    monkeypatch.setattr(data_cmds, "open_memory", open_memory)
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(cli.app, list(args))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, " ".join(result.output.split())  # rich wraps lines

    return invoke


@pytest.fixture
def ids(store: MemoryStore, ns: str) -> dict[str, str]:
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), owns_store=False)
    dana = {"name": "Dana Whitfield", "kind": "person", "role": "subject"}
    for day, (content, city) in enumerate(((PARIS, "Paris"), (BERLIN, "Berlin")), start=1):
        gm.remember(
            ns,
            [
                {
                    "content": content,
                    "extractor": "verbatim",
                    "session_id": f"day{day}",
                    "turn_id": f"day{day}:1",
                    "observed_at": (T0 + timedelta(days=day)).isoformat(),
                    "subject": "Dana Whitfield",
                    "predicate": "lives_in",
                    "object": city,
                    "entities": [dana, {"name": city, "role": "object"}],
                }
            ],
        )
    bob = {"name": "Bob Stone", "kind": "person", "role": "subject"}
    gm.remember(
        ns, [{"content": BOB, "extractor": "verbatim", "session_id": "day3", "entities": [bob]}]
    )
    found = {m.content: m.id for m in gm.list_memories(ns)}
    gm.close()
    return found


def test_forget_memory_by_its_id_start_then_again(run: Run, ns: str, ids: dict[str, str]) -> None:
    code, out = run("forget", "--memory", ids[BERLIN][:8], "-n", ns)
    assert code == 0, out
    assert "forgot 2 memories, 2 observations" in out  # Berlin and the Paris it superseded
    code, out = run("forget", "--memory", ids[BERLIN], "-n", ns, "--json")
    assert code == 0 and json.loads(out)["already_forgotten"] is True
    code, out = run("stats", "-n", ns, "--json")
    assert json.loads(out)["memories"] == 1


def test_forget_entity_asks_for_yes_and_dry_runs(run: Run, ns: str, ids: dict[str, str]) -> None:
    code, out = run("forget", "--entity", "Dana Whitfield", "-n", ns, "--dry-run")
    assert code == 0 and "would forget 2 memories" in out and PARIS in out
    code, out = run("forget", "--entity", "Dana Whitfield", "-n", ns)  # no terminal, no --yes
    assert code == 1 and "needs --yes" in out
    assert json.loads(run("stats", "-n", ns, "--json")[1])["memories"] == 3
    code, out = run("forget", "--entity", "dana whitfield", "-n", ns, "--yes")
    assert code == 0 and "forgot 2 memories" in out
    code, out = run("forget", "--log", "-n", ns, "--json")
    log = json.loads(out)
    assert code == 0 and [(e["kind"], e["command"]) for e in log] == [
        ("entity", "graphmem forget --entity")
    ]
    assert log[0]["counts"]["memories"] == 2 and "Dana" not in out


@pytest.mark.parametrize(
    "args",
    [
        ("forget", "--session", "day1"),
        ("forget", "--memory", "0123abcd"),
        ("forget", "--entity", "Bob Stone", "--yes"),
        ("stats",),
        ("export",),
    ],
)
def test_a_mistyped_namespace_exits_1_naming_the_namespaces(
    run: Run, ns: str, ids: dict[str, str], args: tuple[str, ...]
) -> None:
    code, out = run(*args, "-n", ns + "x")
    assert code == 1, out
    assert f"{ns + 'x'!r}" in out and ns in out.replace(ns + "x", "")


def test_unknown_session_memory_and_entity_exit_1_naming_what_exists(
    run: Run, ns: str, ids: dict[str, str], tmp_path: Path
) -> None:
    code, out = run("forget", "--session", "day9", "-n", ns)
    assert code == 1 and "day1, day2, day3" in out
    code, out = run("forget", "--memory", "0123abcd", "-n", ns)
    assert code == 1 and "3 memories there" in out
    code, out = run("forget", "--entity", "Nobody", "-n", ns, "--yes")
    assert code == 1 and "Bob Stone" in out and "Dana Whitfield" in out
    code, out = run("export", "-n", ns + "x", "-o", str(tmp_path / "backup.jsonl"))
    assert code == 1 and not (tmp_path / "backup.jsonl").exists()
    code, out = run("forget", "-n", ns)
    assert code == 2 and "exactly one of" in out


def test_forget_session_is_logged_and_a_repeat_reports_nothing_left(
    run: Run, ns: str, ids: dict[str, str]
) -> None:
    code, out = run("forget", "--session", "day3", "-n", ns)
    assert code == 0 and "did delete 1 memories" in out  # Bob's only memory
    code, out = run("forget", "--session", "day3", "-n", ns)
    assert code == 0 and "already forgotten" in out
    code, out = run("forget", "--log", "-n", ns, "--json")
    log = json.loads(out)
    assert [(e["kind"], e["counts"]["memories"], e["counts"]["sessions"]) for e in log] == [
        ("session", 1, 1)
    ]
    assert "day3" not in out and "Bob" not in out
