"""The LoCoMo importer and bench metrics (docs/benchmarks.md "Retrieval quality: LoCoMo") on an
invented fixture.

The fixture below is made up for these tests (two sessions, six turns, two
observations, four questions) in LoCoMo's format; nothing is taken from the
LoCoMo data. Expected metric values are worked by hand in the comments.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bench.locomo import (
    Conversation,
    gold_units,
    import_conversation,
    load_locomo,
    observation_candidates,
    parse_session_time,
    repair_evidence,
    run_bench,
    score_ranking,
    turn_candidates,
)
from bench.locomo.baselines import okapi_baseline_scores
from graphmem import GraphMem, MemoryCandidate, Settings
from graphmem.errors import InvalidInputError
from tests.fakes import HashEmbedder

S1 = "10:00 am on 3 March, 2021"
S2 = "7:15 pm on 20 April, 2021"


def _sample() -> dict[str, Any]:
    return {
        "sample_id": "t1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Ben",
            "session_1_date_time": S1,
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a beagle named Biscuit."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Congrats! What does Biscuit like?"},
                {
                    "speaker": "Ann",
                    "dia_id": "D1:3",
                    "text": "Biscuit loves the park by the river.",
                    "img_url": ["https://example.invalid/p.jpg"],
                    "blip_caption": "beagle chasing a red ball across wet grass",
                },
            ],
            "session_2_date_time": S2,
            "session_2": [
                {
                    "speaker": "Ben",
                    "dia_id": "D2:1",
                    "text": "I started learning the cello last week.",
                },
                {"speaker": "Ann", "dia_id": "D2:2", "text": "Biscuit learned to fetch yesterday."},
                {"speaker": "Ben", "dia_id": "D2:3", "text": "My cello teacher moved to Lisbon."},
            ],
            # a date for a session with no turns (the real data has these): ignored
            "session_3_date_time": "9:00 am on 1 May, 2021",
        },
        "observation": {
            "session_1_observation": {
                "Ann": [
                    ["Ann adopted a beagle named Biscuit who loves the park.", ["D1:1", "D1:3"]]
                ]
            },
            "session_2_observation": {"Ben": [["Ben's cello teacher moved to Lisbon.", "D2:3"]]},
        },
        "session_summary": {},
        "qa": [
            {
                "question": "What pet does Ann have and what did it learn?",
                "answer": "a beagle; to fetch",
                "evidence": ["D1:1; D2:2"],
                "category": 1,
            },
            {
                "question": "Where does Biscuit like to go?",
                "answer": "the park",
                "evidence": ["D:1:3"],
                "category": 4,
            },
            {
                "question": "When did Ann start learning the cello?",
                "adversarial_answer": "last week",
                "evidence": ["D2:01", "D2:9"],
                "category": 5,
            },
            {
                "question": "What might Ann do on weekends?",
                "answer": "walk Biscuit",
                "evidence": [],
                "category": 3,
            },
        ],
    }


@pytest.fixture
def conv(tmp_path: Path) -> Conversation:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([_sample()]), encoding="utf-8")
    (loaded,) = load_locomo(path)
    return loaded


# ---------------------------------------------------------------- parsing
def test_session_time_is_parsed_as_utc() -> None:
    assert parse_session_time("3:41 pm on 2 March, 2021") == datetime(
        2021, 3, 2, 15, 41, tzinfo=UTC
    )
    assert parse_session_time("12:17 am on 19 October, 2020") == datetime(
        2020, 10, 19, 0, 17, tzinfo=UTC
    )


def test_load_parses_sessions_turns_observations_and_questions(conv: Conversation) -> None:
    assert conv.sample_id == "t1"
    assert conv.speakers == ("Ann", "Ben")
    assert [s.number for s in conv.sessions] == [1, 2]  # session 3 has a date and no turns
    assert conv.sessions[1].date_time == datetime(2021, 4, 20, 19, 15, tzinfo=UTC)
    assert conv.now == conv.sessions[1].date_time
    assert [t.dia_id for s in conv.sessions for t in s.turns] == [
        "D1:1",
        "D1:2",
        "D1:3",
        "D2:1",
        "D2:2",
        "D2:3",
    ]
    assert conv.sessions[0].turns[2].blip_caption == "beagle chasing a red ball across wet grass"
    assert conv.sessions[0].turns[0].blip_caption is None
    assert [(o.key, o.speaker, o.session, o.evidence) for o in conv.observations] == [
        ("S1:Ann:0", "Ann", 1, ("D1:1", "D1:3")),
        ("S2:Ben:0", "Ben", 2, ("D2:3",)),
    ]
    assert [q.category for q in conv.qa] == [1, 4, 5, 3]
    assert conv.qa[2].adversarial_answer == "last week" and conv.qa[2].answer is None


def test_evidence_repair_counts(conv: Conversation) -> None:
    assert [q.evidence for q in conv.qa] == [("D1:1", "D2:2"), ("D1:3",), ("D2:1",), ()]
    # "D1:1; D2:2", "D:1:3", "D2:01" repaired; "D2:9" names no turn; one question has no evidence
    assert conv.report.as_dict() == {"repaired": 3, "dropped": 1, "no_evidence": 1}
    assert len(conv.report.details) == 3


def test_repair_evidence_drops_what_cannot_be_read() -> None:
    turns = {"D1:1", "D30:5"}
    assert repair_evidence(["D30:05", "D", "D1:1", "D1:1"], turns) == (("D30:5", "D1:1"), 1, 1)
    assert repair_evidence(["D9:9; D1:1"], turns) == (("D1:1",), 1, 1)
    assert repair_evidence([], turns) == ((), 0, 0)


def test_load_rejects_a_file_that_is_not_locomo(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"sample_id": "x"}]), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"samples\[0\]"):
        load_locomo(path)
    path.write_text(json.dumps({"not": "a list"}), encoding="utf-8")
    with pytest.raises(InvalidInputError):
        load_locomo(path)


# ---------------------------------------------------------------- candidates
def test_turn_candidates_follow_the_protocol(conv: Conversation) -> None:
    candidates = turn_candidates(conv)
    assert len(candidates) == 6
    first, image = candidates[0], candidates[2]
    assert first == {
        "content": "Ann: I adopted a beagle named Biscuit.",
        "type": "Fact",
        "source_level": "direct",
        "extractor": "verbatim",
        "entities": [{"name": "Ann", "kind": "Person", "role": "subject"}],
        "session_id": "session_1",
        "turn_id": "D1:1",
        "observed_at": datetime(2021, 3, 3, 10, 0, tzinfo=UTC),
    }
    assert image["content"] == (
        "Ann: Biscuit loves the park by the river."
        " [shared image: beagle chasing a red ball across wet grass]"
    )
    for candidate in candidates:
        MemoryCandidate.model_validate(candidate)


def test_observation_candidates_follow_the_protocol(conv: Conversation) -> None:
    first, second = observation_candidates(conv)
    assert first["content"] == "Ann adopted a beagle named Biscuit who loves the park."
    assert (first["extractor"], first["source_level"], first["type"]) == (
        "gpt-3.5-turbo",
        "strong_inference",
        "Fact",
    )
    assert first["turn_id"] == "D1:1"  # the first evidence id; the bench keeps all of them
    assert first["entities"] == [{"name": "Ann", "kind": "Person", "role": "subject"}]
    assert (second["session_id"], second["observed_at"]) == (
        "session_2",
        datetime(2021, 4, 20, 19, 15, tzinfo=UTC),
    )


def test_gold_units_per_corpus(conv: Conversation) -> None:
    q1, q2, q3, q4 = conv.qa
    assert gold_units(conv, q1, "turns") == {"D1:1", "D2:2"}
    assert gold_units(conv, q2, "observations") == {"S1:Ann:0"}  # D1:3 is its second evidence id
    assert gold_units(conv, q1, "observations") == {"S1:Ann:0"}  # D1:1 overlaps
    assert gold_units(conv, q3, "observations") == set()  # D2:1 is no observation's evidence
    assert gold_units(conv, q4, "turns") == set()


# ---------------------------------------------------------------- metrics
def test_score_ranking_by_hand() -> None:
    retrieved = [["a"], ["x"], ["b", "c"], ["y"], ["z"], ["d"]]
    got = score_ranking(retrieved, {"a", "b", "d", "e"})
    # top 5 memories hold a, b of 4 gold; top 10 also d. First memory is gold.
    # unit ranking a x b c y z d: gold at positions 1, 3, 7
    # DCG = 1 + 1/log2(4) + 1/log2(8) = 1 + 0.5 + 0.333333 = 1.833333
    # IDCG over min(4, max(10, 7)) = 4 units = 1 + 0.630930 + 0.5 + 0.430677 = 2.561606
    assert got["R@5"] == pytest.approx(0.5)
    assert got["R@10"] == pytest.approx(0.75)
    assert got["MRR"] == pytest.approx(1.0)
    assert got["All@10"] == 0.0
    assert got["nDCG@10"] == pytest.approx(1.833333 / 2.561606, abs=1e-6)


def test_a_merged_memory_stands_for_all_its_units() -> None:
    got = score_ranking([["x"], ["a", "b"]], ["a", "b"])
    # unit ranking x a b: DCG = 1/log2(3) + 1/log2(4) = 0.630930 + 0.5; IDCG = 1 + 0.630930
    assert got["R@5"] == got["R@10"] == got["All@10"] == 1.0
    assert got["MRR"] == 0.5
    assert got["nDCG@10"] == pytest.approx(1.130930 / 1.630930, abs=1e-6)


def test_only_the_first_ten_memories_count() -> None:
    retrieved = [[f"n{i}"] for i in range(10)] + [["g"]]
    assert score_ranking(retrieved, {"g"}) == {
        "R@5": 0.0,
        "R@10": 0.0,
        "nDCG@10": 0.0,
        "MRR": 0.0,
        "All@10": 0.0,
    }
    assert score_ranking([], {"g"})["R@10"] == 0.0
    perfect = score_ranking([["g"], ["h"]], {"g", "h"})
    assert perfect["nDCG@10"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="gold"):
        score_ranking([["g"]], set())


def test_okapi_baseline_guards_empty_input() -> None:
    assert okapi_baseline_scores([], [["a"]]).shape == (1, 0)
    scores = okapi_baseline_scores([["cello", "teacher"], ["beagle"], ["park"]], [["cello"], []])
    assert scores.shape == (2, 3)
    assert scores[0, 0] > 0.0 and scores[0, 1] == 0.0
    assert not scores[1].any()
    assert math.isfinite(float(okapi_baseline_scores([[], []], [["a"]]).sum()))


# ---------------------------------------------------------------- end to end
@pytest.fixture
def memory(tmp_path: Path) -> Any:
    with GraphMem(
        Settings(data_dir=tmp_path / "store", neo4j_uri=None), embedder=HashEmbedder()
    ) as mem:
        yield mem


def test_import_maps_memories_to_units_and_replaces_the_namespace(
    memory: GraphMem, conv: Conversation
) -> None:
    ticks: list[int] = []
    namespace, stands_for, merged = import_conversation(
        memory, conv, "turns", batch_size=4, progress=ticks.append
    )
    assert namespace == "locomo-t1-turns"
    assert ticks == [4, 2]
    assert sorted(u for units in stands_for.values() for u in units) == [
        "D1:1",
        "D1:2",
        "D1:3",
        "D2:1",
        "D2:2",
        "D2:3",
    ]
    assert merged == 0
    again = import_conversation(memory, conv, "turns")
    assert again[1] == stands_for
    assert memory.stats(namespace)["memories"] == 6


def test_run_bench_smoke(memory: GraphMem, conv: Conversation) -> None:
    progress: list[tuple[str, int, int]] = []
    report = run_bench(
        memory, [conv], "turns", baseline=True, progress=lambda *a: progress.append(a)
    )
    assert report["corpus"] == "turns" and report["store"] == "embedded"
    assert (report["conversations"], report["memories"], report["merged"]) == (1, 6, 0)
    assert report["overall"]["questions"] == 2  # categories 1 and 4; 5 apart, 3 has no evidence
    assert report["by_category"]["5"]["questions"] == 1
    assert report["by_category"]["3"] == {
        "questions": 0,
        "R@5": None,
        "R@10": None,
        "nDCG@10": None,
        "MRR": None,
        "All@10": None,
    }
    assert set(report["retrievers"]) == {"semantic", "bm25", "entity", "temporal", "graph"}
    assert set(report["baselines"]) == {"bm25", "dense", "rrf"}
    # six memories, k = 10: everything is retrieved, so recall is complete
    assert report["overall"]["R@10"] == 1.0 and report["baselines"]["dense"]["R@10"] == 1.0
    assert sum(sum(c.values()) for c in report["plans"].values()) == 3
    assert report["import"] == {"repaired": 3, "dropped": 1, "no_evidence": 1}
    assert ("recall turns", 1, 3) in progress
    json.dumps(report)  # JSON-ready

    obs = run_bench(memory, [conv], "observations", retrievers=("bm25",))
    assert obs["overall"]["questions"] == 2 and obs["by_category"]["5"]["questions"] == 0
    assert set(obs["retrievers"]) == {"bm25"} and "baselines" not in obs


def test_bench_does_not_touch_access_state(memory: GraphMem, conv: Conversation) -> None:
    run_bench(memory, [conv], "turns", retrievers=())
    stored = memory.store.get_memories("locomo-t1-turns", [m.id for m in _all(memory)])
    assert all(m.access_count == 0 and m.last_accessed_at is None for m in stored)


def _all(memory: GraphMem) -> list[Any]:
    result = memory.recall("locomo-t1-turns", "Biscuit cello park", k=50, record_access=False)
    return [h.memory for h in result.hits]


def test_cli_bench_and_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.cli import locomo_cmds

    monkeypatch.setattr(locomo_cmds, "make_embedder", lambda *a, **k: HashEmbedder())
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_sample()]), encoding="utf-8")
    from bench.cli.app import app

    runner = CliRunner()
    out = tmp_path / "bench.json"
    result = runner.invoke(
        app,
        ["locomo", str(data), "--json-out", str(out), "--data-dir", str(tmp_path / "b")],
    )
    assert result.exit_code == 0, result.output
    assert "graphmem full pipeline" in result.output and "baseline rrf" in result.output
    assert set(json.loads(out.read_text())) == {"turns", "observations"}
    imported = tmp_path / "import.json"
    result = runner.invoke(
        app,
        [
            "import-locomo",
            str(data),
            "--corpus",
            "both",
            "--data-dir",
            str(tmp_path / "i"),
            "--json-out",
            str(imported),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "3 repaired" in result.output and "locomo-t1-observations" in result.output
    assert json.loads(imported.read_text())["import"] == {
        "repaired": 3,
        "dropped": 1,
        "no_evidence": 1,
    }
