"""``bench latency --locomo``: recall latency on real input, each question asked once
(docs/benchmarks.md "Speed and scale"). No timing is asserted; what is tested is that
every question with gold evidence is asked once per corpus, the documented keys are
there, the floor is timed beside it, and the store is left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bench.cli.app import app
from bench.locomo import gold_units, load_locomo
from bench.perf.real import bench_real
from graphmem.memory import GraphMem
from graphmem.settings import Settings
from tests.bench.test_locomo import _sample
from tests.fakes import HashEmbedder


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([_sample()]), encoding="utf-8")
    return path


def _with_gold(path: Path, corpus: str) -> int:
    (conv,) = load_locomo(path)
    return sum(1 for qa in conv.qa if gold_units(conv, qa, corpus))  # type: ignore[arg-type]


def test_every_question_with_gold_is_asked_once_per_corpus(tmp_path: Path, data: Path) -> None:
    settings = Settings(data_dir=tmp_path / "store")
    with GraphMem(settings, embedder=HashEmbedder()) as memory:
        result = bench_real(memory, data)
        left = memory.namespaces()
    assert result["store"] == "embedded" and result["conversations"] == 1
    for corpus in ("turns", "observations"):
        row = result[corpus]
        assert row["questions"] == _with_gold(data, corpus) > 0
        assert row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"]
        assert {"embed", "total"} <= set(row["stages"]) and set(row["stages_p95"])
        assert row["floor"]["interleaved"] is True
        assert row["ratio_to_floor_p50"] == round(row["p50_ms"] / row["floor"]["p50_ms"], 2)
        assert "peer" not in row  # not asked for
    assert not [ns for ns in left if ns.startswith("locomo-")]  # the store as it was
    json.dumps(result)


def test_the_peers_say_why_they_cannot_run_on_the_embedded_store(
    tmp_path: Path, data: Path
) -> None:
    settings = Settings(data_dir=tmp_path / "store")
    with GraphMem(settings, embedder=HashEmbedder()) as memory:
        result = bench_real(memory, data, corpora=["observations"], peers=True)
    assert "turns" not in result
    for key in ("peer", "peer_as_shipped", "peer_hybrid"):
        assert result["observations"][key] == {"skipped": "the peer runs on Neo4j only"}


def test_the_cli_runs_it_and_writes_the_json(
    tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("graphmem.facade.base.make_embedder", lambda *a, **k: HashEmbedder())
    out = tmp_path / "real.json"
    result = CliRunner().invoke(
        app,
        [
            "latency",
            "--locomo",
            str(data),
            "--corpus",
            "turns",
            "--data-dir",
            str(tmp_path / "store"),
            "--json-out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    assert written["turns"]["questions"] == _with_gold(data, "turns")
    assert "observations" not in written
    bad = CliRunner().invoke(app, ["latency", "--locomo", str(tmp_path / "absent")])
    assert bad.exit_code == 2 and "--locomo" in bad.output  # the option is named
