"""The store contract: what every MemoryStore promises (graphmem.store.base).

Written only against the protocol, so that the embedded and the Neo4j store
pass the same tests. Scores are compared by order and membership, never by
exact BM25 values (Lucene's and rank-bm25's differ by constant factors and
length encoding); cosines are compared to values computed here with numpy.
"""

from __future__ import annotations

import inspect
import itertools
import threading
from collections.abc import Callable, Sequence
from datetime import timedelta, timezone
from typing import Generic, Protocol

import numpy as np
import pytest

from graphmem.errors import InvalidInputError, StoreUnavailableError, WriteConflictError
from graphmem.models import Entity, Memory, Observation, Relation
from graphmem.store.base import AccessUpdate, MemoryStore, ScoredId, WriteBatch
from graphmem.text import surface_hash
from tests.contract.builders import (
    DIM,
    T0,
    cosine,
    embed,
    make_entity,
    make_memory,
    make_relation,
    queries,
)

STATS_KEYS = {
    "memories",
    "current",
    "superseded",
    "cold",
    "unretrievable",
    "entities",
    "relations",
    "sessions",
}


def ids(hits: list[ScoredId]) -> list[str]:
    return [hit.memory_id for hit in hits]


def write(
    store: MemoryStore,
    ns: str,
    *memories: Memory,
    entities: Sequence[Entity] = (),
    relations: Sequence[Relation] = (),
) -> None:
    store.write(
        ns, WriteBatch(memories=list(memories), entities=list(entities), relations=list(relations))
    )


def rank(query: str, memories: Sequence[Memory]) -> list[str]:
    """Expected order of ``memories`` for ``query``: cosine desc, then id.

    Asserts the data has no near-ties (only exact ones, e.g. two orthogonal
    vectors), so that store rounding cannot flip the order.
    """
    scored = sorted((-cosine(query, m.content), m.id) for m in memories)
    for (left, _), (right, _) in itertools.pairwise(scored):
        assert right - left == 0.0 or right - left > 1e-3, "test data must not nearly tie"
    return [memory_id for _, memory_id in scored]


def without_embedding(memory: Memory) -> Memory:
    return memory.model_copy(update={"embedding": None})


def as_stored(memory: Memory, version: int = 1) -> Memory:
    """``memory`` as the store returns it after ``version`` writes, without embedding."""
    return memory.model_copy(update={"embedding": None, "version": version})


def by_id(*memories: Memory) -> list[Memory]:
    return sorted(memories, key=lambda m: m.id)


# -- lifecycle and round trip ----------------------------------------------------------------


def _protocol_members() -> list[str]:
    """The public methods and attributes ``MemoryStore`` declares, through its roles."""
    roles = [c for c in MemoryStore.__mro__ if c not in (Protocol, Generic, object)]
    declared = {name for role in roles for name in vars(role) if not name.startswith("_")}
    annotated = {name for role in roles for name in getattr(role, "__annotations__", {})}
    return sorted(declared | annotated)


def _parameters(function: Callable[..., object]) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_store_satisfies_the_protocol(store: MemoryStore) -> None:
    """Every member of the protocol (its roles'), and each method, as the store answers
    it, with the protocol's parameters (names, kinds, defaults): a runtime_checkable
    ``isinstance`` checks names only."""
    members = _protocol_members()
    assert len(members) >= 30  # the walk found the roles' methods
    for name in members:
        assert hasattr(store, name), name
        declared = getattr(MemoryStore, name, None)
        if callable(declared):  # the protocol's function has `self`; the bound method not
            assert _parameters(declared)[1:] == _parameters(getattr(store, name)), name
    store.open()  # idempotent
    with store as entered:  # a context manager: opens, and closes at the end
        assert entered is store
        store.count_memories("no-such-namespace")
    with pytest.raises(StoreUnavailableError):
        store.count_memories("no-such-namespace")
    store.open()  # a closed store opens again


def test_health_and_server_info_describe_the_open_store(store: MemoryStore) -> None:
    health = store.health()
    assert health.ok and health.problems == ()
    assert all(index.online for index in health.indexes)
    if store.name == "neo4j":  # the indexes the store needs are listed, each ONLINE
        names = {index.name for index in health.indexes}
        assert {"memory_embedding", "memory_content"} <= names, names
    info = store.server_info()
    assert info.backend == store.name
    assert info.version[0].isdigit() and info.location
    assert dict(info.items())["backend"] == store.name
    store.close()
    for call in (store.health, store.server_info):
        with pytest.raises(StoreUnavailableError):
            call()
    store.open()


def test_write_then_get_round_trips_every_field(store: MemoryStore, ns: str) -> None:
    plus2 = timezone(timedelta(hours=2))
    observations = (
        Observation(
            session_id="s1",
            turn_id="s1:4",
            observed_at=T0.astimezone(plus2),
            source_level="confirmed",
            surface_hash=surface_hash("Ana moved to Lisbon"),
        ),
        Observation(
            session_id="s2",
            observed_at=T0 + timedelta(days=3, microseconds=7),
            source_level="weak_inference",
            surface_hash=surface_hash("ana moved to lisbon!"),
            independent=False,
        ),
    )
    ana, lisbon = make_entity(ns, "Ana"), make_entity(ns, "Lisbon")
    memory = make_memory(
        ns,
        "Ana moved to Lisbon",
        type="Event",
        subject="Ana",
        predicate="lives_in",
        object="Lisbon",
        type_uncertain=True,
        hearsay=True,
        source_level="confirmed",
        source_strength=0.8,
        extractor="claude-3-5-sonnet",
        extractor_confidence=0.9,
        type_prior=0.85,
        n=2,
        observations=observations,
        grounding="partial",
        confidence=0.6712,
        access_count=3,
        last_accessed_at=T0 + timedelta(days=4),
        accessed_sessions=("s3", "s4"),
        stability=0.25,
        salience=0.65,
        retrievable=False,
        tier="cold",
        created_at=T0,
        last_observed_at=T0 + timedelta(days=3),
        event_time=(T0 - timedelta(days=1)).astimezone(plus2),
        valid_until=T0 + timedelta(days=30),
        superseded_by="some-newer-memory",
        mentions=((ana.id, "subject"), (lisbon.id, "object")),
    )
    write(store, ns, memory, entities=[ana, lisbon])

    [full] = store.get_memories(ns, [memory.id], with_embeddings=True)
    [bare] = store.get_memories(ns, [memory.id])

    assert without_embedding(full) == as_stored(memory)
    assert full.model_dump(exclude={"embedding"}) == as_stored(memory).model_dump(
        exclude={"embedding"}
    )
    assert full.embedding is not None and memory.embedding is not None
    np.testing.assert_allclose(full.embedding, memory.embedding, rtol=0, atol=1e-6)
    assert bare.embedding is None
    assert bare == as_stored(memory)
    for value in (full.created_at, full.event_time, full.observations[0].observed_at):
        assert value is not None and value.utcoffset() is not None
    assert full.session_ids == ("s1", "s2")
    assert store.list_entities(ns) == sorted([ana, lisbon], key=lambda e: e.id)


def test_count_memories_stops_at_at_most(store: MemoryStore, ns: str) -> None:
    write(store, ns, *(make_memory(ns, text) for text in ("alpha one", "beta two", "gamma three")))
    assert [store.count_memories(ns, at_most=cap) for cap in (0, 1, 2, 3, 4, 100)] == [
        0,
        1,
        2,
        3,
        3,
        3,
    ]
    assert store.count_memories("no-such-namespace", at_most=5) == 0
    with pytest.raises(InvalidInputError):
        store.count_memories(ns, at_most=-1)


def test_get_memories_keeps_order_and_skips_missing(store: MemoryStore, ns: str) -> None:
    a, b, c = (make_memory(ns, text) for text in ("alpha one", "beta two", "gamma three"))
    write(store, ns, a, b, c)
    got = store.get_memories(ns, [c.id, "no-such-id", a.id, b.id])
    assert [m.id for m in got] == [c.id, a.id, b.id]
    assert store.get_memories(ns, []) == []
    assert store.count_memories(ns) == 3


def test_upsert_replaces_memory_mentions_and_sessions(store: MemoryStore, ns: str) -> None:
    old_entity, new_entity = make_entity(ns, "Old Corp"), make_entity(ns, "New Corp")
    first = make_memory(
        ns, "works at old corp", sessions=("s-old",), mentions=[(old_entity.id, "object")]
    )
    write(store, ns, first, entities=[old_entity, new_entity])
    second = make_memory(
        ns,
        "works at new corp",
        id=first.id,
        sessions=("s-new",),
        mentions=[(new_entity.id, "object")],
    )
    write(store, ns, second)

    [got] = store.get_memories(ns, [first.id], with_embeddings=True)
    assert without_embedding(got) == as_stored(second, version=2)
    assert store.count_memories(ns) == 1
    assert store.entity_search(ns, [old_entity.id], 10) == []
    assert [h.memory_id for h in store.entity_search(ns, [new_entity.id], 10)] == [first.id]
    assert store.memories_in_session(ns, "s-old") == []
    assert [m.id for m in store.memories_in_session(ns, "s-new")] == [first.id]
    assert store.text_search(ns, "old", 10) == []
    assert ids(store.text_search(ns, "new", 10)) == [first.id]
    [[top]] = store.vector_search(ns, queries("works at new corp"), 1)
    assert top.memory_id == first.id and top.score == pytest.approx(1.0, abs=1e-4)


def test_batch_with_an_invalid_item_writes_nothing(store: MemoryStore, ns: str) -> None:
    good = make_memory(ns, "a perfectly good memory")
    bad = make_memory(ns, "a memory with a short vector", embedding=(0.5,) * (DIM - 1))
    entity = make_entity(ns, "Somebody")
    relation = make_relation(ns, entity, "knows", make_entity(ns, "Other"), memory=good)
    with pytest.raises(InvalidInputError):
        write(store, ns, good, bad, entities=[entity], relations=[relation])
    assert store.count_memories(ns) == 0
    assert store.list_entities(ns) == []
    assert store.stats(ns) == dict.fromkeys(STATS_KEYS, 0)
    assert ns not in store.namespaces()


def test_delete_removes_memory_and_its_links(store: MemoryStore, ns: str) -> None:
    a, b = make_entity(ns, "Ada"), make_entity(ns, "Byron")
    gone = make_memory(
        ns, "ada is the daughter of byron", sessions=("s-gone",), mentions=[(a.id, "subject")]
    )
    kept = make_memory(
        ns, "ada wrote the first program", sessions=("s-kept",), mentions=[(a.id, "subject")]
    )
    rel = make_relation(ns, a, "daughter_of", b, memory=gone)
    write(store, ns, gone, kept, entities=[a, b], relations=[rel])
    assert store.relation_subgraph(ns, [a.id], 1) == [rel]

    store.write(ns, WriteBatch(deleted_memory_ids=[gone.id, "never-existed"]))

    assert store.get_memories(ns, [gone.id]) == []
    assert [m.id for m in store.get_memories(ns, [kept.id])] == [kept.id]
    assert [h.memory_id for h in store.entity_search(ns, [a.id], 10)] == [kept.id]
    assert store.memories_in_session(ns, "s-gone") == []
    assert store.relation_subgraph(ns, [a.id], 3) == []
    assert ids(store.text_search(ns, "daughter", 10)) == []
    assert gone.id not in ids(store.vector_search(ns, queries(gone.content), 10)[0])
    stats = store.stats(ns)
    assert (stats["memories"], stats["relations"], stats["entities"], stats["sessions"]) == (
        1,
        0,
        2,
        1,
    )


# -- lookups ---------------------------------------------------------------------------------


def test_find_by_hashes_returns_current_memories_only(store: MemoryStore, ns: str) -> None:
    current = make_memory(ns, "the sky is blue")
    old = make_memory(ns, "the sky is green", superseded_by=current.id)
    write(store, ns, current, old)
    found = store.find_by_hashes(ns, [current.content_hash, old.content_hash, "0" * 64])
    assert set(found) == {current.content_hash}
    assert without_embedding(found[current.content_hash]) == as_stored(current)
    assert store.find_by_hashes(ns, []) == {}


def test_find_by_subject_predicate_returns_current_memories_only(
    store: MemoryStore, ns: str
) -> None:
    now = make_memory(ns, "Ana lives in Lisbon", subject="Ana", predicate="lives_in")
    then = make_memory(
        ns, "Ana lives in Porto", subject="Ana", predicate="lives_in", superseded_by=now.id
    )
    other = make_memory(ns, "Ana works at Acme", subject="Ana", predicate="works_at")
    write(store, ns, now, then, other)
    assert [m.id for m in store.find_by_subject_predicate(ns, "Ana", "lives_in")] == [now.id]
    assert store.find_by_subject_predicate(ns, "Bo", "lives_in") == []


def test_memories_in_session_includes_superseded(store: MemoryStore, ns: str) -> None:
    a = make_memory(ns, "first claim", sessions=("s1", "s2"))
    b = make_memory(ns, "second claim", sessions=("s2",), superseded_by=a.id)
    c = make_memory(ns, "third claim", sessions=("s3",))
    write(store, ns, a, b, c)
    assert {m.id for m in store.memories_in_session(ns, "s2")} == {a.id, b.id}
    assert [m.id for m in store.memories_in_session(ns, "s1")] == [a.id]
    assert store.memories_in_session(ns, "s9") == []


def test_memory_sessions_maps_memories_to_their_sorted_sessions(
    store: MemoryStore, ns: str, new_namespace: Callable[[], str]
) -> None:
    a = make_memory(ns, "first claim", sessions=("s2", "s1"))
    b = make_memory(ns, "second claim", sessions=("s2",), superseded_by=a.id)
    write(store, ns, a, b)
    other = new_namespace()
    write(store, other, make_memory(other, "elsewhere", id=a.id, sessions=("s9",)))
    got = store.memory_sessions(ns, [b.id, "no-such-id", a.id, a.id])
    assert got == {a.id: ("s1", "s2"), b.id: ("s2",)}
    assert store.memory_sessions(ns, []) == {}


def test_memory_cosines_score_stored_memories_of_any_tier_and_currency(
    store: MemoryStore, ns: str, new_namespace: Callable[[], str]
) -> None:
    query = "where does the sister work"
    a = make_memory(ns, "Priya works at Lumen Labs")
    b = make_memory(ns, "Priya worked at Quarry Systems", superseded_by=a.id)
    c = make_memory(ns, "the cellar floods every spring", tier="cold", retrievable=False)
    write(store, ns, a, b, c)
    other = new_namespace()
    write(store, other, make_memory(other, "elsewhere", id="only-elsewhere"))
    got = store.memory_cosines(ns, [c.id, "only-elsewhere", a.id, b.id, a.id], embed(query))
    assert set(got) == {a.id, b.id, c.id}
    for memory in (a, b, c):
        assert got[memory.id] == pytest.approx(cosine(memory.content, query), abs=1e-5)
    assert store.memory_cosines(ns, [], embed(query)) == {}
    assert store.memory_cosines(ns, [a.id], np.zeros(DIM, dtype=np.float32)) == {a.id: 0.0}
    with pytest.raises(InvalidInputError):
        store.memory_cosines(ns, [a.id], np.ones(DIM + 1, dtype=np.float32))


def test_stats_count_every_category(store: MemoryStore, ns: str) -> None:
    x, y = make_entity(ns, "X"), make_entity(ns, "Y")
    hot = make_memory(ns, "plain current memory", sessions=("s1", "s2"))
    write(
        store,
        ns,
        hot,
        make_memory(ns, "superseded memory", superseded_by=hot.id, sessions=("s2",)),
        make_memory(ns, "cold memory", tier="cold", retrievable=False, sessions=("s3",)),
        make_memory(ns, "faded memory", retrievable=False),
        entities=[x, y],
        relations=[make_relation(ns, x, "likes", y, memory=hot)],
    )
    assert store.stats(ns) == {
        "memories": 4,
        "current": 3,
        "superseded": 1,
        "cold": 1,
        "unretrievable": 2,
        "entities": 2,
        "relations": 1,
        "sessions": 3,
    }
    assert store.count_memories(ns) == 4


def test_namespaces_and_delete_namespace(
    store: MemoryStore, new_namespace: Callable[[], str]
) -> None:
    a, b, only_entity = new_namespace(), new_namespace(), new_namespace()
    write(store, a, make_memory(a, "one"), make_memory(a, "two"))
    write(store, b, make_memory(b, "one"))
    store.write(only_entity, WriteBatch(entities=[make_entity(only_entity, "Lonely")]))
    assert {a, b, only_entity} <= set(store.namespaces())

    assert store.delete_namespace(a) == 2
    assert a not in store.namespaces()
    assert store.count_memories(a) == 0
    assert store.count_memories(b) == 1
    assert store.delete_namespace(a) == 0


# -- retrievers ------------------------------------------------------------------------------


def test_vector_search_ranks_by_cosine(store: MemoryStore, ns: str) -> None:
    texts = [
        "coffee espresso morning ritual",
        "coffee espresso beans",
        "coffee with milk and sugar",
        "tea garden in the rain",
        "quarterly tax report deadline",
    ]
    memories = {t: make_memory(ns, t) for t in texts}
    write(store, ns, *memories.values())
    query = "coffee espresso morning"
    expected = rank(query, list(memories.values()))
    content = {m.id: m.content for m in memories.values()}

    results = store.vector_search(ns, queries(query, "tea garden in the rain"), 3)

    assert len(results) == 2
    assert ids(results[0]) == expected[:3]
    for hit in results[0]:
        assert hit.score == pytest.approx(cosine(query, content[hit.memory_id]), abs=1e-4)
        assert -1.0 <= hit.score <= 1.0
    assert results[1][0].memory_id == memories["tea garden in the rain"].id
    assert results[1][0].score == pytest.approx(1.0, abs=1e-4)
    assert ids(store.vector_search(ns, queries(query), 100)[0]) == expected


def test_vector_search_exclusions_and_flags(store: MemoryStore, ns: str) -> None:
    text = "the deploy runs every friday night"
    current = make_memory(ns, text)
    superseded = make_memory(ns, text + " old", superseded_by=current.id)
    cold = make_memory(ns, text + " cold", tier="cold")
    unretrievable = make_memory(ns, text + " faded", retrievable=False)
    write(store, ns, current, superseded, cold, unretrievable)

    def found(**flags: bool) -> set[str]:
        return set(ids(store.vector_search(ns, queries(text), 10, **flags)[0]))

    assert found() == {current.id}
    assert found(include_history=True) == {current.id, superseded.id, unretrievable.id}
    assert found(include_cold=True) == {current.id, cold.id}
    assert found(include_history=True, include_cold=True) == {
        current.id,
        superseded.id,
        cold.id,
        unretrievable.id,
    }


def test_vector_search_breaks_ties_by_id(store: MemoryStore, ns: str) -> None:
    twins = [
        make_memory(ns, f"twin {i}", embedding=tuple(float(x) for x in embed("identical twins")))
        for i in range(4)
    ]
    write(store, ns, *twins)
    hits = store.vector_search(ns, queries("identical twins"), 3)[0]
    assert ids(hits) == sorted(m.id for m in twins)[:3]


def test_searches_reject_wrong_embedding_dimension(store: MemoryStore, ns: str) -> None:
    write(store, ns, make_memory(ns, "anything"))
    with pytest.raises(InvalidInputError):
        store.vector_search(ns, np.ones((1, DIM + 1), dtype=np.float32), 5)
    with pytest.raises(InvalidInputError):
        store.entity_search(ns, ["e"], 5, embedding=np.ones(DIM - 1, dtype=np.float32))


def test_text_search_ranks_rare_terms_first(store: MemoryStore, ns: str) -> None:
    cat_long = make_memory(ns, "cat sat on the mat")
    cat_short = make_memory(ns, "cat chased mice")
    zebra = make_memory(ns, "zebra grazed on grass")
    write(store, ns, cat_long, cat_short, zebra, make_memory(ns, "dog barked loudly"))

    hits = store.text_search(ns, "cat zebra", 10)

    # idf(zebra) > idf(cat); with one matching term each, the shorter cat document wins.
    assert ids(hits) == [zebra.id, cat_short.id, cat_long.id]
    assert hits[0].score > hits[1].score > hits[2].score > 0
    assert ids(store.text_search(ns, "cat zebra", 1)) == [zebra.id]
    assert ids(store.text_search(ns, "CAT", 10)) == [cat_short.id, cat_long.id]


def test_text_search_weighs_terms_by_this_namespace_alone(
    store: MemoryStore, new_namespace: Callable[[], str]
) -> None:
    # BM25's IDF counts this namespace's memories: another namespace that holds "zebra"
    # forty times does not make zebra common here (Lucene's index-wide IDF would rank
    # the cat memories first on Neo4j). All memories are three words long, so the mean
    # length, which Neo4j still takes over the whole index, is the same for all.
    ns, other = new_namespace(), new_namespace()
    zebra = make_memory(ns, "zebra grazed quietly")
    cats = [make_memory(ns, f"cat {verb} quietly") for verb in ("slept", "ate", "purred")]
    write(store, ns, zebra, *cats, make_memory(ns, "dog barked loudly"))
    before = ids(store.text_search(ns, "cat zebra", 10))

    write(store, other, *(make_memory(other, f"zebra herd {i}") for i in range(40)))
    after = ids(store.text_search(ns, "cat zebra", 10))

    assert before[0] == zebra.id and sorted(before[1:]) == sorted(c.id for c in cats)
    assert after == before


def test_text_search_searches_the_contextual_key(store: MemoryStore, ns: str) -> None:
    # issue 15: BM25 indexes a memory's key (its context) when it has one; the content
    # stays the claim and is read back unchanged, key included
    keyed = make_memory(
        ns, "Dana: it was amazing, we went yesterday!",
        key="[7 May 2023] Ari: How was the pottery class? Dana: it was amazing, we went yesterday!",
    )  # fmt: skip
    plain = make_memory(ns, "Ari: the pottery class starts at nine")
    write(store, ns, keyed, plain)

    assert ids(store.text_search(ns, "pottery", 10)) == [plain.id, keyed.id]
    assert ids(store.text_search(ns, "yesterday", 10)) == [keyed.id]
    assert ids(store.text_search(ns, "nine", 10)) == [plain.id]
    (back,) = store.get_memories(ns, [keyed.id])
    assert back.content == keyed.content and back.key == keyed.key
    (back,) = store.get_memories(ns, [plain.id])
    assert back.key is None


def test_text_search_without_matches_or_terms_is_empty(store: MemoryStore, ns: str) -> None:
    write(store, ns, make_memory(ns, "cat sat on the mat"))
    assert store.text_search(ns, "unicorn", 10) == []
    assert store.text_search(ns, "?!", 10) == []
    assert store.text_search(ns, "   ", 10) == []


def test_text_search_survives_query_syntax_characters(store: MemoryStore, ns: str) -> None:
    cat = make_memory(ns, "cat sat on the mat")
    write(store, ns, cat, make_memory(ns, "dog barked loudly"))
    nasty = 'cat +-&&||!(){}[]^"~*?:\\/ AND OR NOT'
    assert ids(store.text_search(ns, nasty, 10)) == [cat.id]
    for query in ("AND", "OR NOT", "(", '"', "\\", "title:cat", "cat~2", "c*t"):
        store.text_search(ns, query, 10)  # must not raise


def test_text_search_exclusions(store: MemoryStore, ns: str) -> None:
    current = make_memory(ns, "the invoice is overdue")
    superseded = make_memory(ns, "the invoice was paid", superseded_by=current.id)
    unretrievable = make_memory(ns, "an invoice from march", retrievable=False)
    write(store, ns, current, superseded, unretrievable)
    assert ids(store.text_search(ns, "invoice", 10)) == [current.id]
    assert set(ids(store.text_search(ns, "invoice", 10, include_history=True))) == {
        current.id,
        superseded.id,
        unretrievable.id,
    }


def test_entity_search_orders_by_count_then_cosine_then_id(store: MemoryStore, ns: str) -> None:
    a, b, c = make_entity(ns, "Alice"), make_entity(ns, "Bob"), make_entity(ns, "Carol")
    both = make_memory(
        ns, "alice and bob founded acme", mentions=[(a.id, "subject"), (b.id, "object")]
    )
    only_a = make_memory(ns, "alice likes green tea", mentions=[(a.id, "subject")])
    only_b = make_memory(ns, "bob plays the cello", mentions=[(b.id, "mention")])
    a_again = make_memory(ns, "alice runs marathons", mentions=[(a.id, "subject")])
    only_c = make_memory(ns, "carol paints murals", mentions=[(c.id, "subject")])
    old = make_memory(
        ns, "alice liked coffee", mentions=[(a.id, "subject")], superseded_by=only_a.id
    )
    write(store, ns, both, only_a, only_b, a_again, only_c, old, entities=[a, b, c])
    singles = [only_a, only_b, a_again]

    plain = store.entity_search(ns, [a.id, b.id], 10)
    assert [h.memory_id for h in plain] == [both.id, *sorted(m.id for m in singles)]
    assert dict(zip(plain[0].entity_ids, plain[0].roles, strict=True)) == {
        a.id: "subject",
        b.id: "object",
    }
    assert all(h.similarity == 0.0 for h in plain)

    query = "alice runs marathons"
    ranked = store.entity_search(ns, [a.id, b.id], 10, embedding=embed(query))
    assert [h.memory_id for h in ranked] == [both.id, *rank(query, singles)]
    assert ranked[1].similarity == pytest.approx(1.0, abs=1e-4)
    assert ranked[1].entity_ids == (a.id,) and ranked[1].roles == ("subject",)

    assert [
        h.memory_id for h in store.entity_search(ns, [a.id, b.id], 2, embedding=embed(query))
    ] == [
        both.id,
        a_again.id,
    ]
    history = store.entity_search(ns, [a.id], 10, include_history=True)
    assert old.id in {h.memory_id for h in history}
    assert old.id not in {h.memory_id for h in store.entity_search(ns, [a.id], 10)}
    assert store.entity_search(ns, ["unknown-entity"], 10) == []


def test_time_window_is_half_open_on_the_time_anchor(store: MemoryStore, ns: str) -> None:
    start, end = T0, T0 + timedelta(days=10)
    at_start = make_memory(ns, "kickoff meeting", event_time=start)
    middle = make_memory(ns, "design review", event_time=start + timedelta(days=5))
    at_end = make_memory(ns, "launch party", event_time=end)
    before = make_memory(ns, "planning call", event_time=start - timedelta(microseconds=1))
    event_wins = make_memory(
        ns,
        "offsite in june",
        event_time=end + timedelta(days=30),
        observed_at=start + timedelta(days=5),
    )
    first_seen = make_memory(ns, "hired a designer", observed_at=start + timedelta(days=20))
    first_seen = first_seen.model_copy(
        update={
            "observations": (
                first_seen.observations[0],
                first_seen.observations[0].model_copy(
                    update={"observed_at": start + timedelta(days=3)}
                ),
            )
        }
    )
    old = make_memory(
        ns, "old review", event_time=start + timedelta(days=5), superseded_by=middle.id
    )
    write(store, ns, at_start, middle, at_end, before, event_wins, first_seen, old)

    hits = store.time_window_search(ns, start, end, 10)
    # closest to the centre (start + 5 days) first: 0, 2 and 5 days away
    assert ids(hits) == [middle.id, first_seen.id, at_start.id]
    assert hits[0].score > hits[1].score > hits[2].score

    with_history = store.time_window_search(ns, start, end, 10, include_history=True)
    assert set(ids(with_history)) == {middle.id, first_seen.id, at_start.id, old.id}

    query = "kickoff meeting review"
    ranked = store.time_window_search(ns, start, end, 2, embedding=embed(query))
    assert ids(ranked) == rank(query, [middle, first_seen, at_start])[:2]
    assert ranked[0].score == pytest.approx(cosine(query, at_start.content), abs=1e-4)
    assert store.time_window_search(ns, end, end + timedelta(days=1), 10)[0].memory_id == at_end.id


def test_relation_subgraph_follows_both_directions_up_to_max_hops(
    store: MemoryStore, ns: str
) -> None:
    a, b, c, d, e, f, g = (make_entity(ns, n) for n in "ABCDEFG")
    source = make_memory(ns, "a chain of relations")
    ab = make_relation(ns, a, "knows", b, memory=source)
    ab2 = make_relation(ns, a, "works_with", b, memory=source, confidence=0.4)
    cb = make_relation(ns, c, "knows", b, memory=source)  # points back towards the seed
    cd = make_relation(ns, c, "knows", d, memory=source)
    de = make_relation(ns, d, "knows", e, memory=source)  # 4 hops from A
    fg = make_relation(ns, f, "knows", g, memory=source)  # unconnected
    expired = make_relation(ns, a, "hated", f, memory=source, valid_until=T0 - timedelta(days=365))
    write(
        store,
        ns,
        source,
        entities=[a, b, c, d, e, f, g],
        relations=[ab, ab2, cb, cd, de, fg, expired],
    )

    def reached(seeds: list[str], hops: int) -> list[str]:
        relations = store.relation_subgraph(ns, seeds, hops)
        assert len(relations) == len({r.id for r in relations})  # each relation once
        return sorted(r.id for r in relations)

    assert reached([a.id], 1) == sorted([ab.id, ab2.id])
    assert reached([a.id], 2) == sorted([ab.id, ab2.id, cb.id])
    assert reached([a.id], 3) == sorted([ab.id, ab2.id, cb.id, cd.id])
    assert de.id not in reached([a.id], 3)
    assert reached([a.id, c.id], 3) == sorted([ab.id, ab2.id, cb.id, cd.id, de.id])
    assert reached([e.id], 1) == [de.id]
    assert reached(["no-such-entity"], 3) == []
    assert store.relation_subgraph(ns, [f.id], 1) == [fg]  # the expired A-F relation is not current


def test_a_relation_keeps_the_wording_it_was_read_from(store: MemoryStore, ns: str) -> None:
    """The relation's lemma (docs/extraction.md "Vocabulary") is stored and read back
    by every read of relations; a relation without one reads back without one."""
    noor, kestrel, emil = (make_entity(ns, n) for n in ("Noor", "Kestrel Analytics", "Emil"))
    said = make_memory(ns, "Noor: I started working at Kestrel Analytics.")
    works = make_relation(ns, noor, "WORKS_AT", kestrel, memory=said).model_copy(
        update={"lemma": "work at"}
    )
    plain = make_relation(ns, noor, "CO_OCCURS_WITH", emil, memory=said)
    write(store, ns, said, entities=[noor, kestrel, emil], relations=[works, plain])
    read = {r.id: r for r in store.relation_subgraph(ns, [noor.id], 1)}
    assert read[works.id].lemma == "work at"
    assert read[plain.id].lemma is None
    assert read == {works.id: works, plain.id: plain}
    assert {r.id: r.lemma for r in store.relations_of(ns, [said.id], [])} == {
        works.id: "work at",
        plain.id: None,
    }
    # restated by a later write without a lemma: the property goes with the new value
    write(store, ns, said, relations=[works.model_copy(update={"lemma": None})])
    assert store.relation_subgraph(ns, [kestrel.id], 1)[0].lemma is None


def test_term_stats_counts_current_documents(store: MemoryStore, ns: str) -> None:
    apple = make_memory(ns, "apple banana")
    write(
        store,
        ns,
        apple,
        make_memory(ns, "apple cherry apple"),
        make_memory(ns, "cherry pie"),
        make_memory(ns, "apple strudel", superseded_by=apple.id),
    )
    stats = store.term_stats(ns, ["Apple", "cherry", "durian"])
    assert stats.n_docs == 3
    assert stats.df == {"apple": 2, "cherry": 2, "durian": 0}


def test_record_access_updates_and_reactivates(store: MemoryStore, ns: str) -> None:
    text = "the backup runs at midnight"
    cold = make_memory(ns, text, tier="cold", accessed_sessions=("s0",))
    other = make_memory(ns, "an untouched memory")
    write(store, ns, cold, other)
    assert cold.id not in ids(store.vector_search(ns, queries(text), 5)[0])
    when = T0 + timedelta(days=9)
    store.record_access(
        ns,
        [
            AccessUpdate(
                cold.id, when, stability=0.3, salience=0.55, session_id="s9", reactivate=True
            ),
            AccessUpdate("missing-id", when, stability=0.1, salience=0.5),
        ],
    )
    store.record_access(ns, [AccessUpdate(cold.id, when + timedelta(hours=1), 0.35, 0.6, "s9")])

    [got] = store.get_memories(ns, [cold.id])
    assert got.access_count == 2
    assert got.last_accessed_at == when + timedelta(hours=1)
    assert got.stability == pytest.approx(0.35)
    assert got.salience == pytest.approx(0.6)
    assert got.accessed_sessions == ("s0", "s9")
    assert got.tier == "hot"
    assert got.content == cold.content and got.confidence == cold.confidence
    assert cold.id in ids(store.vector_search(ns, queries(text), 5)[0])
    [untouched] = store.get_memories(ns, [other.id])
    assert untouched.access_count == 0
    store.record_access(ns, [])


# -- optimistic concurrency (graphmem.facade.write_retry) ----------------------------------------


def test_checked_writes_compare_versions_and_keep_access_bookkeeping(
    store: MemoryStore, ns: str
) -> None:
    first = make_memory(ns, "the boiler is in the basement")
    write(store, ns, first)  # unchecked: version 0 -> 1
    store.record_access(ns, [AccessUpdate(first.id, T0, 0.2, 0.6, "reader")])
    [read] = store.get_memories(ns, [first.id], with_embeddings=True)
    assert (read.version, read.access_count) == (1, 1)  # access updates keep the version
    edited = read.model_copy(update={"n": 2, "access_count": 0, "stability": 0.0})

    with pytest.raises(WriteConflictError) as caught:  # a writer that read version 0
        store.write(ns, WriteBatch(memories=[edited], expected_versions={first.id: 0}))
    assert caught.value.memory_ids == (first.id,)
    assert store.get_memories(ns, [first.id]) == [as_stored(read)]  # nothing written

    store.write(ns, WriteBatch(memories=[edited], expected_versions={first.id: 1}))
    [got] = store.get_memories(ns, [first.id])
    assert (got.version, got.n) == (2, 2)
    # a checked write leaves the access bookkeeping to record_access
    assert (got.access_count, got.stability, got.salience) == (1, 0.2, 0.6)
    assert (got.last_accessed_at, got.accessed_sessions) == (T0, ("reader",))
    write(store, ns, edited)  # unchecked: written whole
    assert store.get_memories(ns, [first.id])[0].access_count == 0

    new = make_memory(ns, "the boiler was serviced in March", access_count=4)
    store.write(ns, WriteBatch(memories=[new], expected_versions={new.id: 0}))
    assert store.get_memories(ns, [new.id])[0].access_count == 4  # a new one whole
    with pytest.raises(WriteConflictError):  # another writer created it first
        store.write(ns, WriteBatch(memories=[new], expected_versions={new.id: 0}))
    with pytest.raises(WriteConflictError):  # deletions are checked too
        store.write(ns, WriteBatch(deleted_memory_ids=[new.id], expected_versions={new.id: 0}))
    store.write(ns, WriteBatch(deleted_memory_ids=[new.id], expected_versions={new.id: 1}))
    assert store.get_memories(ns, [new.id]) == []
    with pytest.raises(InvalidInputError, match="expected_versions"):
        store.write(ns, WriteBatch(memories=[edited], expected_versions={"elsewhere": 1}))


def test_reactivation_raises_the_version_plain_access_does_not(store: MemoryStore, ns: str) -> None:
    cold = make_memory(ns, "the spare key is under the pot", tier="cold", retrievable=False)
    write(store, ns, cold)
    store.record_access(ns, [AccessUpdate(cold.id, T0, 0.1, 0.55)])
    assert store.get_memories(ns, [cold.id])[0].version == 1
    store.record_access(ns, [AccessUpdate(cold.id, T0, 0.1, 0.55, reactivate=True)])
    [got] = store.get_memories(ns, [cold.id])
    assert (got.tier, got.retrievable, got.version, got.access_count) == ("hot", True, 2, 2)
    store.record_access(ns, [AccessUpdate(cold.id, T0, 0.1, 0.55, reactivate=True)])
    assert store.get_memories(ns, [cold.id])[0].version == 2  # nothing changed: same version


# -- isolation, persistence, concurrency -----------------------------------------------------


def test_namespaces_never_leak(store: MemoryStore, new_namespace: Callable[[], str]) -> None:
    spaces = new_namespace(), new_namespace()
    made = {}
    for space in spaces:
        x, y = make_entity(space, "Xavier"), make_entity(space, "Yolanda")
        memory = make_memory(
            space, "xavier mentors yolanda", event_time=T0, mentions=[(x.id, "subject")]
        )
        write(
            store,
            space,
            memory,
            entities=[x, y],
            relations=[make_relation(space, x, "mentors", y, memory=memory)],
        )
        made[space] = (memory, x)
    a, b = spaces
    memory_a, x = made[a]
    memory_b, _ = made[b]
    assert memory_a.id != memory_b.id and made[b][1].id == x.id  # entity ids are shared

    assert ids(store.vector_search(a, queries(memory_a.content), 10)[0]) == [memory_a.id]
    assert ids(store.text_search(a, "mentors", 10)) == [memory_a.id]
    assert [h.memory_id for h in store.entity_search(a, [x.id], 10)] == [memory_a.id]
    assert ids(store.time_window_search(a, T0, T0 + timedelta(days=1), 10)) == [memory_a.id]
    assert [r.namespace for r in store.relation_subgraph(a, [x.id], 3)] == [a]
    assert [e.namespace for e in store.list_entities(a)] == [a, a]
    assert store.get_memories(a, [memory_b.id]) == []
    assert store.find_by_hashes(a, [memory_b.content_hash])[memory_b.content_hash].id == memory_a.id
    assert [m.id for m in store.memories_in_session(a, "s1")] == [memory_a.id]
    assert store.term_stats(a, ["mentors"]).n_docs == 1
    assert store.stats(a)["memories"] == 1

    store.record_access(a, [AccessUpdate(memory_b.id, T0, 0.5, 0.5)])
    assert store.get_memories(b, [memory_b.id])[0].access_count == 0
    store.write(a, WriteBatch(deleted_memory_ids=[memory_b.id]))
    assert store.count_memories(b) == 1
    assert store.delete_namespace(a) == 1
    assert store.stats(b) == {
        "memories": 1,
        "current": 1,
        "superseded": 0,
        "cold": 0,
        "unretrievable": 0,
        "entities": 2,
        "relations": 1,
        "sessions": 1,
    }


def test_write_rejects_items_of_another_namespace(
    store: MemoryStore, new_namespace: Callable[[], str]
) -> None:
    a, b = new_namespace(), new_namespace()
    with pytest.raises(InvalidInputError):
        write(store, a, make_memory(b, "smuggled"))
    assert store.count_memories(a) == store.count_memories(b) == 0


def test_data_survives_close_and_reopen(
    store: MemoryStore, store_kind: str, store_factory: Callable[[], MemoryStore], ns: str
) -> None:
    if store_kind != "embedded":
        pytest.skip("persistence across reopen is checked on the embedded store")
    a, b = make_entity(ns, "Ana"), make_entity(ns, "Bo")
    memory = make_memory(ns, "ana teaches bo chess", mentions=[(a.id, "subject")], event_time=T0)
    relation = make_relation(ns, a, "teaches", b, memory=memory)
    write(store, ns, memory, entities=[a, b], relations=[relation])
    store.close()

    reopened = store_factory()
    reopened.open()
    try:
        [got] = reopened.get_memories(ns, [memory.id], with_embeddings=True)
        assert without_embedding(got) == as_stored(memory)
        assert got.embedding is not None and memory.embedding is not None
        np.testing.assert_allclose(got.embedding, memory.embedding, rtol=0, atol=1e-6)
        assert np.asarray(got.embedding, dtype=np.float32).tolist() == list(got.embedding)
        assert reopened.list_entities(ns) == sorted([a, b], key=lambda e: e.id)
        assert reopened.relation_subgraph(ns, [a.id], 1) == [relation]
        assert ids(reopened.text_search(ns, "chess", 5)) == [memory.id]
        assert ids(reopened.vector_search(ns, queries(memory.content), 5)[0]) == [memory.id]
    finally:
        reopened.close()
        store.open()  # hand the fixture an open store again


def test_concurrent_readers_while_writing(store: MemoryStore, ns: str) -> None:
    person = make_entity(ns, "Reader")
    write(
        store,
        ns,
        make_memory(ns, "seed memory about reading", mentions=[(person.id, "subject")]),
        entities=[person],
    )
    errors: list[BaseException] = []
    stop = threading.Event()

    def read() -> None:
        try:
            while not stop.is_set():
                store.vector_search(ns, queries("memory about reading"), 5)
                store.text_search(ns, "reading memory", 5)
                store.entity_search(ns, [person.id], 5, embedding=embed("reading"))
                store.time_window_search(ns, T0 - timedelta(days=1), T0 + timedelta(days=1), 5)
                store.relation_subgraph(ns, [person.id], 2)
                store.term_stats(ns, ["reading"])
                store.stats(ns)
        except BaseException as exc:  # collected and re-raised by the test
            errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(4)]
    for thread in readers:
        thread.start()
    try:
        for i in range(25):
            memory = make_memory(
                ns, f"memory number {i} about reading", mentions=[(person.id, "mention")]
            )
            target = make_entity(ns, f"Book {i}")
            write(
                store,
                ns,
                memory,
                entities=[target],
                relations=[make_relation(ns, person, "read", target, memory=memory)],
            )
    finally:
        stop.set()
        for thread in readers:
            thread.join(timeout=60)
    assert errors == []
    assert store.count_memories(ns) == 26
    assert len(store.text_search(ns, "reading", 100)) == 26
    assert len(store.relation_subgraph(ns, [person.id], 1)) == 25
