"""The access update a recall records on what it returned (docs/spec.md §4, §9.12)."""

from __future__ import annotations

import atexit
import contextlib
import itertools
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.models import RecallHit
from graphmem.retrieval.ranking.ranker import days_between
from graphmem.retrieval.retrievers import Hit
from graphmem.scoring import salience_on_access, updated_stability
from graphmem.settings import Settings
from graphmem.store.base import AccessUpdate, MemoryStore


def counted(
    settings: Settings, ranked: list[RecallHit], hits: Mapping[str, list[Hit]]
) -> list[RecallHit]:
    """What a recall counts as accessed (docs/spec.md §9.12, ``Settings.read.ranking.access_count_top``):
    its top N results that some retriever found directly and that pass the render gate."""
    direct = {h.memory_id for hs in hits.values() for h in hs if not h.associative}
    top = ranked[: settings.read.ranking.access_count_top]
    return [h for h in top if h.memory.id in direct and h.explanation.renderable]


def access_updates(
    settings: Settings,
    ranked: list[RecallHit],
    hits: Mapping[str, list[Hit]],
    now: datetime,
    session_id: str | None,
) -> list[AccessUpdate]:
    """docs/spec.md §4 access update of each of ``ranked``: count, time, stability (direct 0.1 /
    associative 0.03 × spaced-repetition factor), salience, session; a cold or
    unretrievable memory is reactivated."""
    cfg = settings
    direct = {h.memory_id for hs in hits.values() for h in hs if not h.associative}
    updates: list[AccessUpdate] = []
    for hit in ranked:
        m = hit.memory
        boost = (
            cfg.dynamics.stability_direct_boost
            if m.id in direct
            else cfg.dynamics.stability_associative_boost
        )
        since = days_between(now, m.last_accessed_at or m.created_at)
        updates.append(
            AccessUpdate(
                memory_id=m.id,
                accessed_at=now,
                stability=updated_stability(
                    m.stability,
                    since,
                    boost=boost,
                    interval_days=cfg.dynamics.spaced_rep_interval_days,
                    max_factor=cfg.dynamics.spaced_rep_max,
                ),
                salience=salience_on_access(m.salience, step=cfg.dynamics.salience_access_step),
                session_id=session_id,
                reactivate=m.tier == "cold" or not m.retrievable,
            )
        )
    return updates


@dataclass(frozen=True, slots=True)
class _Recalled:
    """One recall's access: its updates and what reactivation needs (docs/spec.md §4)."""

    namespace: str
    updates: tuple[AccessUpdate, ...]
    ids: tuple[str, ...]
    accessed_at: datetime
    session_id: str | None


class AccessWriter:
    """Writes recalls' access updates and cold reactivations (docs/spec.md §4) on one
    background thread, off the recall's critical path, several recalls at a time.

    The thread waits up to ``settings.access_write_window_ms`` after a recall for more
    (at most :data:`MAX_BATCH` recalls), then, per namespace, reads the association links
    of every recalled memory once. When none of the linked memories is cold and current
    (the usual case: reactivation would change nothing, and access updates never make
    a memory cold or current), every update goes in one ``record_access``, in recall
    order. Otherwise each recall is written as on its own: its ``record_access``, then
    :func:`reactivate_associated`. Either way the store ends
    as if each recall had been written right after it ran.

    :meth:`flush` waits until everything submitted is written and re-raises the first
    store error since the last flush; :meth:`close` flushes and stops the thread (the
    writer starts a new one on the next :meth:`submit`). At interpreter exit, pending
    updates are written.
    """

    MAX_BATCH = 64

    def __init__(self, store: MemoryStore, settings: Settings) -> None:
        self._store = store
        self._settings = settings
        self._cond = threading.Condition()
        self._queue: list[_Recalled] = []
        self._submitted = 0
        self._written = 0
        self._urgent = 0  # flushes waiting: write now, do not wait for more
        self._closing = False
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        atexit.register(_flush_at_exit, weakref.ref(self))

    def submit(
        self,
        namespace: str,
        updates: Sequence[AccessUpdate],
        accessed_at: datetime,
        session_id: str | None,
    ) -> None:
        """Queue one recall's updates (``reactivate_associated`` follows on their ids)."""
        recalled = _Recalled(
            namespace,
            tuple(updates),
            tuple(u.memory_id for u in updates),
            accessed_at,
            session_id,
        )
        with self._cond:
            self._queue.append(recalled)
            self._submitted += 1
            if self._thread is None:
                self._closing = False
                self._thread = threading.Thread(target=self._run, name="access-writer", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self) -> None:
        """Wait until every update submitted so far is written; re-raise the first store
        error a write met since the last flush."""
        with self._cond:
            target = self._submitted
            self._wait_until_written(target)
            error, self._error = self._error, None
        if error is not None:
            raise error

    def wait_written(self) -> None:
        """Wait until every update submitted so far is written, like :meth:`flush`, but
        keep a write's error for the next flush. A recall calls it first when
        ``access_write_window_ms`` is 0, so it ranks with every earlier recall's updates
        (read your own writes) even when the writer thread is slow to run; usually
        nothing is pending and it returns at once."""
        with self._cond:
            target = self._submitted
            if self._written >= target:
                return
            self._wait_until_written(target)

    def _wait_until_written(self, target: int) -> None:
        """With ``self._cond`` held: hurry the writer thread and wait until ``target``
        updates are written (or the thread has stopped)."""
        self._urgent += 1
        self._cond.notify_all()
        try:
            while self._written < target and self._thread is not None:
                self._cond.wait()
        finally:
            self._urgent -= 1

    def close(self) -> None:
        """:meth:`flush`, then stop the thread."""
        try:
            self.flush()
        finally:
            with self._cond:
                thread, self._thread = self._thread, None
                self._closing = True
                self._cond.notify_all()
            if thread is not None:
                thread.join()

    def _run(self) -> None:
        window_s = self._settings.read.ranking.access_write_window_ms / 1000
        while True:
            with self._cond:
                while not self._queue and not self._closing:
                    self._cond.wait()
                if not self._queue:
                    return
                deadline = time.monotonic() + window_s
                while (
                    not self._urgent
                    and not self._closing
                    and len(self._queue) < self.MAX_BATCH
                    and (left := deadline - time.monotonic()) > 0
                ):
                    self._cond.wait(left)
                batch, self._queue = self._queue, []
            for namespace, run in itertools.groupby(batch, key=lambda r: r.namespace):
                try:
                    self._write(namespace, list(run))
                except BaseException as exc:  # kept for flush(); the thread goes on
                    with self._cond:
                        self._error = self._error or exc
            with self._cond:
                self._written += len(batch)
                self._cond.notify_all()

    def _write(self, namespace: str, run: list[_Recalled]) -> None:
        store, cfg = self._store, self._settings
        every = sorted({i for r in run for i in r.ids})
        links = store.associations(namespace, every) if every else []
        linked: set[str] = set()
        for r in run:
            mine = set(r.ids)
            for link in links:
                ends = (link.source_id, link.target_id)
                if mine.intersection(ends):
                    linked.update(end for end in ends if end not in mine)
        cold = linked and any(
            m.tier == "cold" and m.is_current for m in store.get_memories(namespace, sorted(linked))
        )
        if not cold:  # reactivation would change nothing: one write for the run
            store.record_access(namespace, [u for r in run for u in r.updates])
            return
        for r in run:  # as each recall would have been written on its own
            store.record_access(namespace, r.updates)
            reactivate_associated(store, cfg, namespace, list(r.ids), r.accessed_at, r.session_id)


def _flush_at_exit(ref: weakref.ref[AccessWriter]) -> None:
    writer = ref()
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.close()


def reactivate_associated(
    store: MemoryStore,
    settings: Settings,
    namespace: str,
    memory_ids: Sequence[str],
    now: datetime,
    session_id: str | None = None,
) -> list[str]:
    """Bring back to hot the cold memories linked to ``memory_ids`` (docs/spec.md §4).

    Each current, cold memory with an association link to one of ``memory_ids`` (and
    not itself among them) gets the associative access update of docs/spec.md §4 —
    ``stability + 0.03·min(2, days since last access / 7)``, salience raised,
    ``access_count + 1``, ``last_accessed_at = now``, ``session_id`` added — with the
    tier set back to hot and the memory retrievable again ("resurrected": recall finds
    it), in one store write. Hot neighbours are left alone: they were not recalled,
    only linked. The next consolidation pass judges it again by docs/spec.md §9.5 with its new
    stability and last access (a memory still stale goes unretrievable again, and cold
    only ``cold_after_days`` after this access).

    Returns
    -------
    list of str
        The reactivated memory ids, sorted.
    """
    if not memory_ids:
        return []
    recalled = set(memory_ids)
    linked: set[str] = set()
    for link in store.associations(namespace, list(dict.fromkeys(memory_ids))):
        linked.update(end for end in (link.source_id, link.target_id) if end not in recalled)
    if not linked:
        return []
    neighbours = store.get_memories(namespace, sorted(linked))
    cold = [m for m in neighbours if m.tier == "cold" and m.is_current]
    updates = [
        AccessUpdate(
            memory_id=m.id,
            accessed_at=now,
            stability=updated_stability(
                m.stability,
                max(0.0, (now - (m.last_accessed_at or m.created_at)).total_seconds() / 86_400.0),
                boost=settings.dynamics.stability_associative_boost,
                interval_days=settings.dynamics.spaced_rep_interval_days,
                max_factor=settings.dynamics.spaced_rep_max,
            ),
            salience=salience_on_access(m.salience, step=settings.dynamics.salience_access_step),
            session_id=session_id,
            reactivate=True,
        )
        for m in cold
    ]
    if updates:
        store.record_access(namespace, updates)
    return [m.id for m in cold]
