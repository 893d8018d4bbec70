"""The write path can never merge a contradiction (issue 10; SPEC §9.9–§9.10), on
every store: changed facts, negations and triples that differ in their object become
conflicts resolved for the newer observation; restatements corroborate; a conflict's
loser is stored superseded; relations end with their memory; ``correct`` is one
validated atomic write.

The test embedder is a bag of words (tests/fakes.py): a one-word change in a sentence
of n words has cosine about (n − 1)/n, so the changed facts below are long enough to
sit above the 0.92 duplicate threshold — each test checks that precondition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from graphmem import GraphMem, InvalidMemoryError, Settings
from graphmem.models import Memory
from graphmem.store.base import MemoryStore, WriteBatch
from graphmem.text import entity_id
from tests.fakes import HashEmbedder

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(days=40)
BIRTHDAY = "On the family calendar at home Sam's birthday is on {day} August as every year"
ALLERGY = (
    "According to the notes from the doctor visit last spring Sam is {neg}allergic to penicillin"
)


class Clock:
    def __init__(self) -> None:
        self.now = T0 + timedelta(days=100)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def memory(store: MemoryStore) -> Iterator[GraphMem]:
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=Clock(), owns_store=False)
    yield gm
    gm.close()


def cand(content: str, session: str, at: datetime, **extra: Any) -> dict[str, Any]:
    return {
        "content": content,
        "extractor": "verbatim",
        "session_id": session,
        "turn_id": f"{session}:1",
        "observed_at": at.isoformat(),
        **extra,
    }


def cos(a: str, b: str) -> float:
    va, vb = HashEmbedder().embed([a, b])
    return float(np.dot(va, vb))


def current(memory: GraphMem, ns: str) -> list[Memory]:
    ids = [m.id for m in memory.store.scan_memories(ns, None, 1000)]
    return [m for m in memory.store.get_memories(ns, ids) if m.is_current]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (BIRTHDAY.format(day=14), BIRTHDAY.format(day=15)),
        (ALLERGY.format(neg=""), ALLERGY.format(neg="not ")),
    ],
    ids=["birthday", "negation"],
)
def test_a_changed_fact_supersedes_instead_of_merging(
    memory: GraphMem, ns: str, old: str, new: str
) -> None:
    assert cos(old, new) > 0.92  # a near-duplicate by tier 2
    first = memory.remember(ns, [cand(old, "s1", T0)])
    second = memory.remember(ns, [cand(new, "s2", LATER)])
    assert second.merged == ()
    assert second.outcomes == ("created",)
    (old_id,), (new_id,) = first.memory_ids, second.memory_ids
    assert second.superseded == (old_id,)
    stored_old, stored_new = memory.store.get_memories(ns, [old_id, new_id])
    assert stored_old.n == 1 and stored_new.n == 1  # nothing corroborated the old fact
    assert stored_old.superseded_by == new_id
    assert [m.id for m in current(memory, ns)] == [new_id]
    recalled = memory.recall(ns, new, record_access=False)
    assert [h.memory.id for h in recalled.hits] == [new_id]


DRINK = "Noor drinks red wine with dinner at home"
NOOR = [{"name": "Noor", "kind": "Person", "role": "subject"}]


@pytest.mark.parametrize(
    "new",
    [
        "Noor no longer drinks red wine with dinner at home",  # tier 3's band: 0.85-0.92
        "These days Noor no longer drinks red wine with dinner at home",  # below it
    ],
    ids=["ambiguous-band", "below-escalate"],
)
def test_a_negation_below_the_merge_threshold_supersedes_at_once(
    memory: GraphMem, ns: str, new: str
) -> None:
    """Issue 10: "X drinks alcohol" / "X does not drink alcohol anymore" embed at 0.83-0.86
    with the real model, under tier 2's 0.92, so dedup never compared the claims and both
    stayed current until consolidation's consistency scan. An extracted claim that negates
    one about the same subject, with the same frame, supersedes it when it is written."""
    assert 0.75 <= cos(DRINK, new) <= 0.92
    extracted = {"extractor": "gpt-4o-mini", "entities": NOOR}
    first = memory.remember(ns, [cand(DRINK, "s1", T0, **extracted)])
    second = memory.remember(ns, [cand(new, "s2", LATER, **extracted)])
    assert (second.outcomes, second.superseded) == (("created",), first.memory_ids)
    assert [m.content for m in current(memory, ns)] == [new]


def test_a_transcript_turn_that_negates_another_is_kept(memory: GraphMem, ns: str) -> None:
    """A transcript turn (verbatim text with its speaker's label) is a record, not a claim
    to update: a negating turn supersedes nothing (SPEC §9.13)."""
    new = "Noor: These days I no longer drink red wine with dinner at home"
    memory.remember(ns, [cand("Noor: I drink red wine with dinner at home", "s1", T0)])
    second = memory.remember(ns, [cand(new, "s2", LATER, entities=NOOR)])
    assert (second.outcomes, second.superseded) == (("created",), ())
    assert len(current(memory, ns)) == 2


def test_a_verbatim_claim_that_negates_another_supersedes_it(memory: GraphMem, ns: str) -> None:
    """"Verbatim" says the stored text is the source text, not that it is no claim
    (SPEC §9.13): a statement written as MCP and ``graphmem remember`` write it, one that
    negates an earlier one about the same subject, supersedes it as an extracted one does."""
    new = "These days Noor no longer drinks red wine with dinner at home"
    first = memory.remember(ns, [cand(DRINK, "s1", T0, entities=NOOR)])
    second = memory.remember(ns, [cand(new, "s2", LATER, entities=NOOR)])
    assert (second.outcomes, second.superseded) == (("created",), first.memory_ids)
    assert [m.content for m in current(memory, ns)] == [new]


def test_a_triple_that_differs_only_in_object_is_a_conflict(memory: GraphMem, ns: str) -> None:
    text = "Sam departs for the conference in Lisbon on {day} September this year by train"
    triple = {"subject": "Sam", "predicate": "departs_on"}
    old, new = text.format(day=12), text.format(day=21)
    assert cos(old, new) > 0.92
    first = memory.remember(ns, [cand(old, "s1", T0, object="12 September", **triple)])
    second = memory.remember(ns, [cand(new, "s2", LATER, object="21 September", **triple)])
    assert (second.outcomes, second.superseded) == (("created",), first.memory_ids)
    assert [m.content for m in current(memory, ns)] == [new]


def test_a_restatement_in_other_words_corroborates(memory: GraphMem, ns: str) -> None:
    old = BIRTHDAY.format(day=14)
    # the same words in another order: compatible, cosine 1 with a bag-of-words embedder
    new = "As every year Sam's birthday is on 14 August on the family calendar at home"
    assert cos(old, new) > 0.92
    first = memory.remember(ns, [cand(old, "s1", T0)])
    second = memory.remember(ns, [cand(new, "s2", LATER)])
    assert second.outcomes == ("merged",)
    assert second.memory_ids == first.memory_ids
    (stored,) = memory.store.get_memories(ns, list(first.memory_ids))
    assert stored.n == 2 and stored.is_current


def test_a_same_triple_restatement_merges_instead_of_superseding(memory: GraphMem, ns: str) -> None:
    triple = {"subject": "Sam", "predicate": "works_at", "object": "Northwind Health"}
    old = "Sam works at Northwind Health"
    new = "These days Sam is employed by Northwind Health as a nurse on the night shift"
    assert cos(old, new) < 0.85  # other words: no tier-2 duplicate
    first = memory.remember(ns, [cand(old, "s1", T0, **triple)])
    second = memory.remember(ns, [cand(new, "s2", LATER, **triple)])
    assert second.outcomes == ("merged",)
    assert second.superseded == ()
    (stored,) = memory.store.get_memories(ns, list(first.memory_ids))
    assert (stored.n, stored.is_current) == (2, True)


def test_the_loser_of_a_conflict_is_stored_superseded(memory: GraphMem, ns: str) -> None:
    triple = {"subject": "Sam", "predicate": "lives_in"}
    # the stored claim: direct, verbatim → conf = 0.45·0.95 + 0.20·r(1) + 0.25·1.0 + 0.10·0.80
    #   = 0.4275 + 0.0819 + 0.25 + 0.08 = 0.8394
    strong = cand("Sam lives in Denver", "s1", T0, object="Denver", **triple)
    # the newer one: speculation by an unknown extractor → 0.45·0.30 + 0.0819 + 0.25·0.65
    #   + 0.08 = 0.4594: 0.38 below, more than update_margin 0.15 → the older stays current
    weak = cand(
        "Sam lives in Boulder",
        "s2",
        LATER,
        object="Boulder",
        source_level="speculation",
        extractor="some-small-model",
        **triple,
    )
    first = memory.remember(ns, [strong])
    second = memory.remember(ns, [weak])
    (new_id,) = second.memory_ids
    assert second.outcomes == ("superseded",)
    assert second.superseded == (new_id,)
    assert [m.id for m in current(memory, ns)] == list(first.memory_ids)
    (stored_new,) = memory.store.get_memories(ns, [new_id])
    assert stored_new.superseded_by == first.memory_ids[0]


def test_an_update_within_the_margin_wins(memory: GraphMem, ns: str) -> None:
    triple = {"subject": "Sam", "predicate": "lives_in"}
    memory.remember(ns, [cand("Sam lives in Denver", "s1", T0, object="Denver", **triple)])
    # strong_inference: 0.45·0.70 + 0.0819 + 0.25 + 0.08 = 0.7269, 0.1125 below: within 0.15
    newer = cand(
        "Sam lives in Boulder", "s2", LATER, object="Boulder", source_level="strong_inference",
        **triple,
    )  # fmt: skip
    report = memory.remember(ns, [newer])
    assert report.outcomes == ("created",)
    assert [m.content for m in current(memory, ns)] == ["Sam lives in Boulder"]


def _relation_targets(memory: GraphMem, ns: str, name: str) -> set[tuple[str, str]]:
    relations = memory.store.relation_subgraph(ns, [entity_id(name)], 1)
    names = {e.id: e.name for e in memory.store.list_entities(ns)}
    return {(r.predicate, names.get(r.target_id, r.target_id)) for r in relations}


def test_relations_end_with_the_memory_that_asserted_them(memory: GraphMem, ns: str) -> None:
    triple = {"subject": "Sam", "predicate": "works_at"}
    memory.remember(
        ns,
        [
            cand(
                "Sam works at Northwind Health",
                "s1",
                T0,
                object="Northwind Health",
                relations=[
                    {"source": "Sam", "predicate": "WORKS_AT", "target": "Northwind Health"}
                ],
                **triple,
            )
        ],
    )
    assert _relation_targets(memory, ns, "Sam") == {("WORKS_AT", "Northwind Health")}
    memory.remember(
        ns,
        [
            cand(
                "Sam now works at Brightline",
                "s2",
                LATER,
                object="Brightline",
                relations=[{"source": "Sam", "predicate": "WORKS_AT", "target": "Brightline"}],
                **triple,
            )
        ],
    )
    assert _relation_targets(memory, ns, "Sam") == {("WORKS_AT", "Brightline")}


def test_a_triple_between_two_entities_is_a_relation(memory: GraphMem, ns: str) -> None:
    people = [{"name": "Arlo", "kind": "Person"}, {"name": "Dana", "kind": "Person"}]
    memory.remember(
        ns,
        [
            cand(
                "Arlo is Dana's sister",
                "s1",
                T0,
                entities=people,
                subject="Arlo",
                predicate="sister_of",
                object="Dana",
            ),
            # an object that names no entity gives no typed relation
            cand(
                "Arlo eats gluten-free",
                "s1",
                T0,
                subject="Arlo",
                predicate="gluten-free",
                object="yes",
                entities=people[:1],
            ),
        ],
    )
    assert _relation_targets(memory, ns, "Arlo") == {("SISTER_OF", "Dana")}
    # beside what an extractor parses from the text, the caller's triple stays
    memory.remember(
        ns,
        [
            cand(
                "Paolo works with Marcus",
                "s2",
                T0,
                extractor="bench",
                entities=[
                    {"name": "Paolo", "kind": "Person"},
                    {"name": "Marcus", "kind": "Person"},
                ],
                subject="Paolo",
                predicate="coworker_of",
                object="Marcus",
            )
        ],
    )
    assert ("COWORKER_OF", "Marcus") in _relation_targets(memory, ns, "Paolo")


def test_a_conflict_loser_asserts_no_current_relation(memory: GraphMem, ns: str) -> None:
    triple = {"subject": "Sam", "predicate": "lives_in"}
    memory.remember(
        ns,
        [
            cand(
                "Sam lives in Denver",
                "s1",
                T0,
                object="Denver",
                relations=[{"source": "Sam", "predicate": "LIVES_IN", "target": "Denver"}],
                **triple,
            )
        ],
    )
    report = memory.remember(
        ns,
        [
            cand(
                "Sam lives in Boulder",
                "s2",
                LATER,
                object="Boulder",
                source_level="speculation",
                extractor="some-small-model",
                relations=[{"source": "Sam", "predicate": "LIVES_IN", "target": "Boulder"}],
                **triple,
            )
        ],
    )
    assert report.outcomes == ("superseded",)
    assert _relation_targets(memory, ns, "Sam") == {("LIVES_IN", "Denver")}


# -- correct ----------------------------------------------------------------------------------


class CountingWrites:
    """Counts the store writes of one call (each still goes to the real store)."""

    def __init__(self, write: Callable[[str, WriteBatch], None]) -> None:
        self.inner = write
        self.writes = 0

    def write(self, namespace: str, batch: WriteBatch) -> None:
        self.writes += 1
        self.inner(namespace, batch)


def test_a_failed_correction_changes_nothing(memory: GraphMem, ns: str) -> None:
    (ident,) = memory.remember(ns, [cand(BIRTHDAY.format(day=14), "s1", T0)]).memory_ids
    assert ident is not None
    before = memory.get(ns, ident)
    with pytest.raises(InvalidMemoryError, match="same content") as info:
        memory.correct(ns, ident, BIRTHDAY.format(day=14))
    assert info.value.field == "content"
    after = memory.get(ns, ident)
    assert after == before  # no n + 1, no "correction" observation, same version
    assert memory.stats(ns)["memories"] == 1


def test_a_correction_supersedes_the_near_duplicate_it_corrects(
    memory: GraphMem, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong, right = BIRTHDAY.format(day=14), BIRTHDAY.format(day=15)
    assert cos(wrong, right) > 0.92
    (ident,) = memory.remember(ns, [cand(wrong, "s1", T0)]).memory_ids
    assert ident is not None
    counting = CountingWrites(memory.store.write)
    monkeypatch.setattr(memory.store, "write", counting.write)
    old, new = memory.correct(ns, ident, right)
    assert counting.writes == 1  # one atomic write
    assert old.id == ident and old.n == 1 and len(old.observations) == 1
    assert old.superseded_by == new.id
    assert new.content == right and new.is_current and new.n == 1
    assert [m.id for m in current(memory, ns)] == [new.id]


def test_a_correction_keeps_the_entities_it_still_names(memory: GraphMem, ns: str) -> None:
    # the correction is the user's text: without the corrected memory's entities it
    # would mention Sam only as the extractor finds him, not as the claim's subject
    (ident,) = memory.remember(
        ns,
        [
            cand(
                "Sam was born on 14 August in Leeds",
                "s1",
                T0,
                entities=[
                    {"name": "Sam", "kind": "Person", "role": "subject"},
                    {"name": "Leeds", "kind": "Place", "role": "object"},
                ],
            )
        ],
    ).memory_ids
    assert ident is not None
    _, new = memory.correct(ns, ident, "Sam was born on 15 August")
    roles = {m.entity_id: m.role for m in new.mentions}
    assert roles.get(memory.entity(ns, "Sam").id) == "subject"
    assert memory.entity(ns, "Leeds").id not in roles  # no longer named: not carried over


def test_correcting_a_superseded_memory_corrects_its_successor(memory: GraphMem, ns: str) -> None:
    """A caller holding the id it was given can still correct the fact (SPEC §9.13): the
    correction follows ``superseded_by`` to the current memory and supersedes that one."""
    (ident,) = memory.remember(ns, [cand(BIRTHDAY.format(day=14), "s1", T0)]).memory_ids
    assert ident is not None
    _, first = memory.correct(ns, ident, BIRTHDAY.format(day=15))
    old, second = memory.correct(ns, ident, BIRTHDAY.format(day=16))
    assert old.id == first.id
    assert memory.get(ns, first.id).superseded_by == second.id
    assert [m.content for m in current(memory, ns)] == [BIRTHDAY.format(day=16)]


def test_a_correction_ends_the_relations_of_the_memory_it_corrects(
    memory: GraphMem, ns: str
) -> None:
    (ident,) = memory.remember(
        ns,
        [
            cand(
                "Sam works at Northwind Health",
                "s1",
                T0,
                subject="Sam",
                predicate="works_at",
                object="Northwind Health",
                relations=[
                    {"source": "Sam", "predicate": "WORKS_AT", "target": "Northwind Health"}
                ],
            )
        ],
    ).memory_ids
    assert ident is not None
    memory.correct(ns, ident, "Sam works at Brightline")
    assert ("WORKS_AT", "Northwind Health") not in _relation_targets(memory, ns, "Sam")


# -- forget_session ---------------------------------------------------------------------------


def test_forget_session_leaves_nothing_only_it_supported(
    memory: GraphMem, ns: str, store_kind: str, request: pytest.FixtureRequest
) -> None:
    memory.remember(
        ns,
        [
            cand(
                "Sam ran the Denver Half Marathon and ate Tofu Scramble after",
                "s1",
                T0,
                entities=[{"name": "Sam"}, {"name": "Denver Half Marathon"}],
                relations=[{"source": "Sam", "predicate": "RAN", "target": "Denver Half Marathon"}],
            )
        ],
    )
    memory.remember(
        ns,
        [cand("Sam works at Northwind Health", "s2", LATER, entities=[{"name": "Sam"}])],
    )
    names_before = {e.name for e in memory.store.list_entities(ns)}
    assert {"Denver Half Marathon", "Tofu Scramble", "Northwind Health"} <= names_before
    before = memory.stats(ns)
    assert before["sessions"] == 2
    sam = entity_id("Sam")
    assert "RAN" in {r.predicate for r in memory.store.relation_subgraph(ns, [sam], 3)}

    memory.forget_session(ns, "s1")

    names = {e.name for e in memory.store.list_entities(ns)}
    assert "Denver Half Marathon" not in names and "Tofu Scramble" not in names
    assert {"Sam", "Northwind Health"} <= names  # still supported by s2
    after = memory.stats(ns)
    assert after["sessions"] == 1
    assert after["entities"] == len(names)
    assert "RAN" not in {r.predicate for r in memory.store.relation_subgraph(ns, [sam], 3)}
    if store_kind == "neo4j":
        server = request.getfixturevalue("neo4j_server")
        with server.driver() as driver:
            records, _, _ = driver.execute_query(
                "MATCH (n {namespace: $ns})"
                " WHERE (n:Entity AND NOT EXISTS { (n)<-[:MENTIONS]-(:Memory) }"
                "        AND NOT EXISTS { (n)-[:RELATES_TO]-() })"
                "    OR (n:Turn AND n.session_id = 's1') OR (n:Session AND n.id = 's1')"
                " RETURN labels(n)[0] AS label, coalesce(n.name, n.id) AS name",
                ns=ns,
                database_=server.database,
            )
            assert [dict(r) for r in records] == []
            records, _, _ = driver.execute_query(
                "MATCH (:Entity {namespace: $ns})-[r:RELATES_TO]->(e:Entity)"
                " RETURN r.predicate AS predicate, e.name AS target",
                ns=ns,
                database_=server.database,
            )
            assert all(r["predicate"] != "RAN" for r in records)
            records, _, _ = driver.execute_query(
                "MATCH (e:Entity {namespace: $ns}) RETURN e.name AS name ORDER BY name",
                ns=ns,
                database_=server.database,
            )
            assert {r["name"] for r in records} == names


def test_confirmation_and_correction_are_not_sessions(memory: GraphMem, ns: str) -> None:
    report = memory.remember(
        ns,
        [
            cand("Sam lives in Denver", "s1", T0),
            cand(BIRTHDAY.format(day=14), "s1", T0),
        ],
    )
    first, second = report.memory_ids
    assert first is not None and second is not None
    memory.confirm(ns, first)
    memory.correct(ns, second, BIRTHDAY.format(day=15))
    assert memory.stats(ns)["sessions"] == 1
    # a confirmation inside a conversation is that conversation's
    memory.confirm(ns, first, session_id="s2")
    assert memory.stats(ns)["sessions"] == 2


def test_confirming_a_superseded_memory_is_refused(memory: GraphMem, ns: str) -> None:
    (ident,) = memory.remember(ns, [cand(BIRTHDAY.format(day=14), "s1", T0)]).memory_ids
    assert ident is not None
    memory.correct(ns, ident, BIRTHDAY.format(day=15))
    before = memory.get(ns, ident)
    with pytest.raises(InvalidMemoryError, match="superseded by") as info:
        memory.confirm(ns, ident)
    assert info.value.field == "memory_id"
    assert memory.get(ns, ident) == before


def test_a_name_with_a_title_stays_one_entity(memory: GraphMem, ns: str) -> None:
    # issue 10: "St. Mary's Hospital" also created an entity "Mary's Hospital"
    memory.remember(ns, [cand("Sam is a nurse at St. Mary's Hospital.", "s1", T0)])
    memory.remember(ns, [cand("Sam's shift at St. Mary's Hospital starts at 7.", "s2", LATER)])
    memory.remember(ns, [cand("St. Mary's Hospital opened a new wing.", "s3", LATER)])
    names = {e.name for e in memory.store.list_entities(ns)}
    assert "St. Mary's Hospital" in names
    assert not any(n != "St. Mary's Hospital" and "Mary" in n for n in names), names


def test_turns_of_one_session_are_keyed_by_their_context(memory: GraphMem, ns: str) -> None:
    # issue 15: a turn written with its session's other turns is indexed under a key
    # holding the session date (or its event time) and its neighbouring turns, the
    # claim itself written key_claim_repeats (3) times
    turns = [
        ("Ari: How was the pottery class?", "D1:1"),
        ("Dana: Amazing, we went yesterday!", "D1:2"),
        ("Ari: Lovely.", "D1:3"),
    ]
    at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    report = memory.remember(
        ns, [{**cand(text, "session_1", at), "turn_id": turn} for text, turn in turns]
    )
    ids = [i for i in report.memory_ids if i is not None]
    stored = {m.content: m for m in memory.store.get_memories(ns, ids)}
    middle = stored["Dana: Amazing, we went yesterday!"]
    said = "Dana: Amazing, we went yesterday!"
    asked = "Ari: How was the pottery class?"
    assert middle.key == f"[7 May 2023] {asked} {said} {said} {said} Ari: Lovely."
    assert stored[asked].key == f"[8 May 2023] {asked} {asked} {asked} {said}"
    hits = [h.memory_id for h in memory.store.text_search(ns, "pottery", 10)]
    assert middle.id in hits
    assert hits[0] == stored[asked].id  # the turn that says it outranks its neighbour


def test_a_single_candidate_is_keyed_by_its_content(memory: GraphMem, ns: str) -> None:
    report = memory.remember(ns, [cand("Dana went to the pottery class", "s1", T0)])
    (stored,) = memory.store.get_memories(ns, [i for i in report.memory_ids if i])
    assert stored.key is None
