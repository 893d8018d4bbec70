"""Recall that stays right over time, on every store (SPEC §9.9, §9.11, §9.12).

Use must not degrade recall (only the top few direct hits count as accessed;
the access boost breaks ties), a newer contradicting memory outranks the older
one without triples, and a memory consolidation flagged unretrievable is still
returned for a question that targets it (and reactivated), but kept out of
answers to other questions.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from graphmem.store.base import MemoryStore
from tests.fakes import HashEmbedder

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def facade(store: MemoryStore, clock: Clock, **settings: Any) -> GraphMem:
    return GraphMem(
        Settings(**settings), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False
    )


@pytest.fixture
def memory(store: MemoryStore, clock: Clock) -> Iterator[GraphMem]:
    gm = facade(store, clock)
    yield gm
    gm.close()


def fact(content: str, session: str = "s1", at: datetime = T0, **extra: Any) -> dict[str, Any]:
    return {
        "content": content,
        "extractor": "gpt-4o-mini",
        "session_id": session,
        "observed_at": at.isoformat(),
        "entities": [{"name": "Nia", "kind": "Person", "role": "subject"}],
        **extra,
    }


NIA = [
    "Nia collects vinyl records",
    "Nia plays tennis on Sundays",
    "Nia lives in Oslo",
    "Nia prefers green tea",
    "Nia works at Fjord Analytics",
    "Nia has a cat named Pixel",
]


def ids(result: Any) -> list[str]:
    return [h.memory.id for h in result.hits]


def test_only_the_top_few_direct_hits_count_as_accessed(memory: GraphMem, ns: str) -> None:
    memory.remember(ns, [fact(text) for text in NIA])
    returned = ids(memory.recall(ns, "Nia vinyl records", k=6))
    assert len(returned) == 6
    counts = [memory.get(ns, mid).access_count for mid in returned]
    assert counts == [1, 1, 1, 0, 0, 0]  # Settings.access_count_top = 3


@pytest.mark.parametrize(("access_mode", "unchanged"), [("tiebreak", True), ("weight", False)])
def test_use_does_not_reorder_recall(
    store: MemoryStore, ns: str, clock: Clock, access_mode: str, unchanged: bool
) -> None:
    gm = facade(store, clock, access_mode=access_mode)
    try:
        gm.remember(ns, [fact(text) for text in NIA])
        question = "Where does Nia live, Oslo?"
        fresh = ids(gm.recall(ns, question, record_access=False))
        for _ in range(20):  # everyday use of another question, access recording on
            clock.now += timedelta(minutes=5)
            gm.recall(ns, "Does Nia play tennis on Sundays?")
        after = ids(gm.recall(ns, question, record_access=False))
        # the default (tiebreak) keeps the order; a multiplying boost (seed 001) lets the
        # memories recalled for tennis crowd in: the lock-in of issue 10
        assert (after == fresh) is unchanged
        if unchanged:
            assert gm.get(ns, fresh[0]).content == "Nia lives in Oslo"
    finally:
        gm.close()


def test_a_move_supersedes_at_write_time(memory: GraphMem, ns: str) -> None:
    """No triple, no merge, cosine far below dedup: the attribute rule (SPEC §9.15) sees
    two residences of one person and the newer supersedes the older when written."""
    old = memory.remember(ns, [fact("Nia lives in Oslo")]).created[0]
    new = memory.remember(
        ns, [fact("Nia lives in Bergen now", "s2", T0 + timedelta(days=90))]
    ).created[0]
    assert memory.get(ns, old).superseded_by == new
    assert ids(memory.recall(ns, "Where does Nia live?", record_access=False))[0] == new


def test_a_newer_contradicting_memory_outranks_the_older(memory: GraphMem, ns: str) -> None:
    """What no attribute rule reads (the cafe someone goes to) is ordered at recall."""
    old = memory.remember(ns, [fact("Nia goes to Cafe Solberg every morning")]).created[0]
    new = memory.remember(
        ns, [fact("Nia goes to Cafe Fjordlys every morning now", "s2", T0 + timedelta(days=90))]
    ).created[0]
    assert memory.get(ns, old).superseded_by is None  # both current: no triple, no merge
    result = memory.recall(ns, "Does Nia go to Cafe Solberg?", record_access=False)
    assert ids(result)[:2] == [new, old]
    assert result.hits[0].explanation.newer_than == old
    assert result.hits[1].explanation.newer_than is None
    # the JSON output keeps the field it always had (``extra``) beside the typed one
    dumped = result.model_dump(mode="json")["hits"][0]["explanation"]
    assert dumped["newer_than"] == dumped["extra"]["newer_than"] == old


def test_an_unretrievable_memory_still_answers_a_question_about_it(
    memory: GraphMem, ns: str, clock: Clock
) -> None:
    seats = memory.remember(
        ns, [fact("Nia prefers window seats on flights", type="Preference")]
    ).created[0]
    clock.now = T0 + timedelta(days=400)
    memory.remember(ns, [fact(text, "s2", clock.now - timedelta(days=1)) for text in NIA])
    # Preference half-life 90 days: freshness max(0.1, 2^(-400/90)) = 0.1 < θ = 1.5·(1 − conf)
    memory.consolidate(ns)
    assert memory.get(ns, seats).retrievable is False
    # kept out of answers to other questions (retrievable, it would be among all 7)
    other = memory.recall(ns, "Does Nia play tennis?", k=10, record_access=False)
    assert seats not in ids(other) and len(ids(other)) == 6
    # returned when a question targets it, and reactivated when the access is recorded
    asked = memory.recall(ns, "Which seats does Nia prefer on flights?", k=3)
    assert ids(asked)[0] == seats
    assert memory.get(ns, seats).retrievable is True


def test_bm25_without_a_content_term_does_not_vote(memory: GraphMem, ns: str) -> None:
    memory.remember(ns, [fact(text) for text in NIA])
    # "live" is not in any memory ("lives" is): BM25 would rank by the name alone
    assert memory.recall(ns, "Where does Nia live?", record_access=False).weights["bm25"] == 0.0
    assert memory.recall(ns, "Nia lives where?", record_access=False).weights["bm25"] > 0.0
