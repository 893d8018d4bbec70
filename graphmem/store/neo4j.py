"""The Neo4j store: graphmem on Neo4j 2026.x or 5.26 LTS (SPEC §6). The only module that
imports ``neo4j``.

The store reads the server's version once, at :meth:`Neo4jStore.open`
(``dbms.components()``), and picks its Cypher by it: on Neo4j 2026.06 and later the
``cypher25`` variants of :mod:`graphmem.store._cypher` (a vector index that declares
filter properties and an in-index filtered ``SEARCH``); on 5.26 (and anything between)
the base statements (the HNSW index post-filtered, exact scans for small namespaces).

Every statement is a file of ``cypher/`` loaded by name (:mod:`graphmem.store._cypher`)
and run through one seam, :meth:`Neo4jStore._run` / :class:`_Tx`, which checks its
parameter keys against :data:`QUERY_PARAMS`, logs the statement name and keys (never
values: text and embeddings are user data) and translates driver errors::

    neo4j.exceptions.ServiceUnavailable, SessionExpired, ... -> StoreUnavailableError
    neo4j.exceptions.AuthError                               -> AuthenticationError
    neo4j.exceptions.ConstraintError                         -> ConstraintViolationError
    Neo.ClientError.Transaction.TransactionTimedOut*, and    -> TransactionTimeoutError
    LockClientStopped once the time limit has passed
    any other Neo4jError / DriverError                       -> StoreError (query = name)

Every transaction runs with the time limit ``transaction_timeout_s``
(``GRAPHMEM_NEO4J_TRANSACTION_TIMEOUT_S``), waiting for locks included.

The graph: ``(:Memory)-[:MENTIONS {role, ord}]->(:Entity)``,
``(:Entity)-[:RELATES_TO {id, predicate, confidence, memory_id, valid_from,
valid_until}]->(:Entity)``, ``(:Memory)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(:Session)``,
``(:Memory)-[:ASSOCIATED_WITH {similarity}]->(:Memory)``;
see :mod:`graphmem.store._neo4j_codec` for the node properties.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

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
)

from graphmem.errors import (
    AuthenticationError,
    ConfigurationError,
    ConstraintViolationError,
    SchemaError,
    StoreError,
    StoreUnavailableError,
    TransactionTimeoutError,
)
from graphmem.store import _cypher
from graphmem.store import _neo4j_codec as codec
from graphmem.store._neo4j_maintenance import Neo4jMaintenance
from graphmem.store._neo4j_params import QUERY_PARAMS, REQUIRED_INDEXES, expected_params
from graphmem.store.base import AccessUpdate, WriteBatch

if TYPE_CHECKING:
    from graphmem.settings import Settings

__all__ = ["QUERY_PARAMS", "Neo4jStore"]

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

SUPPORTED_VERSION = (5, 26)
# From this version on the store uses the Cypher 25 variants: in-index filtered vector search
# (GA 2026.02) with `IN` in its filter and an explicit `vector.quantization.type` (2026.06).
FILTERED_VECTOR_VERSION = (2026, 6)
CYPHER25 = "cypher25"
#: Accepted ``vector_quantization`` values (2026.06+; 5.26 does not quantise by option).
QUANTIZATIONS = ("scalar", "none", "binary")
# The vector index properties a filtered SEARCH needs (besides the embedding itself).
FILTER_PROPERTIES = ("namespace", "tier", "retrievable", "superseded_by", "time_anchor")
URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
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


class _Tx:
    """A managed transaction seen through the statement seam (name in, rows out)."""

    def __init__(self, store: Neo4jStore, tx: neo4j.ManagedTransaction) -> None:
        self._store = store
        self._tx = tx
        self.current: str | None = None

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run statement ``name`` in this transaction; its rows as dicts."""
        self.current = name
        query = self._store._prepare(name, params)
        return [record.data() for record in self._tx.run(query, dict(params))]


class Neo4jStore(Neo4jMaintenance):
    """A :class:`graphmem.store.base.MemoryStore` on a Neo4j 5.26 server.

    Parameters
    ----------
    uri : str
        Bolt URI, e.g. ``bolt://127.0.0.1:7687`` or ``neo4j://host:7687``.
    user, password : str
        Credentials; ``password=None`` connects without authentication.
    database : str
        Database name (Community has one: ``neo4j``).
    dim : int
        Embedding dimension: the vector index is created with it and an existing
        index of another dimension is refused.
    allow_no_auth : bool
        Accept a server that has authentication disabled (local tests only;
        ``GRAPHMEM_NEO4J_ALLOW_NO_AUTH``). Without it :meth:`open` refuses one.
    exact_search_max : int, optional
        Namespaces of at most this many memories are searched by exact cosine
        instead of the HNSW index (see :meth:`vector_search`). Default: by server.
        On 5.26 (384 dimensions, k = 50) an exact scan costs ~0.1 ms per memory,
        the post-filtered index ~30–70 ms whatever the size; they cross near 500,
        and the default keeps namespaces up to 1 000 exact (the embedded store's
        results, for ~0.1 s). On 2026.06+ the filtered index costs a few ms at
        any namespace size, so only tiny namespaces are scanned
        (:data:`graphmem.store._neo4j_plans.FILTERED_EXACT_MAX`).
    vector_quantization : str
        ``vector.quantization.type`` of the vector index on Neo4j 2026.06+:
        ``"scalar"`` (default), ``"none"`` or ``"binary"`` (the server's own default
        since 2026.08, which loses recall at 384 dimensions: ``graphmem doctor
        --index-recall`` measures it). An index of another form is recreated at
        :meth:`open`. Ignored on 5.26.
    index_timeout_s : int
        How long :meth:`open` waits for indexes to come online.
    transaction_timeout_s : float
        Time limit of every transaction, waiting for locks included (``> 0``); one
        that runs past it is rolled back and raises :class:`TransactionTimeoutError`.
        The schema steps of :meth:`open` get at least ``index_timeout_s``.

    Notes
    -----
    The constructor does no I/O: :meth:`open` connects, checks the server and
    applies the schema; :meth:`close` releases the driver. Also a context manager.
    """

    name = "neo4j"

    def __init__(
        self,
        uri: str,
        *,
        user: str = "neo4j",
        password: str | None = None,
        database: str = "neo4j",
        dim: int = 384,
        allow_no_auth: bool = False,
        exact_search_max: int | None = None,
        index_timeout_s: int = 300,
        transaction_timeout_s: float = 30.0,
        vector_quantization: str = "scalar",
    ) -> None:
        if not 1 <= dim <= 4096:
            raise ConfigurationError(f"embedding dim must be in [1, 4096] (Neo4j 5.26), got {dim}")
        _check_uri(uri)
        if (
            (exact_search_max is not None and exact_search_max < 0)
            or index_timeout_s < 1
            or not transaction_timeout_s > 0
        ):
            raise ConfigurationError(
                "need exact_search_max >= 0, index_timeout_s >= 1 and transaction_timeout_s > 0"
            )
        if vector_quantization not in QUANTIZATIONS:
            raise ConfigurationError(
                f"vector_quantization must be one of {', '.join(QUANTIZATIONS)},"
                f" got {vector_quantization!r}"
            )
        super().__init__(dim=dim, exact_search_max=exact_search_max)
        self._quantization = vector_quantization
        self._uri = uri
        self._user = user
        self._password = password
        self._database = database
        self._allow_no_auth = allow_no_auth
        self._index_timeout_s = index_timeout_s
        self._timeout_s = float(transaction_timeout_s)
        self._driver: neo4j.Driver | None = None
        self._server: dict[str, Any] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> Neo4jStore:
        """A store configured by :class:`graphmem.settings.Settings` (``neo4j_uri`` must be set)."""
        if not settings.neo4j_uri:
            raise ConfigurationError("GRAPHMEM_NEO4J_URI is not set")
        password = settings.neo4j_password
        return cls(
            settings.neo4j_uri,
            user=settings.neo4j_user,
            password=None if password is None else password.get_secret_value(),
            database=settings.neo4j_database,
            dim=settings.embedding_dim,
            allow_no_auth=settings.neo4j_allow_no_auth,
            transaction_timeout_s=settings.neo4j_transaction_timeout_s,
            vector_quantization=settings.neo4j_vector_quantization,
        )

    def __enter__(self) -> Neo4jStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        """Connect, check the server (5.26, authentication) and apply the schema. Idempotent.

        Raises
        ------
        StoreUnavailableError
            If the server cannot be reached.
        AuthenticationError
            If it refuses the credentials.
        ConfigurationError
            If it has authentication disabled and ``allow_no_auth`` is false, is
            older than 5.26, or holds a vector index of another dimension.
        SchemaError
            If an index is missing or not online after the schema was applied.
        """
        if self._driver is not None:
            return
        auth = None if self._password is None else (self._user, self._password)
        driver = self._new_driver(auth)
        try:
            with self._errors("open"):
                driver.verify_connectivity()
            self._driver = driver
            self._check_auth()
            self._check_server()
            self._apply_schema()
        except BaseException:
            self._driver = None
            driver.close()
            raise

    def close(self) -> None:
        """Close the driver. Idempotent."""
        driver, self._driver = self._driver, None
        if driver is not None:
            driver.close()

    def server_info(self) -> dict[str, Any]:
        """Where the store is connected: uri, address, agent, version, edition, database,
        and ``cypher``: the statement dialect chosen for the version (``"cypher5"`` or
        ``"cypher25"``)."""
        self._require_driver()
        return dict(self._server)

    def index_states(self) -> dict[str, dict[str, Any]]:
        """Every index of the database by name: type, labels / types, properties, state,
        population percent and options (for ``graphmem doctor``)."""
        rows = self._run("maintenance/show_indexes", {})
        return {
            row["name"]: {
                "type": row["type"],
                "entity_type": row["entityType"],
                "labels_or_types": list(row["labelsOrTypes"] or ()),
                "properties": list(row["properties"] or ()),
                "state": row["state"],
                "population_percent": float(row["populationPercent"]),
                "options": row["options"],
            }
            for row in rows
        }

    # -- writes ---------------------------------------------------------------
    def write(self, namespace: str, batch: WriteBatch) -> None:
        """Apply ``batch`` in one managed write transaction: all of it lands, or none.

        Upserts are ``MERGE`` on ``(namespace, id)`` under uniqueness constraints,
        so a retried or concurrent write of the same ids leaves one node each. The
        first statement locks and versions every memory written or deleted and
        compares ``batch.expected_versions`` (see :class:`WriteBatch`).
        Order: entities, memories (properties, then their mentions and
        observations replaced), relations, then deletions (a memory with its links
        and the relations it is the source of); turns and sessions left without
        memories are deleted. A batch that upserts and deletes an id deletes it.

        Raises
        ------
        InvalidInputError
            For an item of another namespace or an embedding of the wrong
            dimension or with a non-finite value; nothing is written.
        WriteConflictError
            When a memory of ``batch.expected_versions`` has another stored
            version; the transaction is rolled back.
        """
        codec.check_batch(namespace, batch, self._dim)
        if not batch:
            return
        self._write("write", lambda tx: codec.apply_batch(tx, namespace, batch, self._dim))

    def record_access(self, namespace: str, updates: Sequence[AccessUpdate]) -> None:
        """Apply access updates in one transaction (SPEC §4): ``access_count += 1``,
        ``last_accessed_at``, ``stability``, ``salience``, ``session_id`` added to
        ``accessed_sessions`` once; with ``reactivate`` hot and retrievable (the version
        raised when that changes either). Unknown ids are skipped; several updates of one
        id apply in order.

        Raises
        ------
        InvalidInputError
            For a naive ``accessed_at`` or a stability / salience outside [0, 1].
        """
        codec.check_access(updates)
        if not updates:
            return
        params = {"namespace": namespace, "rows": [codec.access_row(u) for u in updates]}
        self._write("record_access", lambda tx: tx.run("write/record_access", params))

    def delete_namespace(self, namespace: str) -> int:
        """Delete every node of ``namespace`` with its relationships, in batches of 1000
        (not atomic: a failure part-way leaves part of the namespace); returns the
        number of memories deleted. Its embedder record goes last."""
        deleted = self._autocommit("maintenance/delete_namespace_memories", namespace)
        for label in ("entities", "turns", "sessions"):
            self._autocommit(f"maintenance/delete_namespace_{label}", namespace)
        self.set_embedder_record(namespace, None)
        return deleted

    # -- the statement seam ---------------------------------------------------
    def _prepare(self, name: str, params: Mapping[str, Any]) -> str:
        """The text of statement ``name`` after checking ``params`` against QUERY_PARAMS."""
        expected = expected_params(name, self._dialect)
        if expected is None or frozenset(params) != expected:
            raise StoreError(
                f"internal error: statement called with keys {sorted(params)},"
                f" expected {sorted(expected or ())}",
                query=name,
            )
        logger.debug("neo4j %s keys=%s", name, sorted(params))
        return _cypher.load(name, self._dialect)

    def _run(
        self,
        name: str,
        params: Mapping[str, Any],
        *,
        write: bool = False,
        timeout_s: float | None = None,
    ) -> list[dict[str, Any]]:
        """Run one statement in its own transaction (retried on transient errors), within
        ``timeout_s`` (default: the store's transaction timeout)."""
        driver = self._require_driver()
        if write:
            self._forget_sessions()
        query = neo4j.Query(self._prepare(name, params), timeout=timeout_s or self._timeout_s)
        routing = neo4j.RoutingControl.WRITE if write else neo4j.RoutingControl.READ
        with self._errors(name):
            result = driver.execute_query(
                query, dict(params), database_=self._database, routing_=routing
            )
        # keys zipped with values, not Record.data(): our statements return only maps, lists and
        # scalars, and data() re-walks every nested value in Python (it cost ~0.3 s per
        # recall hydrating 250 memories with embeddings).
        return [dict(zip(result.keys, record, strict=True)) for record in result.records]

    def _write(self, operation: str, work: Callable[[_Tx], _T]) -> _T:
        """Run ``work`` as one managed write transaction (the driver retries it whole)."""
        driver = self._require_driver()
        self._forget_sessions()
        holder: list[_Tx] = []

        @neo4j.unit_of_work(timeout=self._timeout_s)
        def unit(tx: neo4j.ManagedTransaction) -> _T:
            holder[:] = [_Tx(self, tx)]
            return work(holder[0])

        def current() -> str:  # the statement that failed, for the error message
            return f"{operation}: {holder[0].current}" if holder else operation

        with self._errors(current), self._session(driver) as session:
            return session.execute_write(unit)

    def _autocommit(self, name: str, namespace: str) -> int:
        """Run a ``CALL ... IN TRANSACTIONS`` statement (auto-commit); its ``deleted`` count."""
        driver = self._require_driver()
        self._forget_sessions()
        query = neo4j.Query(self._prepare(name, {"namespace": namespace}), timeout=self._timeout_s)
        with self._errors(name), self._session(driver) as session:
            record = session.run(query, {"namespace": namespace}).single(strict=True)
        return int(record["deleted"])

    def _session(self, driver: neo4j.Driver) -> neo4j.Session:
        return driver.session(
            database=self._database, bookmark_manager=driver.execute_query_bookmark_manager
        )

    @property
    def driver(self) -> neo4j.Driver:
        """The open store's ``neo4j.Driver`` (its connection pool), for tools that query
        the same database themselves, e.g. the benchmarks' neo4j-graphrag peer. The
        store owns it: do not close it.

        Raises
        ------
        StoreUnavailableError
            When the store is not open.
        """
        return self._require_driver()

    def _require_driver(self) -> neo4j.Driver:
        if self._driver is None:
            raise StoreUnavailableError("the Neo4j store is not open; call open() first")
        return self._driver

    def _new_driver(self, auth: tuple[str, str] | None) -> neo4j.Driver:
        try:
            return neo4j.GraphDatabase.driver(
                self._uri,
                auth=auth,
                user_agent="graphmem",
                notifications_min_severity=neo4j.NotificationMinimumSeverity.WARNING,
                notifications_disabled_classifications=[
                    neo4j.NotificationDisabledClassification.UNRECOGNIZED
                ],
            )
        except (ValueError, DriverError) as exc:
            raise ConfigurationError(f"invalid Neo4j URI {self._uri!r}: {exc}") from exc

    @contextmanager
    def _errors(self, query: str | Callable[[], str]) -> Iterator[None]:
        """Translate driver errors into graphmem's, naming the statement."""
        started = time.monotonic()
        try:
            yield
        except AuthError as exc:
            what = (
                "requires authentication: set GRAPHMEM_NEO4J_PASSWORD"
                if self._password is None
                else f"refused the credentials of user {self._user!r}"
                " (GRAPHMEM_NEO4J_USER / GRAPHMEM_NEO4J_PASSWORD)"
            )
            raise AuthenticationError(f"Neo4j at {self._uri} {what}", query=_name(query)) from exc
        except ConstraintError as exc:
            raise ConstraintViolationError(exc.message or str(exc), query=_name(query)) from exc
        except _UNAVAILABLE as exc:
            raise StoreUnavailableError(
                f"cannot reach Neo4j at {self._uri}: {UNAVAILABLE_HINT}", query=_name(query)
            ) from exc
        except Neo4jError as exc:
            code = exc.code or ""
            timed_out = code.startswith(_TIMED_OUT) or (
                code == _LOCK_STOPPED and time.monotonic() - started >= self._timeout_s
            )
            if not timed_out:
                raise StoreError(
                    f"Neo4j failed: {exc.code}: {exc.message}", query=_name(query)
                ) from exc
            raise TransactionTimeoutError(
                f"a Neo4j transaction ran past its time limit of {self._timeout_s:g} s and was"
                " rolled back (nothing of it was written); it may have waited that long for a"
                " lock another transaction held. Raise GRAPHMEM_NEO4J_TRANSACTION_TIMEOUT_S if"
                " such waits are expected",
                query=_name(query),
            ) from exc
        except DriverError as exc:
            raise StoreError(f"Neo4j driver failed: {exc}", query=_name(query)) from exc

    # -- open() checks --------------------------------------------------------
    def _check_auth(self) -> None:
        """Refuse a server with authentication disabled unless ``allow_no_auth``."""
        if self._allow_no_auth:
            return
        if self._password is not None:  # a server without auth accepts any password: probe
            probe = self._new_driver(None)
            try:
                probe.verify_connectivity()
            except (AuthError, Neo4jError, DriverError):
                return  # refused without credentials: authentication is on
            finally:
                probe.close()
        raise ConfigurationError(
            f"Neo4j at {self._uri} has authentication disabled; graphmem refuses such a server"
            " unless allowed explicitly (GRAPHMEM_NEO4J_ALLOW_NO_AUTH=true or"
            " Neo4jStore(..., allow_no_auth=True)), which is meant for local tests only"
        )

    def _check_server(self) -> None:
        driver = self._require_driver()
        with self._errors("open"):
            info = driver.get_server_info()
        component = self._run("maintenance/server_components", {})[0]
        version = str(component["versions"][0])
        self._server = {
            "uri": self._uri,
            "address": str(info.address),
            "agent": info.agent,
            "protocol_version": ".".join(map(str, info.protocol_version)),
            "version": version,
            "edition": component["edition"],
            "database": self._database,
        }
        try:
            major_minor = tuple(int(x) for x in version.split(".")[:2])
        except ValueError:
            major_minor = (0, 0)
        if major_minor < SUPPORTED_VERSION:
            raise ConfigurationError(
                f"Neo4j {version} at {self._uri} is too old: graphmem needs Neo4j 5.26 LTS"
                " or 2026.06+"
            )
        self._dialect = CYPHER25 if major_minor >= FILTERED_VECTOR_VERSION else None
        self._server["cypher"] = self._dialect or "cypher5"
        if major_minor != SUPPORTED_VERSION and self._dialect is None:
            logger.warning(
                "graphmem runs Neo4j 5.26 LTS or 2026.06+; %s runs %s (using the 5.26 statements)",
                self._uri,
                version,
            )

    def _apply_schema(self) -> None:
        """Apply the ``schema/`` statements not yet recorded, each in its own transaction,
        record them as ``(:SchemaMigration {name})``, wait for the indexes, check them."""
        applied = {row["name"] for row in self._run("maintenance/applied_migrations", {})}
        values: dict[str, Any] = {"dimensions": self._dim, "quantization": self._quantization}
        slow = max(self._timeout_s, float(self._index_timeout_s))  # index population
        if self._vector_index_outdated():
            logger.warning(
                "neo4j schema: recreating the vector index memory_embedding for Neo4j %s"
                " (filter properties %s, %s quantization); the memories' vectors are"
                " re-indexed now, which takes a while on a large database",
                self._server.get("version"),
                ", ".join(FILTER_PROPERTIES),
                self._quantization,
            )
            self._run("maintenance/drop_memory_embedding", {}, write=True, timeout_s=slow)
            applied.discard("010_memory_embedding")
        for name in _cypher.names():
            stem = name.partition("/")[2]
            if not name.startswith("schema/") or stem in applied:
                continue
            params = {key: values[key] for key in expected_params(name, self._dialect) or ()}
            self._run(name, params, write=True, timeout_s=slow)
            self._run("maintenance/record_migration", {"name": stem}, write=True)
            logger.info("neo4j schema: applied %s", stem)
        self._run("maintenance/await_indexes", {"timeout_s": self._index_timeout_s}, timeout_s=slow)
        states = self.index_states()
        for index in REQUIRED_INDEXES:
            state = states.get(index, {}).get("state")
            if state != "ONLINE":
                raise SchemaError(
                    f"index {index} is {state or 'missing'}; check `SHOW INDEXES` (a dropped"
                    " index comes back after deleting its (:SchemaMigration) node and reopening)",
                    query="open",
                )
        config = states["memory_embedding"]["options"]["indexConfig"]
        self._index_config = dict(config)
        if int(config["vector.dimensions"]) != self._dim:
            raise ConfigurationError(
                f"the vector index memory_embedding has {config['vector.dimensions']} dimensions"
                f" but the store is configured with dim={self._dim}; use the same embedding model"
                " or another database"
            )

    def _vector_index_outdated(self) -> bool:
        """On 2026.06+: whether an existing memory_embedding index lacks the filter
        properties or has another quantization than configured (it is then recreated)."""
        if self._dialect != CYPHER25:
            return False
        index = self.index_states().get("memory_embedding")
        if index is None:
            return False
        properties = set(index["properties"])
        config = (index.get("options") or {}).get("indexConfig") or {}
        quantization = str(config.get("vector.quantization.type", "")).lower()
        return not set(FILTER_PROPERTIES) <= properties or quantization != self._quantization


def _check_uri(uri: str) -> None:
    """Raise ConfigurationError unless ``uri`` is a Bolt URI with a host, a valid port and
    no user info."""
    parts = urlsplit(uri)
    if "@" in parts.netloc:  # never echo it: the user info may hold a password
        raise ConfigurationError(
            "invalid Neo4j URI: it holds user info ('user:password@'); give credentials in"
            " GRAPHMEM_NEO4J_USER / GRAPHMEM_NEO4J_PASSWORD, not in the URI"
        )
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if parts.scheme not in URI_SCHEMES or not parts.hostname or not port_ok:
        raise ConfigurationError(
            f"invalid Neo4j URI {uri!r}: expected a Bolt URI such as bolt://127.0.0.1:7687"
            f" (schemes: {', '.join(URI_SCHEMES)})"
        )


def _name(query: str | Callable[[], str]) -> str:
    return query if isinstance(query, str) else query()
