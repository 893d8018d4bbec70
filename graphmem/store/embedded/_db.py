"""The embedded store's query executor: its SQLite connections (see :mod:`.embedded`).

One write connection behind a lock, in which every write runs as one
``BEGIN IMMEDIATE`` transaction; one read connection per thread (WAL lets readers
run beside the writer). Every SQLite error leaves as :class:`StoreError` naming the
operation. The role objects of :class:`~graphmem.store.embedded.EmbeddedStore`
share one :class:`EmbeddedDb`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tenacity import (
    Retrying,
    retry_if_exception,
    stop_after_delay,
    wait_random_exponential,
)

from graphmem.errors import ConfigurationError, StoreError, StoreUnavailableError
from graphmem.models import Memory
from graphmem.store.embedded import _sql as sql

_BUSY_TIMEOUT_S = 30.0  # wait this long for another writer's lock
_NOT_OPEN = "the embedded store is not open; call open() first"


class EmbeddedDb:
    """The SQLite file ``path / graphmem.sqlite`` of embeddings of dimension ``dim``."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path = path
        self.dim = dim
        self._writer: sqlite3.Connection | None = None
        self._write_lock = threading.Lock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._generation = 0

    @property
    def db_path(self) -> Path:
        """Path of the SQLite file."""
        return self.path / sql.DB_FILE

    @property
    def is_open(self) -> bool:
        return self._writer is not None

    def open(self) -> None:
        """Create the directory, the file and its tables (idempotent); the errors are
        :meth:`graphmem.store.embedded.EmbeddedStore.open`'s."""
        if self._writer is not None:
            return
        self._make_directory()
        try:
            conn, stored_dim = self._create()
        except sqlite3.Error as exc:
            raise StoreUnavailableError(
                f"cannot open the embedded store file {self.db_path} ({exc}); check that it is a"
                " writable graphmem SQLite file, or set GRAPHMEM_DATA_DIR to another directory"
            ) from exc
        if stored_dim != self.dim:
            conn.close()
            raise ConfigurationError(
                f"{self.db_path} holds {stored_dim}-dimensional embeddings but the store was"
                f" configured with dim={self.dim}; use the same embedding model or another"
                " GRAPHMEM_DATA_DIR"
            )
        self._writer = conn

    def close(self) -> None:
        """Close every connection. Idempotent."""
        with self._write_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
            self._generation += 1

    def reader(self) -> sqlite3.Connection:
        """This thread's read connection (opened on first use)."""
        if self._writer is None:
            raise StoreUnavailableError(_NOT_OPEN)
        local = self._local
        if getattr(local, "generation", None) != self._generation:
            conn = self._connect()
            conn.execute("PRAGMA query_only = ON")
            with self._readers_lock:
                self._readers.append(conn)
            local.conn, local.generation = conn, self._generation
        reader: sqlite3.Connection = local.conn
        return reader

    @contextmanager
    def transaction(self, query: str) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` on the write connection; rollback on any error."""
        with self._write_lock:
            conn = self._writer
            if conn is None:
                raise StoreUnavailableError(_NOT_OPEN)
            with self.errors(query):
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise

    def scrub(self) -> None:
        """After a forget: secure deletion off again on the write connection, and the WAL
        checkpointed into the file and truncated, so neither the file's free pages nor
        the WAL keep a copy of what was forgotten (best effort: a reader still on an old
        snapshot keeps those WAL frames until the next checkpoint)."""
        with self._write_lock:
            conn = self._writer
            if conn is None:
                raise StoreUnavailableError(_NOT_OPEN)
            with self.errors("forget"):
                conn.execute("PRAGMA secure_delete = OFF")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    @contextmanager
    def errors(self, query: str) -> Iterator[None]:
        """Translate SQLite errors into :class:`StoreError` naming the operation."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"embedded store failed: {exc}", query=query) from exc

    def fetch(
        self, query: str, statement: str, params: Sequence[Any] | Mapping[str, Any] = ()
    ) -> list[Any]:
        """Every row of a read ``statement`` on this thread's read connection."""
        with self.errors(query):
            return self.reader().execute(statement, params).fetchall()

    def select(
        self, namespace: str, where: str, params: Sequence[Any], embeddings: bool, query: str
    ) -> list[Memory]:
        """Memories of ``namespace`` matching ``where``, by id."""
        rows = self.fetch(
            query,
            f"SELECT {sql.MEMORY_COLUMNS} FROM memories WHERE namespace = ? AND {where} ORDER BY id",
            (namespace, *params),
        )
        return [sql.memory_from_row(body, blob, with_embedding=embeddings) for body, blob in rows]

    def _create(self) -> tuple[sqlite3.Connection, int]:
        """Connect, switch to WAL and create the tables; returns the connection and the
        stored embedding dimension. Processes opening one new file at once race on the
        journal-mode switch, where SQLite answers "database is locked" without waiting
        on the busy timeout, so a locked or busy open is tried again for up to
        ``_BUSY_TIMEOUT_S`` with jittered backoff (tenacity)."""
        for attempt in Retrying(
            retry=retry_if_exception(_is_locked),
            stop=stop_after_delay(_BUSY_TIMEOUT_S),
            wait=wait_random_exponential(multiplier=0.02, max=1.0),
            reraise=True,
        ):
            with attempt:
                conn = self._connect()
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                    stored_dim = sql.create_schema(conn, self.dim)
                except BaseException:
                    conn.close()
                    raise
        return conn, stored_dim

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(
            self.db_path, timeout=_BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )

    def _make_directory(self) -> None:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as exc:
            raise StoreUnavailableError(
                f"cannot create the embedded store directory {self.path}: a file is in the way;"
                " set GRAPHMEM_DATA_DIR to a directory path"
            ) from exc
        except OSError as exc:
            raise StoreUnavailableError(
                f"cannot create the embedded store directory {self.path} ({exc.strerror});"
                " set GRAPHMEM_DATA_DIR to a writable directory"
            ) from exc


def _is_locked(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite's "database is locked" / "database is busy"."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
