"""Memory lifecycle on every store: paging, lifecycle flags, association links, the
consolidation pass, cold reactivation, forgetting a session, the composite profile
(SPEC §2.11, §4, §9.4–§9.7; seeds 000, 003, 004).

Expected numbers are worked out by hand from the SPEC formulas in the comments;
cosines come from numpy on the test embedder's vectors (tests/contract/builders.py).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import InvalidInputError
from graphmem.models import Memory
from graphmem.store.base import (
    AccessUpdate,
    Association,
    LifecycleUpdate,
    MemoryStore,
    WriteBatch,
    association,
)
from graphmem.write.consolidation import consolidate
from tests.contract.builders import T0, cosine, make_entity, make_memory, queries
from tests.contract.facades import facade, release
from tests.contract.lifecycle_data import TEXTS, ada, expected_links, workshop
from tests.fakes import HashEmbedder


class Clock:
    """An injected clock tests can move."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


@pytest.fixture
def memory(store: MemoryStore, clock: Clock, api: str) -> Iterator[GraphMem]:
    # api: GraphMem itself, or AsyncGraphMem behind a blocking adapter (tests/contract/facades.py)
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False)
    driven = facade(gm, api)
    yield driven
    release(driven)


def write(store: MemoryStore, ns: str, *memories: Memory) -> None:
    entities = [make_entity(ns, "Ada"), make_entity(ns, "Bob")]
    store.write(ns, WriteBatch(memories=list(memories), entities=entities))


def vector_ids(store: MemoryStore, ns: str, text: str, **options: bool) -> set[str]:
    return {hit.memory_id for hit in store.vector_search(ns, queries(text), 20, **options)[0]}


# -- store calls ---------------------------------------------------------------------------


def test_scan_memories_pages_by_id(store: MemoryStore, new_namespace: Callable[[], str]) -> None:
    ns, other = new_namespace(), new_namespace()
    made = [make_memory(ns, f"memory number {word}") for word in ("one", "two", "three", "four")]
    superseded = make_memory(ns, "an old claim", superseded_by=made[0].id, tier="cold")
    write(store, ns, *made, superseded)
    write(store, other, make_memory(other, "memory number one"))
    expected = sorted(m.id for m in [*made, superseded])
    first = store.scan_memories(ns, None, 2, with_embeddings=True)
    assert [m.id for m in first] == expected[:2]
    assert first == store.get_memories(ns, expected[:2], with_embeddings=True)  # every field
    assert all(m.embedding is not None and m.namespace == ns for m in first)
    rest = store.scan_memories(ns, first[-1].id, 10)
    assert [m.id for m in rest] == expected[2:]  # superseded and cold ones too
    assert all(m.embedding is None for m in rest)
    assert rest == store.get_memories(ns, expected[2:])
    written = {
        m.id: m.model_copy(update={"embedding": None, "version": 1}) for m in [*made, superseded]
    }
    assert rest == [written[m.id] for m in rest]
    assert store.scan_memories(ns, expected[-1], 10) == []
    with pytest.raises(InvalidInputError, match="limit"):
        store.scan_memories(ns, None, 0)


def test_set_lifecycle_sets_flags_unless_accessed_since(store: MemoryStore, ns: str) -> None:
    text = "the boiler was serviced in March"
    a = make_memory(ns, text)
    b = make_memory(ns, "the boiler is in the basement", access_count=3)
    write(store, ns, a, b)
    changed = store.set_lifecycle(
        ns,
        [
            LifecycleUpdate(a.id, retrievable=False, tier="cold", access_count=0, version=1),
            LifecycleUpdate(b.id, retrievable=False, tier="cold", access_count=2, version=1),
            LifecycleUpdate("missing", retrievable=False, tier="cold", access_count=0, version=0),
        ],
    )
    assert changed == 1
    got_a, got_b = store.get_memories(ns, [a.id, b.id])
    assert (got_a.retrievable, got_a.tier) == (False, "cold")
    assert (got_b.retrievable, got_b.tier) == (True, "hot")
    assert got_a.content == a.content and got_a.access_count == 0
    stats = store.stats(ns)
    assert (stats["cold"], stats["unretrievable"]) == (1, 1)
    assert a.id not in vector_ids(store, ns, text, include_history=True)
    assert a.id in vector_ids(store, ns, text, include_history=True, include_cold=True)
    assert got_a.version == 2  # an applied update is a write of the memory
    again = [LifecycleUpdate(a.id, retrievable=False, tier="cold", access_count=0, version=2)]
    assert store.set_lifecycle(ns, again) == 0  # nothing left to change
    assert store.set_lifecycle(ns, []) == 0
    stale = [LifecycleUpdate(a.id, retrievable=True, tier="hot", access_count=0, version=1)]
    assert store.set_lifecycle(ns, stale) == 0  # written since that read: left alone
    back = [LifecycleUpdate(a.id, retrievable=True, tier="hot", access_count=0, version=2)]
    assert store.set_lifecycle(ns, back) == 1
    assert a.id in vector_ids(store, ns, text)


def test_associations_are_undirected_idempotent_and_namespaced(
    store: MemoryStore, new_namespace: Callable[[], str]
) -> None:
    ns, other = new_namespace(), new_namespace()
    a, b, c = (make_memory(ns, f"linked memory {w}") for w in ("alpha", "beta", "gamma"))
    stranger = make_memory(other, "linked memory alpha")
    write(store, ns, a, b, c)
    write(store, other, stranger)
    links = [Association(b.id, a.id, 0.8), Association(a.id, c.id, 0.9)]
    assert store.add_associations(ns, links) == 2
    # the same pair in the other direction, a new similarity: no new link, value replaced
    assert store.add_associations(ns, [Association(a.id, b.id, 0.85)]) == 0
    # links naming a missing memory or one of another namespace are skipped
    assert store.add_associations(ns, [Association(a.id, "missing", 0.9)]) == 0
    assert store.add_associations(ns, [Association(a.id, stranger.id, 0.9)]) == 0
    expected = sorted(
        [association(a.id, b.id, 0.85), association(a.id, c.id, 0.9)],
        key=lambda x: (x.source_id, x.target_id),
    )
    found = store.associations(ns, [a.id])
    assert [(x.source_id, x.target_id) for x in found] == [
        (x.source_id, x.target_id) for x in expected
    ]
    assert [x.similarity for x in found] == pytest.approx([x.similarity for x in expected])
    assert store.associations(ns, [c.id]) == [association(a.id, c.id, 0.9)]
    assert store.associations(ns, [b.id, c.id]) == found  # each link once
    assert store.associations(other, [a.id, stranger.id]) == []
    assert store.associations(ns, []) == []
    with pytest.raises(InvalidInputError, match=r"links\[0\]"):
        store.add_associations(ns, [Association(a.id, a.id, 1.0)])
    with pytest.raises(InvalidInputError, match=r"links\[1\]\.similarity"):
        store.add_associations(ns, [links[0], Association(a.id, c.id, math.nan)])
    # deleting a memory deletes its links; deleting the namespace deletes the rest
    store.write(ns, WriteBatch(deleted_memory_ids=[c.id]))
    assert store.associations(ns, [a.id, c.id]) == [association(a.id, b.id, 0.85)]
    store.delete_namespace(ns)
    write(store, ns, a, b)  # the same ids again: no link survived
    assert store.associations(ns, [a.id, b.id]) == []


# -- the consolidation pass ----------------------------------------------------------------


def all_links(store: MemoryStore, ns: str, made: dict[str, Memory]) -> list[Association]:
    return store.associations(ns, [m.id for m in made.values()])


@pytest.mark.parametrize("batch_size", [500, 2])
def test_consolidation_links_similar_memories_sharing_an_entity(
    memory: GraphMem, store: MemoryStore, new_namespace: Callable[[], str], batch_size: int
) -> None:
    ns, other = new_namespace(), new_namespace()
    made = workshop(ns)
    write(store, ns, *made.values())
    twins = workshop(other)  # the same texts and entity ids in another namespace
    write(store, other, *twins.values())
    report = memory.consolidate(ns, now=T0, batch_size=batch_size)
    assert report.scanned == 7
    assert report.batches == math.ceil(7 / batch_size)
    links = all_links(store, ns, made)
    assert [(x.source_id, x.target_id) for x in links] == expected_links(made)
    for x in links:
        a, b = (m for m in made.values() if m.id in (x.source_id, x.target_id))
        assert x.similarity == pytest.approx(cosine(a.content, b.content), abs=1e-5)
    assert report.associations_created == 6
    # nothing in the other namespace was linked or changed
    assert all_links(store, other, twins) == []
    assert store.get_memories(other, [twins["evening"].id])[0].tier == "cold"
    # a second run at the same time changes nothing
    again = memory.consolidate(ns, now=T0, batch_size=batch_size)
    assert again.associations_created == 0 and again.associations_found == 6
    changes = ("marked_unretrievable", "marked_retrievable", "moved_cold", "moved_hot")
    assert [getattr(again, c) for c in changes] == [0, 0, 0, 0]
    assert all_links(store, ns, made) == links


def test_incremental_consolidation_searches_from_new_memories_only(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    made = workshop(ns)
    write(store, ns, *made.values())
    assert memory.consolidate(ns, now=T0).associations_created == 6
    later = T0 + timedelta(days=1)
    # observed after the first pass: its neighbours are found from its own side
    fresh = ada(ns, "Ada builds looms in her workshop every morning", observed_at=later)
    # observed before it and never searched from: left for a full pass
    missed = ada(ns, "Ada builds looms in her new workshop", observed_at=T0)
    write(store, ns, fresh, missed)
    for key in ("day", "night", "old", "evening"):
        assert cosine(fresh.content, TEXTS[key]) >= 0.75
    assert cosine(fresh.content, missed.content) >= 0.75
    report = memory.consolidate(ns, now=later, since=later)
    assert report.associations_created == 5  # fresh with day, night, old, evening, missed
    assert linked_to(store, ns, fresh.id) == {
        *(made[k].id for k in ("day", "night", "old", "evening")),
        missed.id,
    }
    assert linked_to(store, ns, missed.id) == {fresh.id}
    # the full pass links missed with day, night, old and evening (cosines 0.79-0.86)
    assert memory.consolidate(ns, now=later).associations_created == 4


def linked_to(store: MemoryStore, ns: str, memory_id: str) -> set[str]:
    """The memories linked to ``memory_id``."""
    links = store.associations(ns, [memory_id])
    return {x.target_id if x.source_id == memory_id else x.source_id for x in links}


def test_consolidation_sets_retrievability_and_the_cold_tier(
    memory: GraphMem, store: MemoryStore, clock: Clock, ns: str
) -> None:
    # Preferences (τ = 90 days), stability 0, observed at T0 (SPEC §9.5 examples):
    #   strong: conf 0.85, θ = 1.5·0.15 = 0.225, unretrievable once 2^(-age/90) < 0.225,
    #           i.e. after 90·log2(1/0.225) = 193.68 days;
    #   weak:   conf 0.45, θ = 0.825, after 90·log2(1/0.825) = 24.98 days;
    #   sure:   conf 0.95, θ = 0.075 < floor 0.1: never;
    #   used:   like strong, but accessed at T0 + 250 days.
    def pref(content: str, conf: float, **fields: Any) -> Memory:
        return make_memory(ns, content, type="Preference", confidence=conf, **fields)

    strong = pref("Ro prefers window seats", 0.85)
    weak = pref("Ro maybe prefers aisle seats", 0.45)
    sure = pref("Ro prefers green tea", 0.95)
    used = pref("Ro prefers early flights", 0.85, last_accessed_at=T0 + timedelta(days=250))
    write(store, ns, strong, weak, sure, used)

    def state() -> dict[str, tuple[bool, str]]:
        got = store.get_memories(ns, [strong.id, weak.id, sure.id, used.id])
        return {m.content.split()[-2]: (m.retrievable, m.tier) for m in got}

    at = T0 + timedelta(days=45)  # weak: 2^(-0.5) = 0.707 < 0.825; strong: 0.707 >= 0.225
    report = memory.consolidate(ns, now=at)
    assert (report.marked_unretrievable, report.moved_cold) == (1, 0)
    assert state() == {
        "window": (True, "hot"),
        "aisle": (False, "hot"),
        "green": (True, "hot"),
        "early": (True, "hot"),
    }
    assert weak.id not in vector_ids(store, ns, weak.content)
    # weak has been unretrievable for 114 - 24.98 = 89.02 days (not more than 90): hot
    assert memory.consolidate(ns, now=T0 + timedelta(days=114)).moved_cold == 0
    # ... and for 91.02 days at T0 + 116: cold, no longer vector-searchable at all
    assert memory.consolidate(ns, now=T0 + timedelta(days=116)).moved_cold == 1
    assert state()["aisle"] == (False, "cold")
    assert weak.id not in vector_ids(store, ns, weak.content, include_history=True)
    # T0 + 284: strong unretrievable for 284 - 193.68 = 90.32 days -> cold; used too, but
    # accessed 34 days ago -> hot; sure is retrievable (freshness floor 0.1 >= 0.075)
    report = memory.consolidate(ns, now=T0 + timedelta(days=284))
    assert (report.marked_unretrievable, report.moved_cold) == (2, 1)
    assert state() == {
        "window": (False, "cold"),
        "aisle": (False, "cold"),
        "green": (True, "hot"),
        "early": (False, "hot"),
    }
    # used: 91 days after its access (T0 + 341) it goes cold as well
    assert memory.consolidate(ns, now=T0 + timedelta(days=341)).moved_cold == 1
    assert state()["early"] == (False, "cold")
    assert store.stats(ns)["cold"] == 3
    # a confirmation restarts the decay clock (SPEC §9.4): retrievable and hot again
    clock.now = T0 + timedelta(days=341)
    memory.confirm(ns, weak.id)
    report = memory.consolidate(ns, now=T0 + timedelta(days=341))
    assert (report.marked_retrievable, report.moved_hot) == (1, 1)
    assert state()["aisle"] == (True, "hot")


def test_consolidation_leaves_a_memory_recalled_meanwhile(store: MemoryStore, ns: str) -> None:
    # weak is due for the unretrievable flag (see the test above), but a recall touches it
    # between the pass's scan and its update: the update is skipped, not forced
    weak = make_memory(ns, "Ro maybe prefers aisle seats", type="Preference", confidence=0.45)
    write(store, ns, weak)
    at = T0 + timedelta(days=45)

    class RecallBetween:
        def __init__(self, inner: MemoryStore) -> None:
            self._inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

        def set_lifecycle(self, namespace: str, updates: list[LifecycleUpdate]) -> int:
            self._inner.record_access(ns, [AccessUpdate(weak.id, at, 0.0, 0.55)])
            return self._inner.set_lifecycle(namespace, updates)

    report = consolidate(RecallBetween(store), Settings(), ns, at)  # type: ignore[arg-type]
    assert (report.marked_unretrievable, report.skipped) == (1, 1)
    [got] = store.get_memories(ns, [weak.id])
    assert got.retrievable and got.access_count == 1
    assert consolidate(store, Settings(), ns, at).skipped == 0  # the next pass applies it
    assert not store.get_memories(ns, [weak.id])[0].retrievable


def test_consolidation_runs_beside_recall(memory: GraphMem, store: MemoryStore, ns: str) -> None:
    made = workshop(ns)
    write(store, ns, *made.values())
    errors: list[BaseException] = []
    stop = threading.Event()

    def recall_loop() -> None:
        try:
            while not stop.is_set():
                memory.recall(ns, "Where does Ada build looms?", record_access=False)
        except BaseException as exc:  # reported below
            errors.append(exc)

    thread = threading.Thread(target=recall_loop)
    thread.start()
    try:
        for _ in range(3):
            memory.consolidate(ns, now=T0, batch_size=2)
    finally:
        stop.set()
        thread.join()
    assert errors == []
    assert [(x.source_id, x.target_id) for x in all_links(store, ns, made)] == expected_links(made)


def test_consolidate_rejects_bad_arguments(memory: GraphMem, ns: str) -> None:
    with pytest.raises(InvalidInputError, match="batch_size"):
        memory.consolidate(ns, batch_size=0)
    with pytest.raises(InvalidInputError, match="now"):
        memory.consolidate(ns, now=datetime(2024, 1, 1))  # naive on purpose


# -- cold reactivation (seed 003) -------------------------------------------------------------


def test_cold_memory_linked_to_a_recalled_one_returns_to_hot(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    made = workshop(ns)
    write(store, ns, *made.values())
    memory.consolidate(ns, now=T0)
    cold = made["evening"]
    write(
        store,
        ns,
        cold.model_copy(update={"stability": 0.3, "last_accessed_at": T0 - timedelta(days=10)}),
    )
    assert cold.id not in vector_ids(store, ns, cold.content, include_history=True)
    [before] = store.get_memories(ns, [cold.id])
    assert (before.tier, before.retrievable) == ("cold", False)
    # "night" was recalled; "evening" is linked to it and cold; "day" is linked but hot
    reactivated = memory.reactivate_associated(ns, [made["night"].id], now=T0, session_id="s7")
    assert reactivated == [cold.id]
    [got] = store.get_memories(ns, [cold.id])
    # resurrected: hot and retrievable, so recall's default vector search finds it again
    assert (got.tier, got.retrievable) == ("hot", True)
    assert cold.id in vector_ids(store, ns, cold.content)
    assert got.version == before.version + 1  # a writer that read it cold re-reads
    # seed 003 worked example: 0.3 + 0.03·min(2, 10/7) = 0.3429
    assert got.stability == pytest.approx(0.3 + 0.03 * 10 / 7)
    assert got.salience == pytest.approx(0.5 + 0.1 * (1 - 0.5))  # SPEC §4 access step
    assert (got.access_count, got.last_accessed_at, got.accessed_sessions) == (1, T0, ("s7",))
    assert cold.id in vector_ids(store, ns, cold.content, include_history=True)
    for key in ("day", "night", "old", "again"):
        assert store.get_memories(ns, [made[key].id])[0].access_count == 0
    # already hot: nothing left to reactivate
    assert memory.reactivate_associated(ns, [made["night"].id], now=T0) == []
    assert memory.reactivate_associated(ns, [], now=T0) == []


def test_reactivation_skips_unlinked_and_superseded_cold_memories(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    recalled = ada(ns, "Ada repairs her loom")
    unlinked = ada(ns, "Ada sold a loom", tier="cold", retrievable=False)
    replaced = ada(ns, "Ada owns two looms", tier="cold", superseded_by=recalled.id)
    write(store, ns, recalled, unlinked, replaced)
    store.add_associations(ns, [Association(recalled.id, replaced.id, 0.8)])
    assert memory.reactivate_associated(ns, [recalled.id], now=T0) == []
    tiers = [m.tier for m in store.get_memories(ns, [unlinked.id, replaced.id])]
    assert tiers == ["cold", "cold"]


# -- dedup across tiers (SPEC §2.7, §4) ----------------------------------------------------


def _make_cold(store: MemoryStore, ns: str, memory_id: str) -> None:
    """What the consolidation pass does to a long-unretrievable memory (set directly)."""
    [got] = store.get_memories(ns, [memory_id])
    update = LifecycleUpdate(memory_id, False, "cold", got.access_count, got.version)
    assert store.set_lifecycle(ns, [update]) == 1


def test_a_restated_cold_memory_is_merged_and_back_in_the_hot_tier(
    memory: GraphMem, store: MemoryStore, clock: Clock, ns: str
) -> None:
    text = "Ada keeps the loom manuals in the attic"
    restated = "Ada keeps the loom manuals in the attic today"
    assert 0.92 < cosine(text, restated) < 0.999  # a tier-2 duplicate (not a tier-1 one)
    first = memory.remember(ns, [cand(text, "s1", "s1:1")]).created[0]
    _make_cold(store, ns, first)
    assert first not in vector_ids(store, ns, restated)  # recall's vector search skips it
    clock.now = T0 + timedelta(days=30)
    report = memory.remember(ns, [cand(restated, "s2", "s2:1", observed_at=clock.now)])
    # dedup still finds it: one memory, n = 2 (not a new memory with n = 1) ...
    assert (report.created, report.merged) == ((), (first,))
    assert store.stats(ns)["memories"] == 1
    [got] = store.get_memories(ns, [first])
    assert (got.n, got.session_ids, got.content) == (2, ("s1", "s2"), text)
    # ... and the new observation makes it fresh: hot and retrievable again
    assert (got.tier, got.retrievable) == ("hot", True)
    assert first in vector_ids(store, ns, restated)


def test_an_old_restatement_of_a_cold_memory_merges_but_leaves_it_cold(
    memory: GraphMem, store: MemoryStore, clock: Clock, ns: str
) -> None:
    # imported history: both observations are over a year old, so the merged memory is
    # still stale at "now" (Fact, n = 2: conf 0.862, θ = 0.207 > 2^(-499/180) = 0.146)
    text = "Ada kept the loom manuals in the cellar"
    restated = "Ada kept the loom manuals in the cellar then"
    assert 0.92 < cosine(text, restated) < 0.999
    long_ago = T0 - timedelta(days=500)
    first = memory.remember(ns, [cand(text, "s1", "s1:1", observed_at=long_ago)]).created[0]
    _make_cold(store, ns, first)
    later = long_ago + timedelta(days=1)
    report = memory.remember(ns, [cand(restated, "s2", "s2:1", observed_at=later)])
    assert (report.created, report.merged) == ((), (first,))
    [got] = store.get_memories(ns, [first])
    assert (got.n, got.tier, got.retrievable) == (2, "cold", False)


# -- forgetting a session (seed 000, "GDPR deletion") -------------------------------------


def cand(content: str, session: str, turn: str, **extra: Any) -> dict[str, Any]:
    return {
        "content": content,
        "extractor": "verbatim",
        "session_id": session,
        "turn_id": turn,
        "observed_at": T0.isoformat(),
        **extra,
    }


def test_forget_session_in_batches_removes_its_turns_and_links(
    memory: GraphMem,
    store: MemoryStore,
    store_kind: str,
    ns: str,
    request: pytest.FixtureRequest,
) -> None:
    only = memory.remember(ns, [cand("Jo plays the cello", "s1", "s1:1")]).created[0]
    also = memory.remember(ns, [cand("Jo bakes bread", "s1", "s1:2")]).created[0]
    shared = memory.remember(ns, [cand("Jo has two cats", "s1", "s1:3")]).created[0]
    later = (T0 + timedelta(days=3)).isoformat()  # an independent observation (SPEC §2.8)
    memory.remember(ns, [cand("Jo has two cats", "s2", "s2:1", observed_at=later)])
    kept = memory.remember(ns, [cand("Jo lives by the sea", "s2", "s2:2")]).created[0]
    store.add_associations(ns, [Association(only, kept, 0.8), Association(shared, kept, 0.8)])
    assert memory.stats(ns)["sessions"] == 2

    writes: list[WriteBatch] = []
    real_forget = store.forget  # each batch is one forget transaction (docs/forgetting.md)

    def counting_forget(namespace: str, plan: Any, *, dry_run: bool = False) -> Any:
        writes.append(plan.batch)
        return real_forget(namespace, plan, dry_run=dry_run)

    store.forget = counting_forget  # type: ignore[method-assign]
    try:
        preview = memory.forget_session(ns, "s1", dry_run=True)
        assert writes == []
        outcome = memory.forget_session(ns, "s1", batch_size=2)
    finally:
        del store.forget  # type: ignore[method-assign]
    affected = sorted([only, also, shared])
    assert len(writes) == 2  # three affected memories, two per transaction
    assert sorted(outcome["deleted"]) == sorted([only, also])
    assert outcome == preview and outcome["updated"] == [shared]
    assert {*outcome["deleted"], *outcome["updated"]} == set(affected)
    left = store.get_memories(ns, [only, also, shared, kept])
    assert [m.id for m in left] == [shared, kept]
    assert left[0].n == 1 and left[0].session_ids == ("s2",)
    assert store.associations(ns, [only, shared, kept]) == [association(shared, kept, 0.8)]
    assert memory.stats(ns)["sessions"] == 1
    assert store.memories_in_session(ns, "s1") == []
    if store_kind == "neo4j":  # no Turn or Session node of s1 is left
        server = request.getfixturevalue("neo4j_server")
        with server.driver() as driver:
            records, _, _ = driver.execute_query(
                "MATCH (n) WHERE n.namespace = $ns AND"
                " ((n:Turn AND n.session_id = 's1') OR (n:Session AND n.id = 's1'))"
                " RETURN count(n) AS left",
                ns=ns,
                database_=server.database,
            )
            assert records[0]["left"] == 0
            records, _, _ = driver.execute_query(
                "MATCH (t:Turn {namespace: $ns})-[:IN_SESSION]->(s:Session {namespace: $ns})"
                " RETURN s.id AS session, t.id AS turn ORDER BY turn",
                ns=ns,
                database_=server.database,
            )
            assert [(r["session"], r["turn"]) for r in records] == [("s2", "s2:1"), ("s2", "s2:2")]


def test_forget_session_rejects_a_bad_batch_size(memory: GraphMem, ns: str) -> None:
    with pytest.raises(InvalidInputError, match="batch_size"):
        memory.forget_session(ns, "s1", batch_size=0)


# -- corrections (SPEC §2.11) ---------------------------------------------------------------


def test_correction_chain_is_auditable(memory: GraphMem, ns: str) -> None:
    first = memory.remember(ns, [cand("Hana's birthday is in May", "s1", "s1:1")]).created[0]
    _, second = memory.correct(ns, first, "Hana's birthday is in June")
    _, third = memory.correct(ns, second.id, "Hana's birthday is on 3 June")
    chain = memory.history(ns, first)
    assert [m.id for m in chain] == [first, second.id, third.id]
    assert [m.superseded_by for m in chain] == [second.id, third.id, None]
    assert all(m.valid_until is not None for m in chain[:2])
    default = memory.recall(ns, "When is Hana's birthday?", record_access=False)
    assert {h.memory.id for h in default.hits} == {third.id}
    audit = memory.recall(ns, "When is Hana's birthday?", include_history=True, record_access=False)
    assert {h.memory.id for h in audit.hits} == {first, second.id, third.id}


# -- the composite profile (seed 004) -------------------------------------------------------


def test_composite_profile_ranks_by_similarity_salience_confidence(
    memory: GraphMem, store: MemoryStore, clock: Clock, ns: str
) -> None:
    query = "Which tea does Bea drink"
    rows = {  # content: (salience, confidence)
        "Bea drinks green tea every morning": (0.9, 0.95),
        "Bea drinks tea": (0.1, 0.6),
        "Bea visited Rome": (0.5, 0.8),
    }
    made = {
        text: make_memory(ns, text, salience=sal, confidence=conf)
        for text, (sal, conf) in rows.items()
    }
    write(store, ns, *made.values())
    clock.now = T0 + timedelta(days=10)
    # relevance = 0.6·cos + 0.2·salience·e^(-λ·(1 - 0.5·stability)·days) + 0.2·confidence,
    # Fact λ = 0.01, stability 0, 10 days since the last observation (never accessed):
    #   green tea: 0.6·0.3651 + 0.2·0.9·0.9048 + 0.2·0.95 = 0.5720
    #   tea:       0.6·0.5164 + 0.2·0.1·0.9048 + 0.2·0.60 = 0.4479
    #   Rome:      0.6·0.1721 + 0.2·0.5·0.9048 + 0.2·0.80 = 0.3538
    decay = math.exp(-0.01 * 10)
    expected = {
        made[text].id: 0.6 * max(0.0, cosine(query, text)) + 0.2 * sal * decay + 0.2 * conf
        for text, (sal, conf) in rows.items()
    }
    assert expected[made["Bea drinks green tea every morning"].id] == pytest.approx(0.5720, 1e-3)
    options: dict[str, Any] = {
        "retrievers": ("semantic",),
        "k": 3,
        "mmr": False,  # the exploratory plan would diversify the order
        "record_access": False,
    }
    composite = memory.recall(ns, query, profile="composite", **options)
    assert [h.memory.content for h in composite.hits] == [
        "Bea drinks green tea every morning",
        "Bea drinks tea",
        "Bea visited Rome",
    ]
    for hit in composite.hits:
        assert hit.weight == pytest.approx(expected[hit.memory.id], abs=1e-5)
    # the default profile ranks by RRF × freshness × access boost: cosine order here
    default = memory.recall(ns, query, **options)
    assert [h.memory.content for h in default.hits][:2] == [
        "Bea drinks tea",
        "Bea drinks green tea every morning",
    ]
