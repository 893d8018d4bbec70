"""The bench's ablation (replay == live), its rows, and the peer row without a server.

The conversation below is invented for these tests (three sessions of twelve
turns, two speakers, questions of every plan kind) in LoCoMo's format; with
36 memories and k = 10 the ranking, not just the candidate set, decides.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from bench.locomo import Conversation, import_conversation, load_locomo, run_bench
from bench.locomo.ablation import (
    PLANNER_OFF,
    ablation_variants,
    alone,
    cache_question,
    replay,
    without,
)
from bench.locomo.peer import HybridPeer, PeerSearch, open_peer
from graphmem import GraphMem, RecallQuery, Settings
from graphmem.retrieval.ranking.rerank import CrossEncoderReranker
from graphmem.settings import RETRIEVERS
from graphmem.store.base import Vector
from graphmem.store.neo4j import Neo4jStore
from tests.fakes import HashEmbedder

TOPICS = [
    "I baked sourdough bread with rye flour",
    "my sister Lena visited from Berlin",
    "we hiked the ridge trail near the lake",
    "the pottery class made a blue vase",
    "Max the cat knocked over the plant",
    "I signed up for a charity run in June",
    "the band played jazz at the harbour",
    "my laptop broke so I bought a new one",
    "Lena gave me a book about volcanoes",
    "I planted tomatoes and basil on the balcony",
    "the trip to Lisbon was sunny and warm",
    "I started painting portraits of friends",
]
QUESTIONS = [
    ("What did Ann bake?", ["D1:1"], 4),
    ("Who visited Ann from Berlin and what did she give her?", ["D1:2", "D2:9"], 1),
    ("What did Ann do in May 2022?", ["D2:3"], 2),
    ("What happened with Max the cat?", ["D1:5"], 4),
    ("What hobbies might Ben enjoy?", ["D3:4", "D3:12"], 3),
    ("When did Ben go to Lisbon?", ["D3:11"], 2),
    ("What happened in August 2022?", ["D3:1"], 2),
    ("What music did Ann hear at the harbour?", ["D2:7"], 5),
]


def _sample() -> dict[str, Any]:
    conversation: dict[str, Any] = {"speaker_a": "Ann", "speaker_b": "Ben"}
    stamps = ["10:00 am on 3 March, 2022", "4:30 pm on 14 May, 2022", "9:15 am on 2 August, 2022"]
    for s, stamp in enumerate(stamps, start=1):
        conversation[f"session_{s}_date_time"] = stamp
        conversation[f"session_{s}"] = [
            {
                "speaker": "Ann" if (t + s) % 2 else "Ben",
                "dia_id": f"D{s}:{t + 1}",
                "text": f"{TOPICS[(t + 5 * s) % len(TOPICS)] if s > 1 else TOPICS[t]}, session {s}.",
            }
            for t in range(12)
        ]
    qa = [{"question": q, "answer": "x", "evidence": ev, "category": c} for q, ev, c in QUESTIONS]
    return {"sample_id": "abl", "conversation": conversation, "observation": {}, "qa": qa}


@pytest.fixture
def conv(tmp_path: Path) -> Conversation:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([_sample()]), encoding="utf-8")
    (loaded,) = load_locomo(path)
    return loaded


@pytest.fixture
def memory(tmp_path: Path) -> Any:
    # the capitalised-name extractor: the plans asserted below were chosen for its entities
    # (the ner extractor links more of the topics' names, so no question stays exploratory)
    settings = Settings(data_dir=tmp_path / "store", neo4j_uri=None, extractor="capitalized")
    with GraphMem(settings, embedder=HashEmbedder()) as mem:
        yield mem


def _ids(memory: GraphMem, namespace: str, query: RecallQuery) -> list[str]:
    return [h.memory.id for h in memory.recall(namespace, query).hits]


def test_replay_equals_the_live_pipeline(memory: GraphMem, conv: Conversation) -> None:
    """The replay of a question's own plan, and of each retriever alone, gives exactly the
    live recall's ranking (same ids, same order)."""
    namespace, _, _ = import_conversation(memory, conv, "turns")
    reader = memory.recall_pipeline
    plans = set()
    for qa in conv.qa:
        base = RecallQuery(text=qa.question, k=10, reference_time=conv.now, record_access=False)
        cached = cache_question(reader, namespace, base)
        plans.add(cached.plan.name)
        live = _ids(memory, namespace, base)
        assert len(live) == min(10, cached.plan.k)
        assert replay(reader, cached, cached.plan) == live
        for name in RETRIEVERS:
            only = base.model_copy(update={"retrievers": (name,)})
            assert replay(reader, cached, cached.plan_for(alone(name), memory.settings)) == _ids(
                memory, namespace, only
            ), (qa.question, name)
    assert {"entity-centric", "temporal-anchored", "exploratory"} <= plans  # MMR on in the last


def test_variant_plans(memory: GraphMem, conv: Conversation) -> None:
    namespace, _, _ = import_conversation(memory, conv, "turns")
    base = RecallQuery(text="What did Ann bake?", k=10, reference_time=conv.now)
    cached = cache_question(memory.recall_pipeline, namespace, base)
    settings = memory.settings
    dropped = cached.plan_for(without("bm25"), settings)
    assert dropped.weights["bm25"] == 0.0 and dropped.name == cached.plan.name
    assert {n: w for n, w in dropped.weights.items() if n != "bm25"} == {
        n: w for n, w in cached.plan.weights.items() if n != "bm25"
    }
    fixed = cached.plan_for(PLANNER_OFF, settings)
    assert (fixed.name, fixed.weights, fixed.k, fixed.mmr, fixed.rerank) == (
        "hybrid",
        settings.read.fusion.retriever_weights,
        10,
        False,
        False,
    )
    names = [v.name for v in ablation_variants(rerank=True)]
    assert names == [f"without {n}" for n in RETRIEVERS] + [
        "planner off",
        "aggregate cue off",
        "rerank off",
        "rerank on",
    ]
    assert "rerank on" not in [v.name for v in ablation_variants(rerank=False)]


def test_run_bench_with_ablation_rows(memory: GraphMem, conv: Conversation) -> None:
    report = run_bench(memory, [conv], "turns", ablation=True, peer="needs --store neo4j")
    assert report["replay_mismatches"] == 0
    assert set(report["ablation"]) == {f"without {n}" for n in RETRIEVERS} | {
        "planner off",
        "aggregate cue off",
        "rerank",
        "keys off",
        "event-time ranking off",
        "question resolution off",
    }
    assert "skipped" in report["ablation"]["rerank"]
    row = report["ablation"]["without semantic"]
    assert row["questions"] == report["overall"]["questions"] == 7 and "by_category" in row
    assert set(report["retrievers"]) == set(RETRIEVERS)
    assert report["peer"] == {"skipped": "needs --store neo4j"}
    assert sum(r["questions"] for r in report["by_plan"].values()) == 7
    assert set(report["seconds"]) >= {"import", "recall", "replay"}
    # each question asked once: percentiles of the live recall, medians per stage
    latency = report["recall_latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] and "peer_p50" not in latency
    assert latency["p95"] <= 1000 * report["seconds"]["recall"]
    assert {"embed", "retrievers", "total"} <= set(latency["stages"])
    assert latency["stages"]["total"] <= latency["p95"]
    json.dumps(report)
    plain = run_bench(memory, [conv], "turns", retrievers=())
    assert "ablation" not in plain and "replay_mismatches" not in plain and "peer" not in plain
    assert plain["overall"] == report["overall"]


def test_keys_off_row_equals_the_pipeline_when_keys_are_off(
    tmp_path: Path, conv: Conversation
) -> None:
    # with contextual keys off the store's BM25 searches the content, which is what the
    # "keys off" row replays: the two rows must agree
    # (and likewise the "event-time ranking off" row with that setting off)
    settings = Settings(
        data_dir=tmp_path / "k",
        neo4j_uri=None,
        contextual_keys=False,
        event_time_ranking=False,
        question_resolution=False,
    )
    with GraphMem(settings, embedder=HashEmbedder()) as mem:
        report = run_bench(mem, [conv], "turns", ablation=True)
    for name in ("keys off", "event-time ranking off", "question resolution off"):
        row = dict(report["ablation"][name])
        assert row.pop("by_category") == report["by_category"]
        assert row == report["overall"]


def test_rerank_rows_with_a_reranker(tmp_path: Path, conv: Conversation) -> None:
    class ByLength:
        def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> Any:
            return np.array([-len(p) for _, p in sentences], dtype=float)

    reranker = CrossEncoderReranker("by-length", loader=lambda name: ByLength())
    settings = Settings(data_dir=tmp_path / "r", neo4j_uri=None)
    with GraphMem(settings, embedder=HashEmbedder(), reranker=reranker) as memory:
        report = run_bench(memory, [conv], "turns", ablation=True, retrievers=())
    assert {"rerank on", "rerank off"} <= set(report["ablation"])
    assert "rerank" not in report["ablation"] and report["replay_mismatches"] == 0


# ---------------------------------------------------------------- the peer row
class _FakePeer:
    def __init__(self) -> None:
        self.started = 0

    def start(self) -> None:
        self.started += 1

    def search(self, namespace: str, text: str, vector: Vector, k: int) -> list[str]:
        return []

    def describe(self) -> dict[str, Any]:
        return {"system": "fake"}


def test_a_peer_row_is_scored_beside_the_pipeline(memory: GraphMem, conv: Conversation) -> None:
    peer = _FakePeer()
    assert isinstance(peer, PeerSearch)
    report = run_bench(memory, [conv], "turns", retrievers=(), peer=peer)
    assert peer.started == 1
    assert report["peer"]["system"] == "fake" and report["peer"]["questions"] == 7
    assert report["peer"]["R@10"] == 0.0  # it found nothing
    assert report["peer"]["by_category"]["5"]["questions"] == 1


def test_open_peer_needs_neo4j(memory: GraphMem) -> None:
    assert open_peer(memory) == "needs --store neo4j (the peer searches Neo4j's indexes)"


def test_open_peer_without_neo4j_graphrag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "neo4j_graphrag", None)
    monkeypatch.setitem(sys.modules, "neo4j_graphrag.retrievers", None)
    unopened = Neo4jStore("bolt://127.0.0.1:1", password="unused")  # no I/O until open()
    on_neo4j: Any = SimpleNamespace(store=unopened)
    reason = open_peer(on_neo4j)
    assert reason == "neo4j-graphrag is not installed (pip install 'graphmem[peer]')"


def test_hybrid_peer_keeps_the_namespace_in_its_own_order() -> None:
    calls: list[dict[str, Any]] = []

    def item(mid: str, ns: str) -> Any:
        return SimpleNamespace(metadata={"node": {"id": mid, "namespace": ns}})

    class Retriever:
        def search(self, **kwargs: Any) -> Any:
            calls.append(kwargs)
            rows = [item("x1", "other"), item("a", "ns"), item("x2", "other"), item("b", "ns")]
            return SimpleNamespace(items=[*rows, item("c", "ns")])

    store = SimpleNamespace(
        namespaces=lambda: ["ns", "other"], count_memories=lambda ns: {"ns": 3, "other": 2}[ns]
    )
    peer = HybridPeer(SimpleNamespace(store=store), Retriever())  # type: ignore[arg-type]
    vector = np.array([0.6, 0.8], dtype=np.float32)
    assert peer.search("ns", "Where is it?", vector, 2) == []  # not started: nothing to ask
    peer.start()
    assert peer.search("ns", "Where is (it)?", vector, 2) == ["a", "b"]
    (call,) = calls
    assert call["top_k"] == 5 and call["effective_search_ratio"] == 1
    assert call["query_text"].startswith("ns_key:ns") and call["query_text"].endswith(
        r"content:(Where is \(it\)\?)"
    )
    assert call["query_vector"] == pytest.approx([0.6, 0.8])
    assert "namespace_filter" in peer.describe()


def test_asked_twice_reports_both_passes_and_records_access(
    memory: GraphMem, conv: Conversation
) -> None:
    report = run_bench(memory, [conv], "turns", retrievers=(), asked_twice=True)
    twice = report["asked_twice"]
    assert twice["first"]["questions"] == twice["second"]["questions"] == 7
    assert twice["first"]["R@10"] == report["overall"]["R@10"]  # same questions, fresh store
    assert twice["R@10 change"] == pytest.approx(twice["second"]["R@10"] - twice["first"]["R@10"])
    namespace = report["namespaces"][0]
    hits = memory.recall(namespace, "What did Ann bake?", record_access=False).hits
    assert max(h.memory.access_count for h in hits) >= 2  # counted in each pass
    assert "asked_twice" not in run_bench(memory, [conv], "turns", retrievers=())


def test_content_bm25_matches_the_embedded_stores_bm25_on_content(tmp_path: Path) -> None:
    # the "keys off" row's BM25 must rank as the store would without keys (issue 15)
    from bench.locomo.ablation import ContentBM25
    from graphmem.store.embedded import EmbeddedStore

    texts = [
        "cat sat on the mat",
        "cat chased mice",
        "zebra grazed on grass",
        "dog barked loudly at the cat",
    ]
    with GraphMem(
        Settings(data_dir=tmp_path / "s", neo4j_uri=None, contextual_keys=False),
        embedder=HashEmbedder(),
    ) as mem:
        mem.remember("ns", [{"content": t, "extractor": "verbatim"} for t in texts])
        store = mem.store
        assert isinstance(store, EmbeddedStore)
        memories = store.scan_memories("ns", None, 100)
        bm25 = ContentBM25(memories)
        for query in ("cat zebra", "the cat", "grass mice dog", "unknown"):
            want = store.text_search("ns", query, 10, include_history=True)
            got = bm25.search(query, 10)
            assert [h.memory_id for h in got] == [h.memory_id for h in want]
            assert [h.score for h in got] == pytest.approx([h.score for h in want])
    # one document, one term: idf = ln(1 + 0.5/1.5), tf part (k1+1)/(1 + k1) = 1
    (hit,) = ContentBM25(memories[:1]).search("cat", 5)
    assert hit.score == pytest.approx(math.log(1 + 0.5 / 1.5))
