"""Smoke runs of the speed benchmarks (docs/benchmarks.md "Speed and scale") and oracles for
their fast paths.

No timing is asserted: a benchmark's numbers are reported, not tested. What is
tested is that both benchmarks run end to end on the embedded store and return
the documented JSON keys, and that the indexes made fast for them give exactly
the results of the slow, obvious implementations they replaced.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from bench.perf.ingest import bench_ingest
from bench.perf.latency import bench_latency, bench_peer
from graphmem.memory import GraphMem
from graphmem.settings import Settings
from graphmem.store._bm25 import BM25Index
from graphmem.store.embedded._index import ROLES, MentionIndex
from graphmem.store.lucene import lucene_idf
from tests.fakes import HashEmbedder

LATENCY_KEYS = {"p50_ms", "p95_ms", "p99_ms", "n", "store", "stages"}
STAGES = {"embed", "plan", "retrievers", "fusion", "hydration", "ranking", "total"}


@pytest.fixture
def memory(tmp_path: Path) -> GraphMem:
    settings = Settings(data_dir=tmp_path / "store", embedded_warn_size=100)
    return GraphMem(settings, embedder=HashEmbedder(settings.embedding.embedding_dim))


def test_bench_latency_runs_and_reports_the_documented_keys(memory: GraphMem) -> None:
    with memory:
        result = bench_latency(memory, 200, repeats=1)
        again = bench_latency(memory, 200, repeats=1)  # reuses the namespace
    assert set(result) >= LATENCY_KEYS
    assert result["store"] == "embedded" and result["n"] == 200
    assert result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"]
    assert set(result["stages"]) >= STAGES
    assert any(stage.startswith("retriever.") for stage in result["stages"])
    assert {"entity-centric", "temporal-anchored", "exploratory"} <= set(result["plans"].values())
    assert result["past_embedded_warn_size"] is True  # 200 > the fixture's warn size of 100
    assert result["build_s"] > 0 and again["build_s"] == 0
    json.dumps(result)  # what --json-out writes


def _turns(count: int) -> list[dict[str, object]]:
    """LoCoMo-shaped turn candidates (bench.locomo.turn_candidates), a few repeated."""
    t0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    speakers = ("Caroline", "Melanie")
    out: list[dict[str, object]] = []
    for i in range(count):
        speaker = speakers[i % 2]
        out.append(
            {
                "content": f"{speaker}: I went to the lake on day {i % 150} with the kids.",
                "type": "Fact",
                "source_level": "direct",
                "extractor": "verbatim",
                "entities": [{"name": speaker, "kind": "Person", "role": "subject"}],
                "session_id": f"session_{i // 40 + 1}",
                "turn_id": f"D{i // 40 + 1}:{i % 40 + 1}",
                "observed_at": t0 + timedelta(days=i // 40),
            }
        )
    return out


def test_bench_ingest_runs_and_reports_the_ratio(memory: GraphMem) -> None:
    candidates = _turns(200)
    texts = [str(c["content"]) for c in candidates]
    with memory:
        result = bench_ingest(memory, (texts, candidates), batch_size=64)
    assert result["ratio_to_encode"] > 0
    assert result["memories"] == 200 and result["write_batch"] == 64
    assert result["merged"] > 0  # day numbers repeat: dedup is on
    assert {"encode_per_s", "ingest_per_s", "store", "model", "peak_rss_mb"} <= set(result)
    # the floor: encoder and extractor each alone, 1 / (1/encode + 1/extract)
    encode, extract = result["encode_per_s"], result["extract_per_s"]
    assert result["floor_per_s"] == pytest.approx(1 / (1 / encode + 1 / extract), rel=0.02)
    assert result["ratio_to_floor"] == pytest.approx(
        result["ingest_per_s"] / result["floor_per_s"], rel=0.02
    )
    json.dumps(result)


def test_bench_ingest_compares_keys_on_and_off_on_the_same_chunks(memory: GraphMem) -> None:
    candidates = _turns(200)
    texts = [str(c["content"]) for c in candidates]
    with memory:
        result = bench_ingest(memory, (texts, candidates), batch_size=32, compare="keys")
        left = memory.namespaces()
    assert result["compare"] == "keys" and result["contextual_keys"] is True
    assert set(result["variants"]) == {"keys on", "keys off"}
    for row in result["variants"].values():
        assert row["ratio_to_encode"] > 0 and row["merged"] > 0
        assert "extract_ms_per_text" not in row  # only the extractor comparison times it
    on = result["variants"]["keys on"]
    assert (result["ingest_s"], result["ratio_to_encode"]) == (
        on["ingest_s"],
        on["ratio_to_encode"],
    )
    # cost is keys-on time / keys-off time - 1 from the unrounded clocks; the rows give the
    # times rounded to 0.01 s, so it must lie within what those rounded times allow
    off_s = result["variants"]["keys off"]["ingest_s"]
    lowest = (on["ingest_s"] - 0.005) / (off_s + 0.005) - 1
    highest = (on["ingest_s"] + 0.005) / (off_s - 0.005) - 1
    assert lowest - 0.0005 <= result["cost"] <= highest + 0.0005
    assert not [ns for ns in left if ns.startswith("bench-ingest")]  # both namespaces removed
    json.dumps(result)


def test_bench_ingest_refuses_an_unknown_comparison(memory: GraphMem) -> None:
    with memory, pytest.raises(ValueError, match="compare must be one of"):
        bench_ingest(memory, (["a"], [{"content": "a"}]), compare="model")


def test_the_peer_is_skipped_off_neo4j(memory: GraphMem) -> None:
    with memory:
        assert "skipped" in bench_peer(memory, 10)
        result = bench_latency(memory, 20, repeats=1, peer=True)
        assert "skipped" in result["peer"] and "ratio_p50" not in result


# -- the fast paths agree with the slow ones ----------------------------------------------------
class _LuceneOkapi(BM25Okapi):  # type: ignore[misc]  # rank_bm25 is untyped
    """The implementation BM25Index replaced: rank-bm25 with Lucene's IDF."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = lucene_idf(self.corpus_size, freq)


def test_posting_bm25_is_bit_identical_to_rank_bm25() -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(200)]
    docs = [
        [rng.choice(words[: rng.randint(3, 200)]) for _ in range(rng.randint(1, 25))]
        for _ in range(1500)
    ]
    oracle = _LuceneOkapi(docs, k1=1.2, b=0.75)
    index = BM25Index(docs, k1=1.2, b=0.75)
    for _ in range(100):
        query = [rng.choice([*words, "absent"]) for _ in range(rng.randint(1, 8))]
        expected = np.asarray(oracle.get_scores(query))
        np.testing.assert_array_equal(index.scores(query), expected)
        rows, scores = index.matches(query)
        assert rows.tolist() == np.flatnonzero(expected > 0).tolist()
        np.testing.assert_array_equal(scores, expected[rows])


def _entity_search_reference(
    ids: list[str],
    visible: list[bool],
    mentions: list[tuple[int, str, str]],
    entity_ids: list[str],
    k: int,
    sims: dict[str, float],
    include_history: bool,
) -> list[tuple[str, tuple[str, ...], tuple[str, ...], float]]:
    """The embedded store's former entity_search, row by row in Python."""
    roles: dict[str, dict[str, str]] = {}
    for row, entity, role in mentions:
        if entity not in entity_ids or not (include_history or visible[row]):
            continue
        known = roles.setdefault(ids[row], {}).get(entity)
        if known is None or ROLES.index(role) < ROLES.index(known):
            roles[ids[row]][entity] = role
    ranked = sorted(roles, key=lambda m: (-len(roles[m]), -sims[m], m))[:k]
    return [
        (
            m,
            tuple(sorted(roles[m])),
            tuple(roles[m][e] for e in sorted(roles[m])),
            sims[m],
        )
        for m in ranked
    ]


@pytest.mark.parametrize("seed", range(5))
def test_mention_index_matches_the_row_by_row_search(seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"m{i:04d}" for i in range(300)]
    visible = [rng.random() > 0.2 for _ in ids]
    entities = [f"e{i:02d}" for i in range(30)]
    mentions = sorted(
        {(rng.randrange(len(ids)), rng.choice(entities), rng.choice(ROLES)) for _ in range(900)}
    )
    sims = {m: round(rng.choice([0.5, rng.uniform(-1, 1)]), 6) for m in ids}  # with ties
    index = MentionIndex(ids, np.array(visible), mentions)
    for k in (1, 7, 50, 1000):
        for include_history in (False, True):
            wanted = [*rng.sample(entities, rng.randint(1, 6)), "unknown"]
            found = index.search(
                wanted,
                k,
                lambda ms: np.array([sims[m] for m in ms]),
                include_history=include_history,
            )
            assert found == _entity_search_reference(
                ids, visible, mentions, wanted, k, sims, include_history
            )
