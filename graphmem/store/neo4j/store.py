"""The Neo4j store: graphmem on Neo4j 2026.x or 5.26 LTS (docs/spec.md §6).

The store reads the server's version once, at :meth:`Neo4jStore.open`
(``dbms.components()``), and picks its Cypher by it: on Neo4j 2026.06 and later the
``cypher25`` variants of :mod:`graphmem.store._cypher` (a vector index that declares
filter properties and an in-index filtered ``SEARCH``); on 5.26 (and anything between)
the base statements (the HNSW index post-filtered, exact scans for small namespaces).

Every statement is a file of ``cypher/`` loaded by name (:mod:`graphmem.store._cypher`)
and run through one seam, the store's :attr:`Neo4jStore.executor`
(:mod:`graphmem.store.neo4j._exec`, which with :mod:`._schema` is all that imports
``neo4j``), which checks its
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
see :mod:`graphmem.store.neo4j._codec` for the node properties.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from graphmem.errors import ConfigurationError
from graphmem.store._composed import ComposedStore
from graphmem.store.neo4j import _schema as schema
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.neo4j._forget import Neo4jForgetting
from graphmem.store.neo4j._lookups import Neo4jLookups
from graphmem.store.neo4j._maintenance import Neo4jMaintenance
from graphmem.store.neo4j._params import QUERY_PARAMS, REQUIRED_INDEXES
from graphmem.store.neo4j._reads import Neo4jRetrievers
from graphmem.store.neo4j._writes import Neo4jWrites
from graphmem.store.records import IndexState, ServerInfo, StoreHealth

if TYPE_CHECKING:
    import neo4j

    from graphmem.settings import Settings

__all__ = ["QUERY_PARAMS", "Neo4jStore"]

#: Accepted ``vector_quantization`` values (2026.06+; 5.26 does not quantise by option).
QUANTIZATIONS = ("scalar", "none", "binary")
URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


class Neo4jStore(ComposedStore):
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
        (:data:`graphmem.store.neo4j._plans.FILTERED_EXACT_MAX`).
    vector_quantization : str
        ``vector.quantization.type`` of the vector index on Neo4j 2026.06+:
        ``"none"`` (default), ``"scalar"`` or ``"binary"`` (the server's own default
        since 2026.08, which loses recall at 384 dimensions: ``graphmem doctor
        --index-recall`` measures it). With ``"none"`` the index holds float32 vectors
        and its scores are exact cosines: searches take them as they are instead of
        re-scoring each neighbour on its stored vector (at 100k random vectors, LIMIT
        3,200: ~190 ms instead of ~470 ms at load 16), for 4x the index's memory
        (~150 MB at 100k x 384). An
        index of another form is recreated at :meth:`open`. Ignored on 5.26.
    hnsw_m, hnsw_ef_construction : int
        ``vector.hnsw.m`` and ``vector.hnsw.ef_construction`` of the vector index on
        2026.06+ (default 32 and 200, the server's 16 and 100): a denser HNSW graph, so
        the filtered search's ask reaches recall@10 >= 0.98 on random 384-d vectors at
        100k (0.89 with the server's defaults), for slower inserts. An index built
        otherwise is recreated at :meth:`open`. Ignored on 5.26.
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
    Composed (:mod:`graphmem.store._composed`): one :class:`Neo4jExecutor` shared by the
    role objects (writes, maintenance, lookups, retrievers).
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
        vector_quantization: str = "none",
        hnsw_m: int = 32,
        hnsw_ef_construction: int = 200,
    ) -> None:
        if not 1 <= dim <= 4096:
            raise ConfigurationError(f"embedding dim must be in [1, 4096] (Neo4j 5.26), got {dim}")
        _check_uri(uri)
        if (
            (exact_search_max is not None and exact_search_max < 0)
            or index_timeout_s < 1
            or not transaction_timeout_s > 0
            or not 2 <= hnsw_m <= 512
            or not 1 <= hnsw_ef_construction <= 3200
        ):
            raise ConfigurationError(
                "need exact_search_max >= 0, index_timeout_s >= 1, transaction_timeout_s > 0,"
                " hnsw_m in [2, 512] and hnsw_ef_construction in [1, 3200]"
            )
        if vector_quantization not in QUANTIZATIONS:
            raise ConfigurationError(
                f"vector_quantization must be one of {', '.join(QUANTIZATIONS)},"
                f" got {vector_quantization!r}"
            )
        self._quantization = vector_quantization
        self._hnsw = {"hnsw_m": hnsw_m, "hnsw_ef_construction": hnsw_ef_construction}
        self._allow_no_auth = allow_no_auth
        self._index_timeout_s = index_timeout_s
        self._server: dict[str, str] = {}
        self._exec = Neo4jExecutor(
            uri,
            user=user,
            password=password,
            database=database,
            timeout_s=float(transaction_timeout_s),
        )
        self._dim = dim
        self._retrievers = Neo4jRetrievers(self._exec, dim=dim, exact_search_max=exact_search_max)
        self._writes = Neo4jWrites(self._exec, dim=dim, on_change=self._retrievers.forget_stats)
        self._maintenance = Neo4jMaintenance(self._exec)
        self._lookups = Neo4jLookups(self._exec)
        self._forgetting = Neo4jForgetting(
            self._exec, self._lookups, dim=dim, on_change=self._retrievers.forget_stats
        )

    @property
    def dim(self) -> int:
        """Embedding dimension of the store."""
        return self._dim

    @property
    def executor(self) -> Neo4jExecutor:
        """The statement seam every query of the store goes through (one per store)."""
        return self._exec

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
        return self._exec.driver

    @classmethod
    def from_settings(cls, settings: Settings) -> Neo4jStore:
        """A store configured by :class:`graphmem.settings.Settings` (``neo4j_uri`` must be set)."""
        if not settings.store.neo4j_uri:
            raise ConfigurationError("GRAPHMEM_NEO4J_URI is not set")
        password = settings.store.neo4j_password
        return cls(
            settings.store.neo4j_uri,
            user=settings.store.neo4j_user,
            password=None if password is None else password.get_secret_value(),
            database=settings.store.neo4j_database,
            dim=settings.embedding.embedding_dim,
            allow_no_auth=settings.store.neo4j_allow_no_auth,
            transaction_timeout_s=settings.store.neo4j_transaction_timeout_s,
            vector_quantization=settings.store.neo4j_vector_quantization,
            hnsw_m=settings.store.neo4j_vector_hnsw_m,
            hnsw_ef_construction=settings.store.neo4j_vector_hnsw_ef_construction,
        )

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
        if self._exec.is_open:
            return
        self._exec.connect()
        try:
            schema.check_auth(self._exec, allow_no_auth=self._allow_no_auth)
            self._server = schema.check_server(self._exec)
            schema.apply_schema(
                self._exec,
                dim=self._dim,
                quantization=self._quantization,
                hnsw=self._hnsw,
                index_timeout_s=self._index_timeout_s,
                version=self._server["version"],
            )
        except BaseException:
            self._exec.close()
            raise

    def close(self) -> None:
        """Close the driver. Idempotent."""
        self._exec.close()

    def health(self) -> StoreHealth:
        """Every index of the database with its state (``SHOW INDEXES``); a problem for
        each index the store needs that is missing."""
        states = self.index_states()
        indexes = tuple(
            IndexState(
                name,
                str(entry["state"]),
                f"{entry['type']} {entry['population_percent']:g}%",
            )
            for name, entry in sorted(states.items())
        )
        missing = [name for name in REQUIRED_INDEXES if name not in states]
        return StoreHealth(indexes, tuple(f"index {name} is missing" for name in missing))

    def server_info(self) -> ServerInfo:
        """The Bolt URI, the server's version and edition; details: ``address``,
        ``agent``, ``protocol_version``, ``database`` and ``cypher``, the statement dialect
        chosen for the version (``"cypher5"`` or ``"cypher25"``)."""
        self._exec.driver  # noqa: B018 - raises StoreUnavailableError when not open
        details = {k: v for k, v in self._server.items() if k not in ("version", "edition")}
        return ServerInfo(
            backend=self.name,
            location=self._exec.uri,
            version=self._server["version"],
            edition=self._server["edition"],
            details=details,
        )

    def index_states(self) -> dict[str, dict[str, Any]]:
        """Every index of the database by name: type, labels / types, properties, state,
        population percent and options."""
        return schema.index_states(self._exec)


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
