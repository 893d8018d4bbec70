"""Optimistic concurrency for read-modify-write calls (remember, confirm, correct,
forget_session).

Each stored memory carries a ``version`` that every write of its claim or lifecycle
fields raises. A writer reads the memories it changes, computes their new state and
writes them with :attr:`~graphmem.store.base.WriteBatch.expected_versions` set to the
versions it read; the store compares them inside its write transaction and raises
:class:`~graphmem.errors.WriteConflictError`, writing nothing, when another writer
(another thread, facade or process) committed one of those memories in between.
:func:`retry_on_conflict` then runs the whole read-compute-write again — the second
attempt reads what the other writer committed, so a merge builds on its ``n`` instead
of overwriting it — a bounded number of times, with jittered exponential backoff.

Access updates (recall's ``access_count``, ``last_accessed_at``, stability, salience)
do not raise the version and a checked write keeps them as stored, so a recall never
forces a writer to retry and a writer never loses a recall's update.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from graphmem.errors import InvalidInputError, WriteConflictError

__all__ = ["retry_on_conflict"]

logger = logging.getLogger(__name__)
_T = TypeVar("_T")


def _ignore(_exc: WriteConflictError) -> None:
    return None


def retry_on_conflict(
    work: Callable[[], _T],
    *,
    attempts: int,
    backoff_ms: float,
    on_conflict: Callable[[WriteConflictError], None] = _ignore,
    sleep: Callable[[float], None] = time.sleep,
    jitter: Callable[[], float] = random.random,
) -> tuple[_T, int]:
    """Run ``work`` until it does not raise :class:`WriteConflictError`.

    Parameters
    ----------
    work : callable
        One whole read-compute-write; it must re-read everything it writes on each
        call (a retry that reused the first read would conflict again, or worse).
    attempts : int
        How many times to run it at most (``>= 1``; ``Settings.write.write_conflict_attempts``).
    backoff_ms : float
        Base of the pause after a conflict: ``jitter() · backoff_ms · 2^(attempt − 1)``
        milliseconds (``Settings.write.write_conflict_backoff_ms``).
    on_conflict : callable, optional
        Called with each conflict before the pause (e.g. to drop caches).
    sleep, jitter : callable, optional
        Injected for tests (``time.sleep``, ``random.random``).

    Returns
    -------
    (result, attempt)
        ``work``'s result and the attempt (1-based) that succeeded.

    Raises
    ------
    WriteConflictError
        When the last attempt conflicted too; names the attempts and the memories.
    """
    if attempts < 1:
        raise InvalidInputError(f"must be >= 1, got {attempts}", field="attempts")
    for attempt in range(1, attempts + 1):
        try:
            return work(), attempt
        except WriteConflictError as exc:
            on_conflict(exc)
            if attempt == attempts:
                shown = ", ".join(exc.memory_ids[:5]) + (" ..." if len(exc.memory_ids) > 5 else "")
                raise WriteConflictError(
                    f"gave up after {attempts} attempts: other writers kept changing memories"
                    f" this write read ({shown}) before it could write them; nothing of the"
                    " last attempt was written. Retry later, or raise"
                    " GRAPHMEM_WRITE_CONFLICT_ATTEMPTS",
                    memory_ids=exc.memory_ids,
                    query=exc.query,
                ) from exc
            logger.info(
                "write conflict on %d memories (attempt %d of %d); re-reading",
                len(exc.memory_ids),
                attempt,
                attempts,
            )
            sleep(jitter() * backoff_ms * 2 ** (attempt - 1) / 1000.0)
    raise AssertionError("unreachable")  # pragma: no cover
