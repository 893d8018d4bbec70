"""The lifecycle benchmark (docs/benchmarks.md "Memory over time"): its data, its command, its
invariants.

The data checks read the packaged scenarios against the protocol's rules (not
against the generator's code). The invariants run a small version of the bench
with the real embedding model on both stores and assert what CI must hold:
no update, negation or correction merged into the fact it makes stale
(``stale_merged = 0``) in every phase, and no current fact missing from the top 3
of a question that targets it directly (``lost = 0``; a failure names the lost
questions per phase).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bench.lifecycle import PHASES, SettableClock, load_people, run_lifecycle
from graphmem import GraphMem, Settings

if TYPE_CHECKING:
    from tests.conftest import Neo4jServer

ROOT = Path(__file__).parents[2]
KINDS = {"base", "update", "negation", "restatement", "correction", "distractor"}


def test_scenarios_follow_the_protocol() -> None:
    people = load_people()
    assert len(people) >= 30
    two_hop = 0
    for person in people:
        times = [s.at for s in person.sessions]
        assert 3 <= len(times) <= 6, person.id
        assert all(t.utcoffset() is not None for t in times), "timezone-aware"
        assert times == sorted(times)
        assert timedelta(days=120) <= times[-1] - times[0] <= timedelta(days=400), person.id
        assert 12 <= len(person.statements) <= 25, person.id
        assert {s.kind for s in person.statements} == KINDS, person.id
        order = {s.id: i for i, s in enumerate(person.statements)}
        session_of = {s.id: int(s.session[1:]) for s in person.statements}
        for s in person.statements:
            target = s.replaces or s.restates
            if s.kind in {"update", "negation", "correction"}:
                assert s.replaces in order and session_of[s.replaces] < session_of[s.id]
            if s.kind == "restatement":
                assert s.restates in order and session_of[s.restates] < session_of[s.id]
                assert person.statement(s.restates).slot == s.slot
            if s.kind == "distractor":
                assert s.about != person.first_name and target is None
            assert s.triple["subject"] and s.triple["predicate"] and s.triple["object"]
            assert s.entities[0]["role"] == "subject"
        assert 6 <= len(person.probes) <= 10, person.id
        stale = person.stale_ids()
        for probe in person.probes:
            assert all(a in order and a not in stale for a in probe.answer)
            assert set(probe.stale) <= stale
            assert probe.hops == len(probe.answer)
            two_hop += probe.hops == 2
    assert two_hop >= len(people)


def test_the_generator_reproduces_the_packaged_file() -> None:
    script = ROOT / "bench" / "make_lifecycle_scenarios.py"
    spec = importlib.util.spec_from_file_location("make_lifecycle_scenarios", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    packaged = json.loads((ROOT / "bench/lifecycle/scenarios.json").read_text("utf-8"))
    assert module.build(packaged["seed"], len(packaged["people"])) == packaged


@pytest.mark.model
def test_bench_lifecycle_command_writes_every_phase(tmp_path: Path) -> None:
    out = tmp_path / "lifecycle.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    done = subprocess.run(
        [sys.executable, "-m", "bench", "lifecycle", "--people", "1",
         "--mode", "triples", "--uses", "5", "--json-out", str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "lifecycle — triples on embedded" in done.stdout
    report = json.loads(out.read_text("utf-8"))
    body = report["modes"]["triples"]
    assert body["people"] == 1 and list(body["phases"]) == list(PHASES)
    for row in body["phases"].values():
        assert {"current@1", "current@3", "stale_outranks", "stale_merged", "lost", "All@5"} <= set(
            row
        )


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def memory_and_clock(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[GraphMem, SettableClock]]:
    overrides: dict[str, Any] = {"data_dir": tmp_path, "neo4j_uri": None}
    if request.param == "neo4j":
        server: Neo4jServer = request.getfixturevalue("neo4j_server")
        overrides |= {
            "neo4j_uri": server.uri,
            "neo4j_user": server.user or "neo4j",
            "neo4j_password": server.password,
            "neo4j_database": server.database,
            "neo4j_allow_no_auth": True,
        }
    clock = SettableClock(datetime(2026, 1, 1, tzinfo=UTC))
    with GraphMem(Settings(**overrides), clock=clock) as memory:
        yield memory, clock


@pytest.mark.model
@pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning")
def test_nothing_stale_is_merged_and_nothing_current_is_lost(
    memory_and_clock: tuple[GraphMem, SettableClock],
) -> None:
    memory, clock = memory_and_clock
    report = run_lifecycle(memory, clock, load_people(limit=3), "plain", uses=10)
    for phase, row in report["phases"].items():
        assert row["stale_merged"] == 0, (phase, row["counts"])
    lost = {
        phase: (
            row["lost"],
            [f["question"] for f in report["failures"] if f["phase"] == phase and "lost" in f],
        )
        for phase, row in report["phases"].items()
        if row["lost"]
    }
    assert not lost, f"current facts not in the top 3 of their direct question: {lost}"
