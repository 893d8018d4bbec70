"""Fixtures of the reliability suite (issue 6 §5): faults, load, concurrency, bad
input, isolation and crash safety.

Most tests run once per store through the contract suite's ``store`` fixture
(``embedded`` and ``neo4j``); ``ns`` / ``new_namespace`` hand out namespaces
that are deleted afterwards, so nothing here wipes a shared Neo4j database.

``memory`` is a :class:`GraphMem` facade with its *own* store instance on the
same backing data as ``store`` (a second SQLite connection set, or a second
Neo4j driver), the deterministic :class:`tests.fakes.HashEmbedder` and a
fixed clock. Tests use ``store`` to inspect and ``memory`` to act.

Figures for the issue note (faults injected, examples tried, recall p95 under
load, ...) are collected with :func:`record_figure`; they are printed at the
end of the run and written as JSON to ``$GRAPHMEM_RELIABILITY_FIGURES`` when
that is set.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from graphmem.store.base import MemoryStore
from tests.contract import conftest as _contract
from tests.fakes import HashEmbedder

# The contract suite's store fixtures, for this package too.
store_kind = _contract.store_kind
store_factory = _contract.store_factory
store = _contract.store
new_namespace = _contract.new_namespace
ns = _contract.ns

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=400)

_FIGURES: dict[str, Any] = {}
_FIGURES_LOCK = threading.Lock()


def record_figure(key: str, value: Any) -> None:
    """Record one figure for the issue note (merged into a dict when both are dicts)."""
    with _FIGURES_LOCK:
        old = _FIGURES.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            old.update(value)
        else:
            _FIGURES[key] = value


def add_figure(key: str, amount: int) -> None:
    """Add ``amount`` to a counting figure."""
    with _FIGURES_LOCK:
        _FIGURES[key] = int(_FIGURES.get(key, 0)) + amount


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _FIGURES:
        return
    text = json.dumps(_FIGURES, indent=2, sort_keys=True, default=str)
    terminalreporter.section("reliability figures")
    terminalreporter.write_line(text)
    target = os.environ.get("GRAPHMEM_RELIABILITY_FIGURES", "").strip()
    if target:
        Path(target).write_text(text + "\n", encoding="utf-8")


class FixedClock:
    """The facade's clock: a fixed "now" that tests may move."""

    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


MemoryFactory = Callable[..., GraphMem]


@pytest.fixture
def memory_factory(
    store_factory: Callable[[], MemoryStore], clock: FixedClock
) -> Iterator[MemoryFactory]:
    """Builds facades, each on its own store instance (closed after the test)."""
    made: list[GraphMem] = []

    def make(settings: Settings | None = None, **overrides: Any) -> GraphMem:
        options: dict[str, Any] = {"embedder": HashEmbedder(), "clock": clock}
        options.update(overrides)
        gm = GraphMem(settings or Settings(), store=store_factory(), **options)
        made.append(gm)
        return gm

    yield make
    for gm in made:
        gm.close()


@pytest.fixture
def memory(memory_factory: MemoryFactory, store: MemoryStore) -> GraphMem:
    """An opened facade on the test's store (``store`` is opened first)."""
    return memory_factory().open()
