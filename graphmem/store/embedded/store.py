"""The embedded store: one SQLite file, numpy cosine, rank-bm25, networkx (docs/spec.md §6).

Persistence is a single SQLite file ``<path>/graphmem.sqlite`` in WAL mode;
every :meth:`EmbeddedStore.write` is one ``BEGIN IMMEDIATE`` transaction, so a
crash leaves no half-written memory. Lookups are SQL queries on indexed
columns. The retrievers that SQL cannot answer (cosine, BM25, traversal) use
per-namespace in-memory indexes (:mod:`graphmem.store.embedded._index`).

Cache invalidation: every write bumps a per-namespace counter in the
``namespace_versions`` table inside the write's transaction. Each read first
reads that counter (one primary-key lookup) and rebuilds an index only when it
differs from the version the index was built at, reading the counter and the
rows in one read transaction so the two agree. Writes by another connection
or process are therefore seen by the next read. Access updates that do not
change a memory's tier or retrievability leave the counter alone (indexes do not
hold them).

Threads: one write connection behind a lock; one read connection per thread
(WAL lets readers run beside the writer); index rebuilds are serialised by a
lock and the indexes are immutable once built.

The store is composed (:mod:`graphmem.store._composed`): one :class:`EmbeddedDb`
(the connections) shared by its role objects, writes
(:mod:`._writes`), maintenance (:mod:`._maintenance`), lookups and
retrievers (:mod:`._reads`).
"""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.errors import ConfigurationError
from graphmem.store._composed import ComposedStore
from graphmem.store.embedded._cache import IndexCache
from graphmem.store.embedded._db import EmbeddedDb
from graphmem.store.embedded._forget import EmbeddedForgetting
from graphmem.store.embedded._maintenance import EmbeddedMaintenance
from graphmem.store.embedded._reads import EmbeddedLookups, EmbeddedRetrievers
from graphmem.store.embedded._writes import EmbeddedWrites
from graphmem.store.records import ServerInfo, StoreHealth

if TYPE_CHECKING:
    from graphmem.settings import Settings

__all__ = ["EmbeddedStore"]


class EmbeddedStore(ComposedStore):
    """A :class:`graphmem.store.base.MemoryStore` in one local SQLite file.

    Parameters
    ----------
    path : pathlib.Path or str
        Directory of the store; created by :meth:`open`. The database is
        ``path / "graphmem.sqlite"``.
    dim : int
        Embedding dimension, ``>= 1``; writes and searches with another are
        rejected.
    bm25_k1, bm25_b : float
        BM25 parameters (``Settings.read.fusion.bm25_k1`` = 1.2, ``Settings.read.fusion.bm25_b`` = 0.75).

    Raises
    ------
    ConfigurationError
        If ``dim < 1`` or the BM25 parameters are out of range.

    Notes
    -----
    The constructor does no I/O; also a context manager (``with store:`` opens and
    closes it).
    """

    name = "embedded"

    def __init__(self, path: Path | str, *, dim: int, bm25_k1: float, bm25_b: float) -> None:
        if dim < 1:
            raise ConfigurationError(f"embedding dim must be >= 1, got {dim}")
        if not (math.isfinite(bm25_k1) and bm25_k1 > 0.0 and 0.0 <= bm25_b <= 1.0):
            raise ConfigurationError(
                f"need bm25_k1 > 0 and bm25_b in [0, 1], got {bm25_k1}, {bm25_b}"
            )
        self._db = EmbeddedDb(Path(path), dim)
        self._indexes = IndexCache(self._db.reader, dim=dim, k1=bm25_k1, b=bm25_b)
        self._writes = EmbeddedWrites(self._db)
        self._maintenance = EmbeddedMaintenance(self._db)
        self._lookups = EmbeddedLookups(self._db, self._indexes)
        self._retrievers = EmbeddedRetrievers(self._db, self._indexes)
        self._forgetting = EmbeddedForgetting(self._db)

    @property
    def dim(self) -> int:
        """Embedding dimension of the store."""
        return self._db.dim

    @property
    def db_path(self) -> Path:
        """Path of the SQLite file."""
        return self._db.db_path

    @classmethod
    def from_settings(cls, settings: Settings) -> EmbeddedStore:
        """A store configured by :class:`graphmem.settings.Settings` (``data_dir``,
        ``embedding_dim``, ``bm25_k1``, ``bm25_b``), as :meth:`Neo4jStore.from_settings`
        is for Neo4j."""
        return cls(
            settings.store.data_dir,
            dim=settings.embedding.embedding_dim,
            bm25_k1=settings.read.fusion.bm25_k1,
            bm25_b=settings.read.fusion.bm25_b,
        )

    # -- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        """Create the directory, the SQLite file and its tables. Idempotent.

        Raises
        ------
        StoreUnavailableError
            If the directory or the file cannot be created or opened (the path
            is a file, permission denied, not a SQLite database).
        ConfigurationError
            If the file was created with another embedding dimension.
        """
        self._db.open()

    def close(self) -> None:
        """Close every connection and drop the in-memory indexes. Idempotent."""
        self._db.close()
        self._indexes.clear()

    def health(self) -> StoreHealth:
        """SQLite's ``PRAGMA quick_check`` of the file: a problem for each line it reports
        other than ``ok``. No indexes are listed: the retrievers' indexes are built in
        memory, from the file, when first used."""
        rows = self._db.fetch("health", "PRAGMA quick_check")
        problems = tuple(f"{self.db_path}: {line}" for (line,) in rows if line != "ok")
        return StoreHealth(problems=problems)

    def server_info(self) -> ServerInfo:
        """The SQLite file, SQLite's library version, the embedding dimension and the
        journal mode."""
        (mode,) = self._db.fetch("server_info", "PRAGMA journal_mode")[0]
        return ServerInfo(
            backend=self.name,
            location=str(self.db_path),
            version=sqlite3.sqlite_version,
            edition="sqlite",
            details={"dim": str(self.dim), "journal_mode": str(mode)},
        )
