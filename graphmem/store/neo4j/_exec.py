"""The Neo4j store's query executor: the driver and the one statement seam.

Every statement is a file of ``cypher/`` loaded by name (:mod:`graphmem.store._cypher`)
and run through :meth:`Neo4jExecutor.run` (its own transaction), :meth:`~Neo4jExecutor.write`
(one managed write transaction, :class:`Tx`) or :meth:`~Neo4jExecutor.autocommit`. Each
checks the statement's parameter keys against :data:`QUERY_PARAMS`, logs the statement
name and keys (never values: text and embeddings are user data) and translates driver
errors (:meth:`Neo4jExecutor.errors`; the table is :mod:`graphmem.store.neo4j.store`'s).
With :mod:`graphmem.store.neo4j._schema`, the only modules that import ``neo4j``.

The role objects of :class:`~graphmem.store.neo4j.Neo4jStore` share one executor; tests
record the statements a store runs by wrapping ``store.executor.run``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

import neo4j
from neo4j.exceptions import (
    AuthError,
    ConnectionAcquisitionTimeoutError,
    ConstraintError,
    DatabaseUnavailable,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)
from tenacity import (
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_random_exponential,
)

from graphmem.errors import (
    AuthenticationError,
    ConfigurationError,
    ConstraintViolationError,
    StoreError,
    StoreUnavailableError,
    TransactionTimeoutError,
)
from graphmem.store import _cypher
from graphmem.store.neo4j._params import expected_params

logger = logging.getLogger("graphmem.store.neo4j")
_T = TypeVar("_T")

UNAVAILABLE_HINT = "start it with `docker compose up -d` or `tools/neo4j-local/neo4j-local start`"
_TIMED_OUT = "Neo.ClientError.Transaction.TransactionTimedOut"  # also ...ClientConfiguration
# What a transaction gets when the server stops it while it waits for a lock: at the time
# limit, or when an operator terminates it (told apart by the time it ran).
_LOCK_STOPPED = "Neo.ClientError.Transaction.LockClientStopped"
_UNAVAILABLE = (
    ServiceUnavailable,
    SessionExpired,
    ConnectionAcquisitionTimeoutError,
    DatabaseUnavailable,
)


class Tx:
    """A managed transaction seen through the statement seam (name in, rows out)."""

    def __init__(self, executor: Neo4jExecutor, tx: neo4j.ManagedTransaction) -> None:
        self._executor = executor
        self._tx = tx
        self.current: str | None = None

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run statement ``name`` in this transaction; its rows as dicts."""
        self.current = name
        query = self._executor.prepare(name, params)
        return [record.data() for record in self._tx.run(query, dict(params))]


class Neo4jExecutor:
    """The driver of one Neo4j database and the statement seam (see the module docstring).

    ``dialect`` is the server's Cypher dialect (:mod:`graphmem.store._cypher`), set when
    the store opens: None on 5.26, ``"cypher25"`` on 2026.06+.
    """

    def __init__(
        self, uri: str, *, user: str, password: str | None, database: str, timeout_s: float
    ) -> None:
        self.uri = uri
        self.user = user
        self.password = password
        self.database = database
        self.timeout_s = timeout_s
        self.dialect: str | None = None
        # The vector index holds the vectors unquantised and filters in its walk (2026.06+,
        # vector_quantization "none"): its scores are exact cosines, nothing to re-score.
        self.exact_index_scores = False
        self._driver: neo4j.Driver | None = None
        self._local = threading.local()

    # -- the driver -----------------------------------------------------------
    @property
    def driver(self) -> neo4j.Driver:
        """The open driver; StoreUnavailableError when the store is not open."""
        if self._driver is None:
            raise StoreUnavailableError("the Neo4j store is not open; call open() first")
        return self._driver

    @property
    def is_open(self) -> bool:
        return self._driver is not None

    def connect(self) -> None:
        """A driver with the credentials, its connectivity verified."""
        auth = None if self.password is None else (self.user, self.password)
        driver = self.new_driver(auth)
        try:
            with self.errors("open"):
                driver.verify_connectivity()
        except BaseException:
            driver.close()
            raise
        self._driver = driver

    def close(self) -> None:
        """Close the driver. Idempotent."""
        driver, self._driver = self._driver, None
        if driver is not None:
            driver.close()

    def new_driver(self, auth: tuple[str, str] | None) -> neo4j.Driver:
        try:
            return neo4j.GraphDatabase.driver(
                self.uri,
                auth=auth,
                user_agent="graphmem",
                notifications_min_severity=neo4j.NotificationMinimumSeverity.WARNING,
                notifications_disabled_classifications=[
                    neo4j.NotificationDisabledClassification.UNRECOGNIZED
                ],
            )
        except (ValueError, DriverError) as exc:
            raise ConfigurationError(f"invalid Neo4j URI {self.uri!r}: {exc}") from exc

    # -- the per-thread read memo ---------------------------------------------
    def remember(self, key: str, value: Any) -> None:
        """Keep ``value`` under ``key`` for this thread's next :meth:`recall` of it, unless
        a write comes first (every write path forgets them all). A read that fetched more
        than it was asked for (``rank_fields`` reads the sessions too) leaves it for the
        read that asks next."""
        memo: dict[str, Any] | None = getattr(self._local, "memo", None)
        if memo is None:
            self._local.memo = memo = {}
        memo[key] = value

    def recall(self, key: str) -> Any:
        """What this thread last remembered under ``key`` (None when a write came since),
        once: a later recall of it reads None."""
        memo: dict[str, Any] | None = getattr(self._local, "memo", None)
        return None if memo is None else memo.pop(key, None)

    def _forget(self) -> None:
        self._local.memo = None

    # -- the statement seam ---------------------------------------------------
    def prepare(self, name: str, params: Mapping[str, Any]) -> str:
        """The text of statement ``name`` after checking ``params`` against QUERY_PARAMS."""
        expected = expected_params(name, self.dialect)
        if expected is None or frozenset(params) != expected:
            raise StoreError(
                f"internal error: statement called with keys {sorted(params)},"
                f" expected {sorted(expected or ())}",
                query=name,
            )
        logger.debug("neo4j %s keys=%s", name, sorted(params))
        return _cypher.load(name, self.dialect)

    def run(
        self,
        name: str,
        params: Mapping[str, Any],
        *,
        write: bool = False,
        timeout_s: float | None = None,
    ) -> list[dict[str, Any]]:
        """Run one statement in its own transaction (retried on transient errors), within
        ``timeout_s`` (default: the store's transaction timeout); its rows as dicts."""
        driver = self.driver
        if write:
            self._forget()
        query = neo4j.Query(self.prepare(name, params), timeout=timeout_s or self.timeout_s)
        routing = neo4j.RoutingControl.WRITE if write else neo4j.RoutingControl.READ
        with self.errors(name):
            result = driver.execute_query(
                query, dict(params), database_=self.database, routing_=routing
            )
        # keys zipped with values, not Record.data(): our statements return only maps, lists and
        # scalars, and data() re-walks every nested value in Python (it cost ~0.3 s per
        # recall hydrating 250 memories with embeddings).
        return [dict(zip(result.keys, record, strict=True)) for record in result.records]

    def write(self, operation: str, work: Callable[[Tx], _T]) -> _T:
        """Run ``work`` as one managed write transaction (the driver retries it whole)."""
        driver = self.driver
        self._forget()
        holder: list[Tx] = []

        @neo4j.unit_of_work(timeout=self.timeout_s)
        def unit(tx: neo4j.ManagedTransaction) -> _T:
            holder[:] = [Tx(self, tx)]
            return work(holder[0])

        def current() -> str:  # the statement that failed, for the error message
            return f"{operation}: {holder[0].current}" if holder else operation

        with self.errors(current), self._session(driver) as session:
            return session.execute_write(unit)

    def autocommit(self, name: str, namespace: str) -> int:
        """Run a ``CALL ... IN TRANSACTIONS`` statement (auto-commit); its ``deleted`` count."""
        driver = self.driver
        self._forget()
        query = neo4j.Query(self.prepare(name, {"namespace": namespace}), timeout=self.timeout_s)
        # an auto-commit statement is not retried by the driver: a transient error (a
        # deadlock with another writer of the namespace) is retried here; the deletes it
        # runs are idempotent, so a rerun finishes what the first attempt left
        retrying = Retrying(
            retry=retry_if_exception_type(TransientError),
            stop=stop_after_attempt(3),
            wait=wait_random_exponential(multiplier=0.1, max=1.0),
            reraise=True,
        )
        with self.errors(name):  # what is left after the retries is translated
            for attempt in retrying:
                with attempt, self._session(driver) as session:
                    record = session.run(query, {"namespace": namespace}).single(strict=True)
        return int(record["deleted"])

    def _session(self, driver: neo4j.Driver) -> neo4j.Session:
        return driver.session(
            database=self.database, bookmark_manager=driver.execute_query_bookmark_manager
        )

    @contextmanager
    def errors(self, query: str | Callable[[], str]) -> Iterator[None]:
        """Translate driver errors into graphmem's, naming the statement."""
        started = time.monotonic()
        try:
            yield
        except AuthError as exc:
            what = (
                "requires authentication: set GRAPHMEM_NEO4J_PASSWORD"
                if self.password is None
                else f"refused the credentials of user {self.user!r}"
                " (GRAPHMEM_NEO4J_USER / GRAPHMEM_NEO4J_PASSWORD)"
            )
            raise AuthenticationError(f"Neo4j at {self.uri} {what}", query=_name(query)) from exc
        except ConstraintError as exc:
            raise ConstraintViolationError(exc.message or str(exc), query=_name(query)) from exc
        except _UNAVAILABLE as exc:
            raise StoreUnavailableError(
                f"cannot reach Neo4j at {self.uri}: {UNAVAILABLE_HINT}", query=_name(query)
            ) from exc
        except Neo4jError as exc:
            code = exc.code or ""
            timed_out = code.startswith(_TIMED_OUT) or (
                code == _LOCK_STOPPED and time.monotonic() - started >= self.timeout_s
            )
            if not timed_out:
                raise StoreError(
                    f"Neo4j failed: {exc.code}: {exc.message}", query=_name(query)
                ) from exc
            raise TransactionTimeoutError(
                f"a Neo4j transaction ran past its time limit of {self.timeout_s:g} s and was"
                " rolled back (nothing of it was written); it may have waited that long for a"
                " lock another transaction held. Raise GRAPHMEM_NEO4J_TRANSACTION_TIMEOUT_S if"
                " such waits are expected",
                query=_name(query),
            ) from exc
        except DriverError as exc:
            raise StoreError(f"Neo4j driver failed: {exc}", query=_name(query)) from exc


def _name(query: str | Callable[[], str]) -> str:
    return query if isinstance(query, str) else query()
