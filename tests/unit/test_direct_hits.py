"""docs/spec.md §9.11: forgetting lowers weight, never reachability. A current memory
flagged unretrievable (or cold) stays out of broad context, but one that a retriever
ranks within the recall's default k for the question is returned
(graphmem.retrieval.ranking.ranker.admissible)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem import RecallQuery, Settings
from graphmem.retrieval.ranking.ranker import admissible, direct_hits
from graphmem.retrieval.retrievers.base import Hit
from graphmem.store.records import RankFields


def _fields(memory_id: str, *, retrievable: bool, current: bool = True) -> RankFields:
    when = datetime(2025, 1, 1, tzinfo=UTC)
    return RankFields(memory_id, "Fact", False, 0.8, 0, when, 0.0, current, retrievable)


def test_an_unretrievable_memory_a_retriever_ranks_in_the_top_k_is_returned() -> None:
    settings = Settings()
    k = settings.read.fusion.top_k
    semantic = [Hit(f"m{i}", 1.0 - i / 20) for i in range(2 * k)]
    direct = direct_hits({"semantic": semantic}, settings.read.rescoring.direct_hit_rank)
    query = RecallQuery(text="What does Lena drink?")
    # 7th of the semantic list: a question about it reaches it, however long unused
    assert admissible(_fields("m6", retrievable=False), query, direct)
    assert admissible(_fields(f"m{k - 1}", retrievable=False), query, direct)
    # past the recall's k in every list: broad context, where decay keeps it out
    assert not admissible(_fields(f"m{k}", retrievable=False), query, direct)
    # reachability never brings back what was superseded
    assert not admissible(_fields("m0", retrievable=True, current=False), query, direct)


def test_a_graph_neighbour_is_no_direct_hit() -> None:
    hits = {"graph": [Hit("g0", 1.0, associative=True)], "semantic": [Hit("s0", 0.9)]}
    assert direct_hits(hits, Settings().read.rescoring.direct_hit_rank) == {"s0"}
