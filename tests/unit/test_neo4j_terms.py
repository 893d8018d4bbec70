"""Neo4j's per-namespace BM25 weights (graphmem.store.neo4j._terms.TermCounts.idf_boosts):
each query word is boosted by idf(namespace) / idf(index), Lucene's IDF (SPEC §3:
ln(1 + (N − n + 0.5) / (n + 0.5))), from counts a fake executor hands back."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pytest

from graphmem.store.neo4j._terms import INDEX_DF_CAP, TermCounts


def idf(n_docs: int, doc_freq: int) -> float:
    return math.log(1 + (n_docs - doc_freq + 0.5) / (doc_freq + 0.5))


class FakeExecutor:
    """Answers the count statements from fixed numbers and records what it was asked."""

    def __init__(self, n_namespace: int, n_index: int, counts: dict[str, tuple[int, int]]):
        self.n_namespace, self.n_index, self.counts = n_namespace, n_index, counts
        self.calls: list[str] = []

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        self.calls.append(name)
        if name == "read/count_memories":
            return [{"count": self.n_namespace}]
        if name == "read/count_all_memories":
            return [{"count": self.n_index}]
        assert name == "read/bm25_term_df" and params["cap"] == INDEX_DF_CAP
        rows = []
        for term in params["terms"]:
            df, df_all = self.counts.get(term["term"], (0, 0))
            rows.append({"term": term["term"], "df": df, "df_all": min(df_all, params["cap"])})
        return rows


def boosts(executor: FakeExecutor, words: list[str]) -> dict[str, float]:
    return TermCounts(executor).idf_boosts("ns", words)  # type: ignore[arg-type]


def test_a_word_weighs_its_idf_in_the_namespace() -> None:
    # "caroline": in 200 of the namespace's 600 memories, in 210 of the index's 100k
    ex = FakeExecutor(600, 100_000, {"caroline": (200, 210), "pottery": (3, 40)})
    got = boosts(ex, ["Caroline", "pottery"])
    assert got["caroline"] == pytest.approx(idf(600, 200) / idf(100_000, 210))
    assert got["pottery"] == pytest.approx(idf(600, 3) / idf(100_000, 40))
    # the boosted weights (boost x index IDF) order the words as the namespace does
    weight = {w: got[w] * idf(100_000, n) for w, n in (("caroline", 210), ("pottery", 40))}
    assert weight["pottery"] / weight["caroline"] == pytest.approx(idf(600, 3) / idf(600, 200))


def test_past_the_cap_the_index_count_is_the_cap_or_the_namespace_count() -> None:
    ex = FakeExecutor(3000, 100_000, {"the": (2500, 90_000), "zebra": (5, 50_000)})
    got = boosts(ex, ["the", "zebra"])
    # the namespace holds "the" 2,500 times: the index holds it at least that often
    assert got["the"] == pytest.approx(idf(3000, 2500) / idf(100_000, 2500))
    # "zebra" counted up to the cap: its index IDF taken at the cap (an upper bound)
    assert got["zebra"] == pytest.approx(idf(3000, 5) / idf(100_000, INDEX_DF_CAP))


def test_a_word_the_namespace_lacks_keeps_boost_one_and_counts_are_cached() -> None:
    ex = FakeExecutor(10, 50, {"cat": (3, 20)})
    counts = TermCounts(ex)  # type: ignore[arg-type]
    assert counts.idf_boosts("ns", ["unicorn"]) == {"unicorn": 1.0}
    counts.idf_boosts("ns", ["cat", "unicorn"])
    counts.idf_boosts("ns", ["cat", "unicorn"])
    assert ex.calls.count("read/bm25_term_df") == 2  # "unicorn", then "cat"; then cached
    counts.forget()
    counts.idf_boosts("ns", ["cat"])
    assert ex.calls.count("read/bm25_term_df") == 3
    assert ex.calls.count("read/count_memories") == 2
