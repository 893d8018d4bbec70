"""The lifecycle commands of the CLI on every store, run in-process (typer's runner)
with the test embedder: ``show --history``, ``recall --profile``, ``consolidate``,
``delete-namespace`` and ``forget --dry-run``."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInputError, Settings
from graphmem.cli import common
from graphmem.cli import main as cli
from graphmem.store.base import MemoryStore, WriteBatch
from tests.contract.builders import T0, cosine, make_entity, make_memory
from tests.contract.conftest import StoreFactory
from tests.contract.lifecycle_data import expected_links, workshop
from tests.fakes import HashEmbedder

NOW = T0 + timedelta(days=10)


@pytest.fixture
def run(
    store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., tuple[int, str]]:
    """Runs ``graphmem ARGS`` against this test's store; returns (exit code, stdout)."""

    def open_memory(*_: Any, **__: Any) -> GraphMem:
        return GraphMem(Settings(), store=store_factory(), embedder=HashEmbedder(), clock=clock)

    def clock() -> Any:
        return NOW

    monkeypatch.setattr(common, "open_memory", open_memory)
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(cli.app, list(args))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout

    return invoke


def facade(store: MemoryStore) -> GraphMem:
    return GraphMem(
        Settings(), store=store, embedder=HashEmbedder(), clock=lambda: NOW, owns_store=False
    )


def cand(content: str, turn: str, session: str = "s1") -> dict[str, Any]:
    return {
        "content": content,
        "extractor": "verbatim",
        "session_id": session,
        "turn_id": turn,
        "observed_at": T0.isoformat(),
    }


def test_show_history_lists_the_correction_chain(
    run: Callable[..., tuple[int, str]], store: MemoryStore, ns: str
) -> None:
    gm = facade(store)
    first = gm.remember(ns, [cand("Hana's birthday is in May", "t1")]).created[0]
    _, new = gm.correct(ns, first, "Hana's birthday is in June")
    gm.close()
    code, out = run("show", first, "-n", ns, "--history", "--json")
    assert code == 0
    chain = json.loads(out)
    assert [(m["id"], m["superseded_by"]) for m in chain] == [(first, new.id), (new.id, None)]
    assert chain[0]["valid_until"] is not None
    code, out = run("show", first, "-n", ns, "--json")
    assert [m["id"] for m in json.loads(out)] == [first]
    code, out = run("show", first, "-n", ns, "--history")
    assert code == 0 and first in out and new.id in out and "June" in out


def test_recall_profile_option_selects_the_ranking(
    run: Callable[..., tuple[int, str]], store: MemoryStore, ns: str
) -> None:
    rows = {"Bea drinks green tea every morning": (0.9, 0.95), "Bea drinks tea": (0.1, 0.6)}
    made = [make_memory(ns, t, salience=s, confidence=c) for t, (s, c) in rows.items()]
    store.write(ns, WriteBatch(memories=made))
    query = "Which tea does Bea drink"
    code, out = run("recall", query, "-n", ns, "--profile", "composite", "--json")
    assert code == 0
    hits = json.loads(out)["hits"]
    # seed 004: 0.6·cos + 0.2·salience·e^(-0.01·10) + 0.2·confidence (see the lifecycle suite)
    composite = {}
    for hit in hits:
        sal, conf = rows[hit["memory"]["content"]]
        expected = 0.6 * cosine(query, hit["memory"]["content"]) + 0.2 * sal * math.exp(-0.1)
        composite[hit["memory"]["id"]] = expected + 0.2 * conf
        assert hit["weight"] == pytest.approx(composite[hit["memory"]["id"]], abs=1e-5)
    assert len(composite) == 2
    # the default profile weighs by fused rank, RRF + session support; the access boost
    # (the composite recall above was counted as use) only breaks ties (SPEC §9.12)
    code, out = run("recall", query, "-n", ns, "--profile", "rrf", "--json")
    assert code == 0
    for hit in json.loads(out)["hits"]:
        e = hit["explanation"]
        fused = e["rrf"] + e["extra"].get("session_support", 0.0)
        assert hit["weight"] == pytest.approx(fused)
        assert hit["weight"] != pytest.approx(composite[hit["memory"]["id"]], abs=1e-3)
    code, _ = run("recall", query, "-n", ns, "--profile", "salience")
    assert code == 2  # not a profile


def test_consolidate_command_reports_and_is_idempotent(
    run: Callable[..., tuple[int, str]], store: MemoryStore, ns: str
) -> None:
    made = workshop(ns)
    entities = [make_entity(ns, "Ada"), make_entity(ns, "Bob")]
    store.write(ns, WriteBatch(memories=list(made.values()), entities=entities))
    code, out = run("consolidate", "-n", ns, "--batch-size", "3", "--json")
    assert code == 0
    report = json.loads(out)
    assert (report["scanned"], report["batches"], report["associations_created"]) == (7, 3, 6)
    links = store.associations(ns, [m.id for m in made.values()])
    assert [(x.source_id, x.target_id) for x in links] == expected_links(made)
    code, out = run("consolidate", "-n", ns, "--json")
    assert code == 0 and json.loads(out)["associations_created"] == 0
    code, out = run("consolidate", "-n", ns)
    assert code == 0 and "associations_found" in out
    code, out = run("consolidate", "-n", ns, "--since", NOW.isoformat(), "--json")
    assert code == 0 and json.loads(out)["associations_found"] == 0  # nothing observed since
    with pytest.raises(InvalidInputError, match="since"):
        run("consolidate", "-n", ns, "--since", "last tuesday")
    with pytest.raises(InvalidInputError, match="since"):
        run("consolidate", "-n", ns, "--since", "2024-01-01T00:00:00")  # naive


def test_delete_namespace_needs_yes(
    run: Callable[..., tuple[int, str]], store: MemoryStore, new_namespace: Callable[[], str]
) -> None:
    ns, other = new_namespace(), new_namespace()
    for space in (ns, other):
        store.write(space, WriteBatch(memories=[make_memory(space, "Cy keeps bees")]))
    code, out = run("delete-namespace", "-n", ns)
    assert code == 1 and "--yes" in out and "1 memories" in out
    assert store.count_memories(ns) == 1
    code, out = run("delete-namespace", "-n", ns, "--yes", "--json")
    assert code == 0 and json.loads(out)["memories"] == 1
    assert store.count_memories(ns) == 0
    assert store.count_memories(other) == 1
    code, _ = run("delete-namespace")  # the namespace is never defaulted
    assert code == 2


def test_forget_dry_run_lists_and_changes_nothing(
    run: Callable[..., tuple[int, str]], store: MemoryStore, ns: str
) -> None:
    gm = facade(store)
    only = gm.remember(ns, [cand("Jo plays the cello", "t1")]).created[0]
    gm.close()
    code, out = run("forget", "--session", "s1", "-n", ns, "--dry-run", "--json")
    assert code == 0 and json.loads(out) == {"deleted": [only], "updated": []}
    assert store.count_memories(ns) == 1
    code, out = run("forget", "--session", "s1", "-n", ns, "--json")
    assert json.loads(out) == {"deleted": [only], "updated": []}
    assert store.count_memories(ns) == 0
