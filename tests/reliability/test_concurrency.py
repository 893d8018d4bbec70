"""The same fact written at once by several writers (issue 6 §5 "concurrency").

SPEC §2.8: a duplicate from another session counts as a new independent
observation when it is more than ``independence_window_hours`` (1 h) away from
every existing observation, or when its surface form differs. So K writers
that state one fact from K such sessions at the same moment must leave ONE
memory with ``n = K`` (``K + 1`` when it already existed) and all K
observations.

The write pipeline reads (dedup lookups), decides, then writes the memory:
two writers that both read before either writes would each create the memory
with ``n = 1`` (or each merge from the same ``n_old``), and the last upsert
would win. The tests widen that window deterministically by holding every
writer right after its dedup read until all writers have read (or a short
timeout passes, so that a correctly serialised writer is not held up for
long), then check the outcome.

Threads of one facade take turns (a per-namespace lock); facades on separate
store instances — separate processes in production — are kept exact by the
store's compare-and-set on memory versions (:mod:`graphmem.facade.write_retry`):
the losers of a race re-read and merge again. Access updates commit beside a
writer without being lost and without making it retry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import timedelta
from functools import partial
from typing import Any

import pytest

from graphmem import GraphMem, Settings, WriteConflictError
from graphmem.models import Memory, WriteReport
from graphmem.store.base import AccessUpdate, LifecycleUpdate, MemoryStore
from tests.reliability.conftest import NOW, T0, MemoryFactory, add_figure, record_figure

WRITERS = 6
FACT = "Alice keeps her sourdough starter in the blue jar"
_HOLD_S = 0.3  # how long a writer waits after its read for the others to read too


def _candidate(session: int, *, surface: str = FACT, minutes_apart: int = 120) -> dict[str, Any]:
    return {
        "content": surface,
        "type": "Fact",
        "extractor": "verbatim",
        "session_id": f"session-{session}",
        "turn_id": f"session-{session}:1",
        "observed_at": (T0 + timedelta(minutes=minutes_apart * session)).isoformat(),
    }


def _surface(i: int) -> str:
    """Surface variant ``i`` of FACT: word ``i`` upper-cased (same content hash, SPEC §2.7)."""
    words = FACT.split()
    if i:
        words[i] = words[i].upper()
    return " ".join(words)


class _ReadGate:
    """Holds each writer after its dedup read until ``parties`` writers have read,
    or ``_HOLD_S`` has passed (then it lets the writer go: a writer that is
    serialised with the others must not wait for readers that cannot come)."""

    def __init__(self, parties: int, hold_s: float = _HOLD_S) -> None:
        self._parties = parties
        self._hold_s = hold_s
        self._count = 0
        self._cond = threading.Condition()
        self.all_read_together = False

    def arrive(self) -> None:
        with self._cond:
            self._count += 1
            if self._count >= self._parties:
                self.all_read_together = True
                self._cond.notify_all()
                return
            self._cond.wait_for(lambda: self._count >= self._parties, timeout=self._hold_s)


def _gate_reads(gm: GraphMem, gate: _ReadGate, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``gm``'s store stop at the gate after each tier-1 dedup read."""
    original = gm.store.find_by_hashes

    def find_by_hashes(namespace: str, hashes: Any) -> dict[str, Memory]:
        found = original(namespace, hashes)
        gate.arrive()
        return found

    monkeypatch.setattr(gm.store, "find_by_hashes", find_by_hashes)


def _run_at_once(jobs: Sequence[Callable[[], object]]) -> list[BaseException]:
    """Start every job at the same moment (a barrier); the exceptions they raised."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(job: Callable[[], object]) -> None:
        barrier.wait(timeout=30)
        try:
            job()
        except BaseException as exc:  # collected and re-raised by the test
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a writer hung"
    return errors


def _only_memory(store: MemoryStore, ns: str) -> Memory:
    assert store.stats(ns)["memories"] == 1, store.stats(ns)
    memories = store.memories_in_session(ns, "session-0")
    assert len(memories) == 1
    return memories[0]


@pytest.mark.parametrize("existing", [False, True], ids=["new-fact", "existing-fact"])
@pytest.mark.parametrize("apart", ["hours-apart", "same-hour-other-surface"])
def test_one_facade_many_threads_one_memory_right_n(
    memory: GraphMem,
    store: MemoryStore,
    ns: str,
    monkeypatch: pytest.MonkeyPatch,
    existing: bool,
    apart: str,
    store_kind: str,
) -> None:
    """WRITERS threads of one facade state one fact from WRITERS sessions at once."""
    first = WRITERS if existing else 0
    if existing:  # an earlier session already stated it: merges start from n_old = 1
        memory.remember(ns, [_candidate(WRITERS, minutes_apart=120)])
    gate = _ReadGate(WRITERS)
    _gate_reads(memory, gate, monkeypatch)

    def job(i: int) -> Callable[[], object]:
        if apart == "hours-apart":
            cand = _candidate(i, minutes_apart=120)
        else:  # within one hour of each other: independent because the surface differs
            cand = _candidate(i, surface=_surface(i), minutes_apart=5)
        return partial(memory.remember, ns, [cand])

    errors = _run_at_once([job(i) for i in range(WRITERS)])
    assert errors == []
    stored = _only_memory(store, ns)
    expected_sessions = {f"session-{i}" for i in range(WRITERS)} | (
        {f"session-{first}"} if existing else set()
    )
    assert set(stored.session_ids) == expected_sessions
    assert len(stored.observations) == len(expected_sessions)
    assert stored.n == len(expected_sessions)
    record_figure("concurrency.writers_per_fact", WRITERS)
    add_figure(f"concurrency.{store_kind}.same_fact_races_exact", 1)


def test_barrier_start_without_gate_one_memory_right_n(
    memory: GraphMem, store: MemoryStore, ns: str
) -> None:
    """The natural race: no widening, just a barrier start, repeated a few rounds."""
    rounds = 3
    for r in range(rounds):
        fact = f"{FACT} number {r}"
        jobs = [
            partial(memory.remember, ns, [{**_candidate(i + r * WRITERS), "content": fact}])
            for i in range(WRITERS)
        ]
        assert _run_at_once(jobs) == []
    assert store.stats(ns)["memories"] == rounds
    for r in range(rounds):
        sessions = [f"session-{i + r * WRITERS}" for i in range(WRITERS)]
        found = {m.id: m for s in sessions for m in store.memories_in_session(ns, s)}
        assert len(found) == 1
        (stored,) = found.values()
        assert set(stored.session_ids) == set(sessions)
        assert stored.n == WRITERS


@pytest.mark.parametrize("existing", [False, True], ids=["new-fact", "existing-fact"])
def test_separate_facades_one_memory_right_n(
    memory_factory: MemoryFactory,
    store: MemoryStore,
    ns: str,
    monkeypatch: pytest.MonkeyPatch,
    existing: bool,
    store_kind: str,
) -> None:
    """WRITERS facades, each with its own store instance (like WRITERS processes).
    Nothing serialises them, so the gate can wait for every writer's read: all of them
    read the same state (no memory, or the memory at n_old = 1) before any writes.
    The store's compare-and-set rejects every write but the first of each round and
    the losers re-read and merge again (optimistic concurrency)."""
    if existing:
        memory_factory().open().remember(ns, [_candidate(WRITERS)])
    gate = _ReadGate(WRITERS, hold_s=60.0)
    facades = [memory_factory().open() for _ in range(WRITERS)]
    for gm in facades:
        _gate_reads(gm, gate, monkeypatch)
    reports: list[WriteReport] = []

    def job(gm: GraphMem, i: int) -> None:
        reports.append(gm.remember(ns, [_candidate(i)]))

    assert _run_at_once([partial(job, gm, i) for i, gm in enumerate(facades)]) == []
    assert gate.all_read_together  # the race happened: every writer read before any wrote
    stored = _only_memory(store, ns)
    expected = WRITERS + (1 if existing else 0)
    assert stored.n == expected, stored.session_ids
    assert len(stored.observations) == expected
    attempts = sorted(r.attempts for r in reports)
    conflicts = sum(a - 1 for a in attempts)
    # every writer but the first wrote against a state another writer had changed
    assert conflicts >= WRITERS - 1, attempts
    case = "existing" if existing else "new"
    add_figure(f"concurrency.{store_kind}.cross_instance_{case}.conflicts", conflicts)
    record_figure(f"concurrency.{store_kind}.cross_instance_{case}.attempts", attempts)


def test_access_update_between_read_and_write_is_kept(
    memory: GraphMem, store: MemoryStore, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recall's access update lands while a writer merges the same memory."""
    report = memory.remember(ns, [_candidate(0)])
    memory_id = report.created[0]
    original = memory.store.find_by_hashes

    def find_by_hashes(namespace: str, hashes: Any) -> dict[str, Memory]:
        found = original(namespace, hashes)
        # another reader's access update commits now (through another store instance)
        store.record_access(
            ns, [AccessUpdate(memory_id, NOW, stability=0.4, salience=0.7, session_id="reader")]
        )
        return found

    monkeypatch.setattr(memory.store, "find_by_hashes", find_by_hashes)
    merge = memory.remember(ns, [_candidate(1)])
    stored = store.get_memories(ns, [memory_id])[0]
    assert stored.n == 2
    assert stored.access_count == 1
    assert stored.accessed_sessions == ("reader",)
    assert (stored.stability, stored.salience, stored.last_accessed_at) == (0.4, 0.7, NOW)
    assert merge.attempts == 1  # access updates do not make writers retry


def test_reactivation_between_read_and_write_is_kept(
    memory: GraphMem, store: MemoryStore, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold memory is reactivated (seed 003) while a writer merges into it a
    restatement that leaves its tier alone (same session: not independent). The
    reactivation changed the memory's tier, so the writer's compare-and-set fails and
    it re-reads: the memory ends merged *and* hot."""
    memory_id = memory.remember(ns, [_candidate(0)]).created[0]
    [read] = store.get_memories(ns, [memory_id])
    update = LifecycleUpdate(memory_id, False, "cold", read.access_count, read.version)
    assert store.set_lifecycle(ns, [update]) == 1
    original = memory.store.find_by_hashes
    calls: list[int] = []

    def find_by_hashes(namespace: str, hashes: Any) -> dict[str, Memory]:
        found = original(namespace, hashes)
        if not calls:  # once: a recall reaches it through an association link
            store.record_access(ns, [AccessUpdate(memory_id, NOW, 0.1, 0.55, reactivate=True)])
        calls.append(1)
        return found

    monkeypatch.setattr(memory.store, "find_by_hashes", find_by_hashes)
    again = {**_candidate(0), "turn_id": "session-0:2", "content": _surface(3)}
    report = memory.remember(ns, [again])
    stored = store.get_memories(ns, [memory_id])[0]
    assert report.attempts == 2 and len(calls) == 2
    assert (stored.tier, stored.retrievable) == ("hot", True)
    assert stored.n == 1 and len(stored.observations) == 2  # merged, not independent
    assert stored.access_count == 1


def test_a_write_that_keeps_conflicting_gives_up_with_a_clear_error(
    memory_factory: MemoryFactory, store: MemoryStore, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer changes the memory between every read and write: after
    ``write_conflict_attempts`` attempts the call fails, having written nothing."""
    gm = memory_factory(settings=Settings(write_conflict_attempts=3)).open()
    memory_id = gm.remember(ns, [_candidate(0)]).created[0]
    original = gm.store.find_by_hashes
    rivals = iter(range(100, 200))

    def find_by_hashes(namespace: str, hashes: Any) -> dict[str, Memory]:
        found = original(namespace, hashes)
        other = memory_factory().open()  # another process merges a new session each time
        other.remember(ns, [_candidate(next(rivals))])
        return found

    monkeypatch.setattr(gm.store, "find_by_hashes", find_by_hashes)
    with pytest.raises(WriteConflictError, match="gave up after 3 attempts") as caught:
        gm.remember(ns, [_candidate(1)])
    assert caught.value.memory_ids == (memory_id,)
    stored = store.get_memories(ns, [memory_id])[0]
    assert "session-1" not in stored.session_ids
    assert stored.n == 1 + 3  # the rivals' three merges, all kept
