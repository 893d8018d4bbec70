"""Forgetting on request on every store, through both facades (SPEC §9.16).

One namespace holds Dana Whitfield (an address with its update and a restatement, a
pet, a job, each with relations), Carol (whose memory names Dana in passing) and a
second person, Bob Stone, who has nothing to do with Dana. After each forget: recall
of questions about the forgotten facts returns none of their texts (history
included), no stored row, node, relationship, index entry or file byte holds them,
the export holds neither their texts nor their ids, and Bob's recall and export are
what they were. Expected counts are worked out by hand from the data below.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import InvalidInputError, MemoryNotFoundError
from graphmem.store.base import Association, MemoryStore
from graphmem.transfer import export_namespace
from tests.contract.facades import facade, release
from tests.contract.forget_checks import index_hits, stored_hits
from tests.fakes import HashEmbedder

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
PARIS = "Dana Whitfield lives in Paris"
BERLIN = "Dana Whitfield lives in Berlin"
DOG = "Dana Whitfield has a dog named Rex"
ACME = "Dana Whitfield works at Acme Robotics"
CAROL = "Carol Mendes's sister is Dana Whitfield"
BOB_ROME = "Bob Stone lives in Rome"
BOB_MADRID = "Bob Stone lives in Madrid"
BOB_CHESS = "Bob Stone plays chess at the Rook Club"
DANA = {"name": "Dana Whitfield", "kind": "person", "role": "subject"}
BOB = {"name": "Bob Stone", "kind": "person", "role": "subject"}
BOB_QUESTIONS = ("Where does Bob Stone live?", "What does Bob Stone play?", "chess club")


def said(content: str, session: int, turn: int, **extra: Any) -> dict[str, Any]:
    return {
        "content": content,
        "extractor": "verbatim",
        "session_id": f"s{session}",
        "turn_id": f"s{session}:{turn}",
        "observed_at": (T0 + timedelta(days=session)).isoformat(),
        **extra,
    }


def lives(person: dict[str, str], content: str, city: str, session: int, turn: int) -> Any:
    place = {"name": city, "kind": "place", "role": "object"}
    return said(
        content,
        session,
        turn,
        subject=person["name"],
        predicate="lives_in",
        object=city,
        entities=[person, place],
    )


def related(
    content: str, session: int, turn: int, source: dict[str, str], predicate: str, target: str
) -> dict[str, Any]:
    return said(
        content,
        session,
        turn,
        type="Relation",
        entities=[source, {"name": target, "role": "object"}],
        relations=[{"source": source["name"], "predicate": predicate, "target": target}],
    )


@pytest.fixture
def memory(store: MemoryStore, api: str) -> Iterator[GraphMem]:
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), owns_store=False)
    driven = facade(gm, api)
    yield driven
    release(driven)


@pytest.fixture
def world(memory: GraphMem, store: MemoryStore, ns: str) -> dict[str, str]:
    """Writes the namespace; returns content -> memory id."""
    carol = {"name": "Carol Mendes", "kind": "person", "role": "subject"}
    for item in (
        lives(DANA, PARIS, "Paris", 1, 1),
        lives(BOB, BOB_ROME, "Rome", 1, 2),
        lives(DANA, BERLIN, "Berlin", 2, 1),  # the update: supersedes Paris
        related(DOG, 2, 2, DANA, "has_pet", "Rex"),
        lives(DANA, BERLIN, "Berlin", 3, 1),  # a restatement: merged, n = 2
        related(ACME, 3, 2, DANA, "works_at", "Acme Robotics"),
        related(CAROL, 4, 1, carol, "sister_of", "Dana Whitfield"),
        related(BOB_CHESS, 4, 2, BOB, "plays_at", "Rook Club"),
        lives(BOB, BOB_MADRID, "Madrid", 5, 1),  # Bob's own update
    ):
        memory.remember(ns, [item])
    ids = {m.content: m.id for m in memory.list_memories(ns, limit=100)}
    assert len(ids) == 8  # the restatement merged
    berlin = memory.get(ns, ids[BERLIN])
    assert berlin.n == 2 and memory.get(ns, ids[PARIS]).superseded_by == ids[BERLIN]
    # consolidation's association links, one between Dana and Bob
    store.add_associations(ns, [Association(*sorted((ids[BERLIN], ids[BOB_MADRID])), 0.8)])
    store.add_associations(ns, [Association(*sorted((ids[DOG], ids[ACME])), 0.8)])
    return ids


def exported(memory: GraphMem, ns: str) -> list[dict[str, Any]]:
    return [r for r in export_namespace(memory, ns) if "record" in r]


def bob_view(memory: GraphMem, ns: str, ids: dict[str, str]) -> tuple[Any, ...]:
    """Everything about Bob: recall answers and his export records."""
    recalls = [
        [
            (h.memory.id, h.memory.content)
            for h in memory.recall(ns, q, record_access=False).hits
            if "Bob" in h.memory.content
        ]
        for q in BOB_QUESTIONS
    ]
    bob_ids = {ids[BOB_ROME], ids[BOB_MADRID], ids[BOB_CHESS]}
    records = [
        json.dumps(r, sort_keys=True)
        for r in exported(memory, ns)
        if r.get("id") in bob_ids
        or r.get("memory_id") in bob_ids
        or r.get("name") in {"Bob Stone", "Rome", "Madrid", "Rook Club"}
    ]
    return tuple(map(tuple, recalls)), tuple(sorted(records))


def assert_gone(
    memory: GraphMem,
    store: MemoryStore,
    ns: str,
    texts: list[str],
    ids: list[str],
    questions: list[str],
) -> None:
    for question in questions:
        for history in (False, True):
            hits = memory.recall(ns, question, include_history=history, record_access=False)
            assert not {h.memory.content for h in hits.hits} & set(texts), question
    assert stored_hits(store, ns, texts) == []
    dump = json.dumps(exported(memory, ns))
    assert not [t for t in texts + ids if t in dump]
    vectors = memory.embedder.embed(texts)
    assert not index_hits(store, ns, ["Paris", "Berlin", "Rex", "Acme"], vectors) & set(ids)


def test_forget_memory_removes_the_fact_with_its_history(
    memory: GraphMem, store: MemoryStore, ns: str, world: dict[str, str]
) -> None:
    bob_before = bob_view(memory, ns, world)
    stats = memory.stats(ns)
    report = memory.forget_memory(ns, world[BERLIN])
    # Berlin and the Paris it superseded; observations: Paris 1 + Berlin 2 (restated);
    # turns s1:1, s2:1, s3:1 held nothing else; every session keeps another memory;
    # entities Paris and Berlin were mentioned by nothing else
    assert (report.memories, report.observations, report.vectors) == (2, 3, 2)
    assert (report.turns, report.sessions, report.entities) == (3, 0, 2)
    after = memory.stats(ns)
    assert report.relations == stats["relations"] - after["relations"] > 0
    assert sorted(report.memory_ids) == sorted([world[BERLIN], world[PARIS]])
    assert_gone(
        memory,
        store,
        ns,
        [PARIS, BERLIN],
        [world[PARIS], world[BERLIN]],
        ["Where does Dana Whitfield live?", "Dana Whitfield Paris", "Berlin"],
    )
    assert store.associations(ns, [world[BOB_MADRID]]) == []
    assert memory.get(ns, world[DOG]).content == DOG  # the rest of Dana stays
    assert bob_view(memory, ns, world) == bob_before
    again = memory.forget_memory(ns, world[BERLIN])
    assert again.already_forgotten and not any(again.counts().values())


def test_forget_entity_removes_every_memory_about_it(
    memory: GraphMem, store: MemoryStore, ns: str, world: dict[str, str]
) -> None:
    bob_before = bob_view(memory, ns, world)
    preview = memory.forget_entity(ns, "dana whitfield", dry_run=True)
    assert preview.dry_run and preview.memories == 4
    assert memory.stats(ns)["memories"] == 8  # a dry run removes nothing
    report = memory.forget_entity(ns, "Dana Whitfield")
    # Paris, Berlin, the dog and the job (n = 1, 2, 1, 1 observations); entities Dana,
    # Paris, Berlin, Rex, Acme Robotics; sessions s2 and s3 held only Dana's memories
    assert (report.memories, report.observations, report.vectors) == (4, 5, 4)
    assert (report.entities, report.sessions) == (5, 2)
    assert report.kept_mentioning == (world[CAROL],)
    kept = memory.get(ns, world[CAROL])
    assert kept.content == CAROL and "Dana Whitfield" not in {
        e.name for e in memory.store.list_entities(ns)
    }
    texts = [PARIS, BERLIN, DOG, ACME]
    gone = [world[t] for t in texts]
    assert_gone(
        memory,
        store,
        ns,
        texts,
        gone,
        ["Where does Dana Whitfield live?", "Does Dana have a dog?", "Where does Dana work?"],
    )
    assert bob_view(memory, ns, world) == bob_before
    assert memory.forget_entity(ns, "Dana Whitfield").already_forgotten
    log = memory.deletion_log(ns)
    assert [(e.kind, e.counts["memories"]) for e in log] == [("entity", 4)]
    assert "Dana" not in json.dumps([[*e.keys, e.command] for e in log])


def test_forget_entity_with_mentions_leaves_no_trace_of_the_name(
    memory: GraphMem, store: MemoryStore, ns: str, world: dict[str, str]
) -> None:
    bob_before = bob_view(memory, ns, world)
    report = memory.forget_entity(ns, "Dana Whitfield", include_mentions=True)
    assert report.memories == 5 and report.kept_mentioning == ()
    assert stored_hits(store, ns, ["Dana", "Whitfield", "Rex"]) == []
    assert "Dana" not in json.dumps(exported(memory, ns))
    assert bob_view(memory, ns, world) == bob_before


def test_forget_without_history_makes_the_old_fact_current_again(
    memory: GraphMem, ns: str, world: dict[str, str]
) -> None:
    report = memory.forget_memory(ns, world[BERLIN], history=False)
    assert report.memory_ids == (world[BERLIN],) and report.restored_ids == (world[PARIS],)
    assert memory.get(ns, world[PARIS]).is_current
    hits = memory.recall(ns, "Where does Dana Whitfield live?", record_access=False).hits
    assert PARIS in {h.memory.content for h in hits}
    assert BERLIN not in {h.memory.content for h in hits}


def test_unknown_targets_are_errors_naming_what_exists(
    memory: GraphMem, ns: str, world: dict[str, str]
) -> None:
    with pytest.raises(InvalidInputError, match=rf"namespace 'nosuch-ns'.*{ns}"):
        memory.forget_memory("nosuch-ns", world[BOB_ROME])
    with pytest.raises(MemoryNotFoundError, match=r"no memory 'nosuch'.*8 memories"):
        memory.forget_memory(ns, "nosuch")
    with pytest.raises(InvalidInputError, match=r"no entity named 'Nobody'.*Bob Stone"):
        memory.forget_entity(ns, "Nobody")
    assert memory.stats(ns)["memories"] == 8


def test_a_memory_written_while_the_forget_is_planned_is_forgotten_too(
    memory: GraphMem,
    store: MemoryStore,
    ns: str,
    world: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # another writer adds a memory about Dana between the forget's reads and its
    # transaction: the store refuses the stale plan, the facade plans again
    late = "Dana Whitfield collects stamps"
    other = GraphMem(Settings(), store=store, embedder=HashEmbedder(), owns_store=False)
    real = store.forget
    calls: list[bool] = []

    def forget_after_a_write(namespace: str, plan: Any, *, dry_run: bool = False) -> Any:
        if not calls:
            other.remember(ns, [said(late, 6, 1, entities=[DANA])])
        calls.append(dry_run)
        return real(namespace, plan, dry_run=dry_run)

    monkeypatch.setattr(store, "forget", forget_after_a_write)
    report = memory.forget_entity(ns, "Dana Whitfield")
    other.close()
    assert len(calls) == 2  # the stale plan was refused, the second one applied
    assert report.memories == 5  # the four of the world and the late one
    assert stored_hits(store, ns, [late, PARIS, BERLIN, DOG, ACME]) == []
