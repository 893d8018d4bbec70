"""A persistent cache of text embeddings, keyed by model name and text, shared by processes.

Recall's name masking (:mod:`graphmem.retrieval.rescoring.masking`) compares the question with
memory texts whose people's names are masked; those texts are the same for every
question about the same people, so their vectors are computed once — when memories
are written (:func:`graphmem.retrieval.rescoring.masking.warm_masked`) — and kept here, where
the next process finds them (docs/performance.md "Recall on real input").

One SQLite file (WAL, so readers never wait for a writer); a row is (model name,
sha256 of the text, float32 vector). The text itself is not stored. Any error of the
file (unwritable directory, a damaged file, a lock held too long) turns the cache off
for this process with one warning: recall then embeds what it needs, as without a
cache, and answers the same.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from graphmem.types import Vector

log = logging.getLogger("graphmem.embedding.cache")

#: The file name inside the cache directory.
FILE_NAME = "vector-cache.sqlite"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors ("
    " model TEXT NOT NULL, text_sha256 BLOB NOT NULL, vector BLOB NOT NULL,"
    " PRIMARY KEY (model, text_sha256)) WITHOUT ROWID"
)
_CHUNK = 500  # keys per SELECT ... IN (...): below SQLite's parameter limit


def text_key(text: str) -> bytes:
    """The key of ``text``: the sha256 of its UTF-8 bytes (32 bytes)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class VectorCache:
    """Vectors by (model, text) in a SQLite file (see the module docstring).

    Parameters
    ----------
    path : Path
        The SQLite file; its directory is created. Opened on first use.
    dim : int
        Vector dimension: a stored row of another length is ignored (a miss).
    """

    def __init__(self, path: Path, dim: int) -> None:
        self._path = path
        self._dim = dim
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._broken = False

    @property
    def path(self) -> Path:
        """The SQLite file."""
        return self._path

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self._path, timeout=5.0, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(_SCHEMA)
                db.commit()
                self._db = db
            except (OSError, sqlite3.Error) as exc:
                self._fail(exc)
        return self._db

    def _fail(self, exc: Exception) -> None:
        self._broken = True
        self._db = None
        log.warning(
            "vector cache %s is off for this process (%s); recall embeds what it needs",
            self._path,
            exc,
        )

    def get_many(self, model: str, texts: Iterable[str]) -> dict[str, Vector]:
        """The cached vectors of ``texts`` under ``model`` (text → (dim,) float32 vector;
        texts not cached are absent)."""
        keys = {text_key(t): t for t in dict.fromkeys(texts)}
        found: dict[str, Vector] = {}
        with self._lock:
            db = self._connect()
            if db is None or not keys:
                return found
            listed = list(keys)
            try:
                for start in range(0, len(listed), _CHUNK):
                    chunk = listed[start : start + _CHUNK]
                    marks = ",".join("?" * len(chunk))
                    rows = db.execute(
                        "SELECT text_sha256, vector FROM vectors WHERE model = ? AND"
                        f" text_sha256 IN ({marks})",
                        (model, *chunk),
                    ).fetchall()
                    for key, blob in rows:
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (self._dim,):
                            found[keys[bytes(key)]] = vector
            except sqlite3.Error as exc:
                self._fail(exc)
        return found

    def put_many(self, model: str, texts: Sequence[str], vectors: Vector) -> None:
        """Store ``vectors[i]`` as the vector of ``texts[i]`` under ``model`` (one
        transaction; a row already there is kept: it is the same vector)."""
        rows = [
            (model, text_key(t), np.asarray(v, dtype="<f4").tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        self._write_many("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)", rows)

    def delete_many(self, model: str, texts: Sequence[str]) -> None:
        """Remove the vectors of ``texts`` under ``model`` (forgetting, docs/spec.md §9.16: no
        vector of a forgotten text stays; a text still needed is embedded again)."""
        keys = [(model, text_key(t)) for t in dict.fromkeys(texts)]
        self._write_many("DELETE FROM vectors WHERE model = ? AND text_sha256 = ?", keys)

    def _write_many(self, statement: str, rows: Sequence[tuple[object, ...]]) -> None:
        """Run ``statement`` once per row of ``rows`` in one transaction (nothing when the
        cache is off or there are no rows); a database error turns the cache off."""
        with self._lock:
            db = self._connect()
            if db is None or not rows:
                return
            try:
                with db:
                    db.executemany(statement, rows)
            except sqlite3.Error as exc:
                self._fail(exc)

    def close(self) -> None:
        """Close the file (reopened on next use)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
