"""The guards' commands on every store, in-process (typer's runner) with the test
embedder: ``faithfulness``, ``show-entity``, ``drift`` and ``consolidate --json``."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInputError, Settings
from graphmem.cli import common, guards_cmds
from graphmem.cli import main as cli
from graphmem.store.base import MemoryStore, WriteBatch
from tests.contract.builders import DIM, T0, make_entity, make_memory
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder

NOW = T0 + timedelta(days=200)


@pytest.fixture
def run(
    store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., tuple[int, str]]:
    """Runs ``graphmem ARGS`` against this test's store; returns (exit code, stdout)."""

    def open_memory(*_: Any, **__: Any) -> GraphMem:
        return GraphMem(
            Settings(), store=store_factory(), embedder=HashEmbedder(), clock=lambda: NOW
        )

    for module in (common, guards_cmds):  # each command module's facade
        monkeypatch.setattr(module, "open_memory", open_memory)
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(cli.app, list(args))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout

    return invoke


def direction(*head: float) -> tuple[float, ...]:
    norm = math.sqrt(sum(x * x for x in head))
    return tuple(x / norm for x in head) + (0.0,) * (DIM - len(head))


def test_guard_commands(run: Callable[..., tuple[int, str]], store: MemoryStore, ns: str) -> None:
    jordan, acme, ohio = (make_entity(ns, n) for n in ("Jordan", "Acme", "Ohio"))
    coworker = [
        make_memory(
            ns,
            f"Jordan works on the {topic} at Acme",
            observed_at=T0 + timedelta(days=i),
            mentions=[(jordan.id, "subject"), (acme.id, "object")],
            embedding=direction(1, 0),
        )
        for i, topic in enumerate(("login page", "billing page", "search page"))
    ]
    cousin = [
        make_memory(
            ns,
            f"Jordan visits the {place} in Ohio",
            observed_at=T0 + timedelta(days=100 + i),
            mentions=[(jordan.id, "subject"), (ohio.id, "object")],
            embedding=direction(0, 1),
        )
        for i, place in enumerate(("farm", "lake", "fair"))
    ]
    old = make_memory(
        ns,
        "Jordan has 2 kids",
        observed_at=T0,
        mentions=[(jordan.id, "subject")],
        embedding=direction(0, 0, 1),
    )
    new = make_memory(
        ns,
        "Jordan has 3 kids",
        observed_at=T0 + timedelta(days=50),
        mentions=[(jordan.id, "subject")],
        embedding=direction(0, 0, 0.9, math.sqrt(0.19)),  # cosine 0.9
    )
    tea = make_memory(ns, "Jordan drinks green tea daily", observed_at=T0)  # test embedding
    store.write(
        ns,
        WriteBatch(memories=[*coworker, *cousin, old, new, tea], entities=[jordan, acme, ohio]),
    )

    # faithfulness: one claim restates `tea` word for word (cosine 1), one changes 3 to 4
    code, out = run(
        "faithfulness",
        "-n",
        ns,
        "--json",
        "-m",
        tea.id,
        "-m",
        new.id,
        "Jordan drinks green tea daily. Jordan has 4 kids.",
    )
    report = json.loads(out)
    assert code == 1  # medium risk
    assert [c["supported"] for c in report["claims"]] == [True, False]
    assert report["claims"][1]["missing"] == ["4"]
    assert (report["faithfulness"], report["risk"]) == (0.5, "medium")
    code, out = run("faithfulness", "-n", ns, "-m", tea.id, "Jordan drinks green tea daily.")
    assert code == 0 and "risk none" in out

    # consolidate --json: the 2-vs-3 kids pair (cosine 0.9), the later stays; Jordan drifts
    code, out = run("consolidate", "-n", ns, "--json")
    assert code == 0
    report = json.loads(out)
    pairs = report["consistency"]["pairs"]
    assert [(p["kept_id"], p["superseded_id"], p["action"]) for p in pairs] == [
        (new.id, old.id, "superseded")
    ]
    assert pairs[0]["reason"].startswith("numbers:")
    assert [d["name"] for d in report["drift"]] == ["Jordan"]
    code, out = run("consolidate", "-n", ns)
    assert "consistency scan: 0 conflicting pairs" in out
    assert "entity Jordan: 2 senses since" in out

    # drift and show-entity
    code, out = run("drift", "-n", ns, "--json")
    drift = json.loads(out)
    assert [d["name"] for d in drift] == ["Jordan"]
    # splits at day 50 (before the kids memory) and day 100 both give distance 1.0 and
    # overlap 0; the earlier wins the tie
    assert drift[0]["split_at"].startswith((T0 + timedelta(days=50)).date().isoformat())
    assert set(drift[0]["before_ids"]) == {m.id for m in coworker}
    assert set(drift[0]["after_ids"]) == {new.id, *(m.id for m in cousin)}
    code, out = run("show-entity", "-n", ns, "Jordan", "--period", "month")
    assert code == 0
    assert "2024-01" in out and "2024-04" in out
    assert out.index("Jordan works on the search page") < out.index("2 senses since")
    assert out.index("2 senses since") < out.index("Jordan has 3 kids")
    assert out.index("2 senses since") < out.index("Jordan visits the farm in Ohio")
    assert "Jordan has 2 kids" not in out  # superseded: only with --include-history
    code, out = run("show-entity", "-n", ns, "Jordan", "--include-history", "--json")
    listed = json.loads(out)
    assert {m["id"] for m in listed["memories"]} >= {old.id, new.id}
    with pytest.raises(InvalidInputError, match="no entity named 'Nobody'"):
        run("show-entity", "-n", ns, "Nobody")  # main() prints it and exits 2
