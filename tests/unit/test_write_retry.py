"""Optimistic concurrency helpers (graphmem.facade.write_retry, graphmem.store.base) and the
settings that drive them. The stores' compare-and-set itself is in tests/contract; races
between writers are in tests/reliability/test_concurrency.py."""

from __future__ import annotations

import pytest

from graphmem.errors import ConfigurationError, InvalidInputError, WriteConflictError
from graphmem.facade.write_retry import retry_on_conflict
from graphmem.settings import Settings
from graphmem.store.base import WriteBatch
from graphmem.store.checks import check_expected_versions, check_versions
from graphmem.store.neo4j import Neo4jStore


class Flaky:
    """Conflicts ``failures`` times, then returns ``"done"``."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise WriteConflictError("changed", memory_ids=("m1", "m2"), query="write")
        return "done"


def test_retries_with_jittered_exponential_backoff() -> None:
    slept: list[float] = []
    seen: list[WriteConflictError] = []
    work = Flaky(failures=3)
    result, attempt = retry_on_conflict(
        work,
        attempts=5,
        backoff_ms=10.0,
        on_conflict=seen.append,
        sleep=slept.append,
        jitter=lambda: 0.5,
    )
    assert (result, attempt, work.calls) == ("done", 4, 4)
    assert slept == pytest.approx([0.005, 0.010, 0.020])  # 0.5 · 10 ms · 2^(attempt - 1)
    assert [e.memory_ids for e in seen] == [("m1", "m2")] * 3


def test_first_attempt_success_does_not_sleep() -> None:
    slept: list[float] = []
    assert retry_on_conflict(lambda: 7, attempts=1, backoff_ms=10.0, sleep=slept.append) == (7, 1)
    assert slept == []


def test_gives_up_after_the_last_attempt_with_a_clear_error() -> None:
    work = Flaky(failures=10)
    with pytest.raises(WriteConflictError, match="gave up after 3 attempts") as caught:
        retry_on_conflict(work, attempts=3, backoff_ms=0.0, sleep=lambda _s: None)
    assert work.calls == 3
    assert caught.value.memory_ids == ("m1", "m2")
    assert "m1, m2" in str(caught.value) and "GRAPHMEM_WRITE_CONFLICT_ATTEMPTS" in str(caught.value)
    assert isinstance(caught.value.__cause__, WriteConflictError)


def test_other_errors_are_not_retried() -> None:
    calls: list[int] = []

    def broken() -> None:
        calls.append(1)
        raise InvalidInputError("bad", field="content")

    with pytest.raises(InvalidInputError):
        retry_on_conflict(broken, attempts=5, backoff_ms=0.0, sleep=lambda _s: None)
    assert calls == [1]
    with pytest.raises(InvalidInputError, match="attempts"):
        retry_on_conflict(lambda: None, attempts=0, backoff_ms=0.0)


def test_check_versions_names_every_stale_memory_sorted() -> None:
    check_versions({"a": 1, "new": 0}, {"a": 1}, query="write")  # missing counts as 0
    with pytest.raises(WriteConflictError, match="2 memories changed") as caught:
        check_versions({"b": 2, "a": 1, "c": 0}, {"a": 3, "b": 2, "c": 1}, query="write")
    assert caught.value.memory_ids == ("a", "c")
    assert caught.value.query == "write"


def test_expected_versions_must_name_written_or_deleted_memories() -> None:
    check_expected_versions(WriteBatch(deleted_memory_ids=["x"], expected_versions={"x": 2}))
    with pytest.raises(InvalidInputError, match=r"expected_versions\['y'\]"):
        check_expected_versions(WriteBatch(expected_versions={"y": 1}))
    with pytest.raises(InvalidInputError, match=">= 0"):
        check_expected_versions(WriteBatch(deleted_memory_ids=["x"], expected_versions={"x": -1}))


def test_conflict_and_timeout_settings_reach_their_users() -> None:
    defaults = Settings()
    assert (defaults.write.write_conflict_attempts, defaults.store.neo4j_transaction_timeout_s) == (
        8,
        30.0,
    )
    settings = Settings(neo4j_uri="bolt://127.0.0.1:7687", neo4j_transaction_timeout_s=2.5)
    assert Neo4jStore.from_settings(settings).executor.timeout_s == 2.5
    with pytest.raises(ValueError):
        Settings(write_conflict_attempts=0)
    with pytest.raises(ValueError):
        Settings(neo4j_transaction_timeout_s=0)
    with pytest.raises(ConfigurationError, match="transaction_timeout_s"):
        Neo4jStore("bolt://127.0.0.1:7687", transaction_timeout_s=0)
