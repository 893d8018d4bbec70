"""``rank_fields``: what ranking reads of each candidate without hydrating it, on both stores."""

from __future__ import annotations

from datetime import timedelta, timezone

from graphmem.models import Memory
from graphmem.store.base import AccessUpdate, MemoryStore, RankFields, WriteBatch
from tests.contract.builders import T0, make_memory


def write(store: MemoryStore, ns: str, *memories: Memory) -> None:
    store.write(ns, WriteBatch(memories=list(memories), entities=[], relations=[]))


def expected(m: Memory) -> RankFields:
    return RankFields(
        memory_id=m.id,
        type=m.type,
        type_uncertain=m.type_uncertain,
        confidence=m.confidence,
        access_count=m.access_count,
        last_observed_at=m.last_observed_at,
        stability=m.stability,
        current=m.superseded_by is None,
        retrievable=m.retrievable,
    )


def test_rank_fields_match_what_was_written_in_the_order_asked(store: MemoryStore, ns: str) -> None:
    plain = make_memory(ns, "ada repairs looms")
    varied = make_memory(
        ns,
        "ben prefers green tea",
        type="Preference",
        type_uncertain=True,
        confidence=0.37,
        access_count=4,
        stability=0.7,
        retrievable=False,
        observed_at=T0 + timedelta(days=40),
    )
    old = make_memory(ns, "cleo lives in leeds", superseded_by="someone-else")
    write(store, ns, plain, varied, old)

    got = store.rank_fields(ns, [old.id, "no-such-id", varied.id, plain.id])

    assert got == [expected(old), expected(varied), expected(plain)]
    assert all(f.last_observed_at.utcoffset() == timedelta(0) for f in got)
    assert store.rank_fields(ns, []) == []


def test_rank_fields_see_access_updates_and_other_offsets(store: MemoryStore, ns: str) -> None:
    east = timezone(timedelta(hours=5, minutes=30))
    memory = make_memory(ns, "dev climbs on sundays", observed_at=T0.astimezone(east))
    write(store, ns, memory)
    store.record_access(
        ns,
        [
            AccessUpdate(
                memory_id=memory.id,
                accessed_at=T0 + timedelta(days=1),
                stability=0.9,
                salience=0.6,
                session_id="s9",
            )
        ],
    )

    [got] = store.rank_fields(ns, [memory.id])

    assert got.access_count == 1
    assert got.stability == 0.9
    assert got.last_observed_at == T0  # the same instant, read back in UTC


def test_rank_fields_never_cross_namespaces(
    store: MemoryStore, ns: str, new_namespace: object
) -> None:
    assert callable(new_namespace)
    other = new_namespace()
    memory = make_memory(other, "eli keeps bees")
    write(store, other, memory)
    assert store.rank_fields(ns, [memory.id]) == []
    assert [f.memory_id for f in store.rank_fields(other, [memory.id])] == [memory.id]
