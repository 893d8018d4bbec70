"""The deletion-and-cascade probe (``python -m bench forget``;
:mod:`bench.lifecycle.forgetting`) on every store, with the test embedder, on
the first people of the lifecycle scenarios: nothing forgotten comes back (history
included), and the facts kept are answered as before."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bench.lifecycle import SettableClock, load_people
from bench.lifecycle.forgetting import run_forgetting
from graphmem import GraphMem, Settings
from graphmem.store.base import MemoryStore
from tests.fakes import HashEmbedder


@pytest.mark.parametrize("mode", ["plain", "triples"])
def test_nothing_forgotten_returns_and_kept_facts_stay(store: MemoryStore, mode: str) -> None:
    clock = SettableClock(datetime.now(UTC))
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False)
    try:
        report = run_forgetting(gm, clock, load_people(limit=4), mode)  # type: ignore[arg-type]
    finally:
        gm.close()
    by_task = report["returned_by_task"]
    assert report["deleted_returned"][1] >= 12
    # a forgotten pet or person never comes back; nor a fact with its history when
    # the update superseded it (triples: the same subject and predicate, SPEC §2.11)
    assert by_task["pet"][0] == by_task["person"][0] == 0, report["returned"]
    if mode == "triples":
        assert by_task["fact"][0] == 0, report["returned"]
    assert all(report["forgotten"][task] > 0 for task in ("fact", "pet", "person"))
    # the kept facts are all still stored; their ranks may move a little, since the
    # namespace's word statistics (BM25) change when memories go (here one question of
    # 42, "Where does Tomas work?", after "Nina works at Foxglove Media" is forgotten)
    kept_after, kept = report["kept_after"]
    assert kept > 0 and kept_after >= report["kept_before"][0] - 0.05 * kept
