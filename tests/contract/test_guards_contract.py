"""The guards on every store (SPEC §10): read-time faithfulness, concept drift and an
entity's memories by time, through the facade.

Drift embeddings are hand-set (two orthogonal or 60°-apart directions padded to the
store's dimension) so distances are worked out in the comments; faithfulness uses the
test embedder, where a claim identical to a memory has cosine 1.0.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import timedelta

import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import InvalidInputError
from graphmem.guards.judge import PairVerdict
from graphmem.models import Entity, Memory
from graphmem.store.base import MemoryStore, WriteBatch
from tests.contract.builders import DIM, T0, make_entity, make_memory, make_relation
from tests.fakes import HashEmbedder


@pytest.fixture
def memory(store: MemoryStore) -> Iterator[GraphMem]:
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=lambda: T0)
    yield gm
    gm.close()


def direction(*head: float) -> tuple[float, ...]:
    """A unit vector of the store's dimension starting with ``head``."""
    norm = math.sqrt(sum(x * x for x in head))
    return tuple(x / norm for x in head) + (0.0,) * (DIM - len(head))


def entity_memories(
    ns: str,
    who: Entity,
    texts: list[str],
    vector: tuple[float, ...],
    start: int,
    others: list[Entity],
) -> list[Memory]:
    return [
        make_memory(
            ns,
            text,
            observed_at=T0 + timedelta(days=30 * (start + i)),
            mentions=[(who.id, "subject"), *((o.id, "object") for o in others)],
            embedding=vector,
        )
        for i, text in enumerate(texts)
    ]


def test_faithfulness_against_ids_recall_and_a_fresh_recall(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    alice, bob = make_entity(ns, "Alice"), make_entity(ns, "Bob")
    works = make_memory(ns, "Alice works at Google", mentions=[(alice.id, "subject")])
    kids = make_memory(ns, "Bob has three kids", mentions=[(bob.id, "subject")])
    store.write(ns, WriteBatch(memories=[works, kids], entities=[alice, bob]))
    answer = "Alice works at Google. Bob has four kids."
    by_ids = memory.faithfulness(ns, answer, [works.id, kids.id])
    # claim 1 restates `works` (cosine 1.0); claim 2 lacks the number 4 of `kids`
    assert [c.supported for c in by_ids.claims] == [True, False]
    assert by_ids.claims[0].memory_id == works.id
    assert by_ids.claims[0].similarity == pytest.approx(1.0, abs=1e-4)
    assert by_ids.claims[1].missing == ("4",)
    assert (by_ids.faithfulness, by_ids.risk) == (0.5, "medium")

    recalled = memory.recall(ns, "Alice Google Bob kids", record_access=False)
    from_recall = memory.faithfulness(ns, answer, recalled)
    assert set(from_recall.memory_ids) == {h.memory.id for h in recalled.hits}
    assert [c.supported for c in from_recall.claims] == [True, False]

    fresh = memory.faithfulness(ns, answer, query="What about Alice and Bob?")
    assert [c.supported for c in fresh.claims] == [True, False]
    # checking recorded no access
    assert [m.access_count for m in store.get_memories(ns, [works.id, kids.id])] == [0, 0]


def test_faithfulness_refuses_foreign_ids_and_blank_answers(
    memory: GraphMem, store: MemoryStore, new_namespace: object, ns: str
) -> None:
    other = new_namespace()  # type: ignore[operator]
    foreign = make_memory(other, "Alice works at Google")
    store.write(other, WriteBatch(memories=[foreign]))
    with pytest.raises(InvalidInputError, match="memories"):
        memory.faithfulness(ns, "Alice works at Google.", [foreign.id])
    with pytest.raises(InvalidInputError, match="answer"):
        memory.faithfulness(ns, "  ", [])


def test_drift_of_a_merged_entity_and_of_a_job_change(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    jordan, alex = make_entity(ns, "Jordan"), make_entity(ns, "Alex")
    acme, ohio, sam, globex, boston = (
        make_entity(ns, n) for n in ("Acme", "Ohio", "Sam", "Globex", "Boston")
    )
    coworker = entity_memories(
        ns,
        jordan,
        ["Jordan reviews code", "Jordan ships", "Jordan demos"],
        direction(1, 0),
        0,
        [acme],
    )
    cousin = entity_memories(
        ns, jordan, ["Jordan farms", "Jordan fishes", "Jordan visits"], direction(0, 1), 3, [ohio]
    )
    # Alex: topic turns by 60° (cos 0.5) at day 90, Sam and Boston stay, Acme -> Globex
    old_job = entity_memories(
        ns,
        alex,
        ["Alex at Acme", "Alex codes", "Alex travels"],
        direction(1, 0),
        0,
        [acme, sam, boston],
    )
    new_job = entity_memories(
        ns,
        alex,
        ["Alex at Globex", "Alex sells", "Alex hikes"],
        direction(0.5, math.sqrt(0.75)),
        3,
        [globex, sam, boston],
    )
    relations = [
        make_relation(ns, jordan, "WORKS_AT", acme, memory=coworker[0]),
        make_relation(ns, jordan, "LIVES_IN", ohio, memory=cousin[0]),
        make_relation(ns, alex, "WORKS_AT", acme, memory=old_job[0]),
        make_relation(ns, alex, "WORKS_AT", globex, memory=new_job[0]),
        make_relation(ns, alex, "MARRIED_TO", sam, memory=old_job[0]),
        make_relation(ns, alex, "LIVES_IN", boston, memory=old_job[0]),
    ]
    store.write(
        ns,
        WriteBatch(
            memories=[*coworker, *cousin, *old_job, *new_job],
            entities=[jordan, alex, acme, ohio, sam, globex, boston],
            relations=relations,
        ),
    )
    found = {d.name: d for d in memory.drift(ns)}
    # Sam and Boston are in Alex's six memories too; Acme, Ohio, Globex in fewer than 2 × 3
    assert set(found) == {"Jordan", "Alex", "Sam", "Boston"}
    # Jordan: orthogonal centroids -> distance 1.0; {WORKS_AT→Acme} vs {LIVES_IN→Ohio}
    # overlap 0 -> drift, split at day 90
    assert found["Jordan"].drift
    assert found["Jordan"].distance == pytest.approx(1.0, abs=1e-4)
    assert found["Jordan"].relation_overlap == 0.0
    assert found["Jordan"].split_at == T0 + timedelta(days=90)
    assert set(found["Jordan"].after_ids) == {m.id for m in cousin}
    # Alex: distance 1 - 0.5 = 0.5 > 0.4, overlap {MARRIED_TO→Sam, LIVES_IN→Boston} of
    # 4 keys = 0.5, not < 0.5 -> no drift
    assert not found["Alex"].drift
    assert found["Alex"].distance == pytest.approx(0.5, abs=1e-4)
    assert found["Alex"].relation_overlap == pytest.approx(0.5)
    # Sam: {←MARRIED_TO Alex, CO_MENTIONED Acme, CO_MENTIONED Boston} then Globex for
    # Acme: overlap 2 / 4 = 0.5 -> no drift (Boston likewise)
    assert not found["Sam"].drift and found["Sam"].relation_overlap == pytest.approx(0.5)
    assert not found["Boston"].drift
    # drifting entities come first, then by distance (all 0.5) and name
    assert [d.name for d in memory.drift(ns)] == ["Jordan", "Alex", "Boston", "Sam"]
    # one entity, by name; since: only entities with a memory observed since then
    assert [d.name for d in memory.drift(ns, "jordan")] == ["Jordan"]
    assert memory.drift(ns, since=T0 + timedelta(days=1000)) == []

    entity, listed = memory.entity_memories(ns, "Jordan")
    assert entity.id == jordan.id
    assert [m.id for m in listed] == [m.id for m in (*coworker, *cousin)]
    with pytest.raises(InvalidInputError, match="no entity named"):
        memory.entity_memories(ns, "Nobody")


class EventJudge:
    """Says two Events conflict (one was a corrected date); unsure otherwise."""

    name = "event-judge"

    def judge_pair(self, first: Memory, second: Memory, similarity: float) -> PairVerdict:
        if first.type == "Event":
            return PairVerdict("conflict", "one date corrects the other")
        return PairVerdict("unsure", "")


def test_consistency_scan_finds_contradictions_and_leaves_restatements(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    alice, bob = make_entity(ns, "Alice"), make_entity(ns, "Bob")

    def fact(text: str, days: int, vector: tuple[float, ...], **fields: object) -> Memory:
        who = bob if text.startswith("Bob") else alice
        return make_memory(
            ns,
            text,
            observed_at=T0 + timedelta(days=days),
            mentions=[(who.id, "subject")],
            embedding=vector,
            **fields,
        )

    root = math.sqrt(0.19)
    google = fact("Alice works at Google", 0, direction(1, 0))
    microsoft = fact("Alice works at Microsoft", 30, direction(0.9, root))  # cosine 0.9
    birthday = fact("Alice's birthday is on 14 August", 0, direction(0, 0, 1))
    born = fact("Alice was born on August 14th", 10, direction(0, 0, 0.8, 0.6))  # cosine 0.8
    allergic = fact("Bob is allergic to peanuts", 0, direction(0, 0, 0, 0, 1), confidence=0.95)
    not_allergic = fact(
        "Bob is not allergic to peanuts", 10, direction(0, 0, 0, 0, 0.9, root), confidence=0.6
    )
    race = fact("Alice ran a race on 3 May 2023", 0, direction(0, 0, 0, 0, 0, 0, 1), type="Event")
    race2 = fact(
        "Alice ran a race on 10 May 2023", 5, direction(0, 0, 0, 0, 0, 0, 0.9, root), type="Event"
    )
    tea = fact("Alice likes tea", 0, direction(0, 0, 0, 0, 0, 0, 0, 0, 1))
    coffee = fact("Alice likes coffee", 9, direction(0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.8660254))
    written = [google, microsoft, birthday, born, allergic, not_allergic, race, race2, tea, coffee]
    store.write(ns, WriteBatch(memories=written, entities=[alice, bob]))

    report = memory.consolidate(ns, now=T0 + timedelta(days=40))
    scan = report.consistency
    assert scan is not None
    by_pair = {frozenset((p.kept_id, p.superseded_id)): p for p in scan.pairs}
    # Google/Microsoft: cosine 0.9, other names -> conflict; equal confidence, the later
    # (Microsoft, day 30) stays. Allergic/not: cosine 0.9, negation flip -> conflict; the
    # older is more confident by 0.35 > 0.15 -> it stays. The races: two Events that differ
    # in date -> held. Birthday/born: compatible. Tea/coffee: cosine 0.5 < 0.75.
    assert set(by_pair) == {
        frozenset((google.id, microsoft.id)),
        frozenset((allergic.id, not_allergic.id)),
        frozenset((race.id, race2.id)),
    }
    job = by_pair[frozenset((google.id, microsoft.id))]
    assert (job.kept_id, job.superseded_id, job.action) == (microsoft.id, google.id, "superseded")
    assert job.similarity == pytest.approx(0.9, abs=1e-4)
    assert job.reason.startswith("entities:") and job.subject == "Alice"
    allergy = by_pair[frozenset((allergic.id, not_allergic.id))]
    assert (allergy.kept_id, allergy.superseded_id) == (allergic.id, not_allergic.id)
    assert allergy.reason.startswith("negation:")
    assert by_pair[frozenset((race.id, race2.id))].action == "held"
    assert (scan.pairs_found, scan.superseded, scan.held, scan.skipped) == (3, 2, 1, 0)

    stored = {m.id: m for m in store.get_memories(ns, [m.id for m in written])}
    assert stored[google.id].superseded_by == microsoft.id
    assert stored[google.id].valid_until == T0 + timedelta(days=30)
    assert stored[not_allergic.id].superseded_by == allergic.id
    assert all(stored[m.id].is_current for m in written if m.id not in (google.id, not_allergic.id))

    # idempotent: nothing more to supersede; the held pair is reported again
    again = memory.consolidate(ns, now=T0 + timedelta(days=40)).consistency
    assert again is not None
    assert (again.pairs_found, again.superseded, again.held) == (1, 0, 1)
    # incremental: nothing was observed after day 30
    later = memory.consolidate(ns, since=T0 + timedelta(days=31)).consistency
    assert later is not None and (later.examined, later.pairs_found) == (0, 0)

    # a judge decides the ambiguous pair: the later race stays (equal confidence)
    judged = GraphMem(
        Settings(), store=store, embedder=HashEmbedder(), clock=lambda: T0, pair_judge=EventJudge()
    )
    try:
        scan = judged.consolidate(ns).consistency
    finally:
        judged.close()  # closes the store too: the fixtures still need it
        store.open()
    assert scan is not None and len(scan.pairs) == 1
    decided = scan.pairs[0]
    assert (decided.kept_id, decided.superseded_id) == (race2.id, race.id)
    assert (decided.action, decided.decided_by) == ("superseded", "event-judge")
    assert "one date corrects the other" in decided.reason
