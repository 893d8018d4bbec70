"""SQLite schema and row codecs of the embedded store.

One row per memory, keyed ``(namespace, id)``: the :class:`Memory` as JSON
without its embedding (``body``), the embedding as a little-endian float32
BLOB, and the columns the queries filter on. The time anchor is stored as
integer microseconds since the Unix epoch (UTC) so window bounds compare
exactly. ``namespace_versions`` holds one counter per namespace that every
write bumps; readers compare it to rebuild their in-memory indexes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.models import Entity, Memory, Relation
from graphmem.store.records import micros

SCHEMA_VERSION = "1"
DB_FILE = "graphmem.sqlite"
CHUNK = 500  # bound on "IN (?, ?, ...)" parameters per statement

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS namespace_versions (
    namespace TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS memories (
    namespace TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL,
    content TEXT NOT NULL, content_hash TEXT NOT NULL, subject TEXT, predicate TEXT,
    superseded_by TEXT, tier TEXT NOT NULL, retrievable INTEGER NOT NULL,
    time_anchor INTEGER NOT NULL, embedding BLOB, body TEXT NOT NULL,
    PRIMARY KEY (namespace, id));
CREATE INDEX IF NOT EXISTS memories_hash ON memories (namespace, content_hash);
CREATE INDEX IF NOT EXISTS memories_triple ON memories (namespace, subject, predicate);
CREATE INDEX IF NOT EXISTS memories_time ON memories (namespace, time_anchor);
CREATE TABLE IF NOT EXISTS mentions (
    namespace TEXT NOT NULL, memory_id TEXT NOT NULL, entity_id TEXT NOT NULL,
    role TEXT NOT NULL, PRIMARY KEY (namespace, memory_id, entity_id, role));
CREATE INDEX IF NOT EXISTS mentions_entity ON mentions (namespace, entity_id);
CREATE TABLE IF NOT EXISTS memory_sessions (
    namespace TEXT NOT NULL, memory_id TEXT NOT NULL, session_id TEXT NOT NULL,
    PRIMARY KEY (namespace, memory_id, session_id));
CREATE INDEX IF NOT EXISTS memory_sessions_session ON memory_sessions (namespace, session_id);
CREATE TABLE IF NOT EXISTS entities (
    namespace TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (namespace, id));
CREATE TABLE IF NOT EXISTS relations (
    namespace TEXT NOT NULL, id TEXT NOT NULL, source_id TEXT NOT NULL,
    target_id TEXT NOT NULL, predicate TEXT NOT NULL, confidence REAL NOT NULL,
    memory_id TEXT NOT NULL, valid_until INTEGER, body TEXT NOT NULL,
    PRIMARY KEY (namespace, id));
CREATE INDEX IF NOT EXISTS relations_memory ON relations (namespace, memory_id);
CREATE TABLE IF NOT EXISTS associations (
    namespace TEXT NOT NULL, source_id TEXT NOT NULL, target_id TEXT NOT NULL,
    similarity REAL NOT NULL, PRIMARY KEY (namespace, source_id, target_id));
CREATE INDEX IF NOT EXISTS associations_target ON associations (namespace, target_id);
CREATE TABLE IF NOT EXISTS deletion_log (
    namespace TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL, command TEXT NOT NULL,
    counts TEXT NOT NULL, keys TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS deletion_log_namespace ON deletion_log (namespace, at);
"""

MEMORY_COLUMNS = "body, embedding"
UPSERT_MEMORY = (
    "INSERT OR REPLACE INTO memories (namespace, id, type, content, content_hash, subject,"
    " predicate, superseded_by, tier, retrievable, time_anchor, embedding, body)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
UPSERT_ENTITY = "INSERT OR REPLACE INTO entities (namespace, id, body) VALUES (?, ?, ?)"
UPSERT_RELATION = (
    "INSERT OR REPLACE INTO relations (namespace, id, source_id, target_id, predicate,"
    " confidence, memory_id, valid_until, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_MENTION = (
    "INSERT OR IGNORE INTO mentions (namespace, memory_id, entity_id, role) VALUES (?, ?, ?, ?)"
)
INSERT_SESSION = (
    "INSERT OR IGNORE INTO memory_sessions (namespace, memory_id, session_id) VALUES (?, ?, ?)"
)
DELETE_MEMORY_LINKS = (
    "DELETE FROM mentions WHERE namespace = ? AND memory_id = ?",
    "DELETE FROM memory_sessions WHERE namespace = ? AND memory_id = ?",
)
DELETE_MEMORY = (
    *DELETE_MEMORY_LINKS,
    "DELETE FROM relations WHERE namespace = ? AND memory_id = ?",
    "DELETE FROM associations WHERE namespace = ? AND source_id = ?",
    "DELETE FROM associations WHERE namespace = ? AND target_id = ?",
    "DELETE FROM memories WHERE namespace = ? AND id = ?",
)
PRUNE_ENTITY = (
    "DELETE FROM entities WHERE namespace = ?1 AND id = ?2"
    " AND NOT EXISTS (SELECT 1 FROM mentions WHERE namespace = ?1 AND entity_id = ?2)"
    " AND NOT EXISTS (SELECT 1 FROM relations WHERE namespace = ?1"
    " AND (source_id = ?2 OR target_id = ?2))"
)
NAMESPACE_TABLES = (
    "mentions",
    "memory_sessions",
    "relations",
    "associations",
    "entities",
    "memories",
)
BUMP_VERSION = (
    "INSERT INTO namespace_versions (namespace, version) VALUES (?, 1)"
    " ON CONFLICT (namespace) DO UPDATE SET version = version + 1"
)
STATS = """
SELECT
  (SELECT count(*) FROM memories WHERE namespace = :ns),
  (SELECT count(*) FROM memories WHERE namespace = :ns AND superseded_by IS NULL),
  (SELECT count(*) FROM memories WHERE namespace = :ns AND superseded_by IS NOT NULL),
  (SELECT count(*) FROM memories WHERE namespace = :ns AND tier = 'cold'),
  (SELECT count(*) FROM memories WHERE namespace = :ns AND retrievable = 0),
  (SELECT count(*) FROM entities WHERE namespace = :ns),
  (SELECT count(*) FROM relations WHERE namespace = :ns),
  (SELECT count(DISTINCT session_id) FROM memory_sessions WHERE namespace = :ns
   AND session_id NOT IN ('confirmation', 'correction'))
"""
STATS_KEYS = (
    "memories",
    "current",
    "superseded",
    "cold",
    "unretrievable",
    "entities",
    "relations",
    "sessions",
)
# Filter of the default (not include_history) retrievers: current and retrievable.
VISIBLE = "m.superseded_by IS NULL AND m.retrievable = 1"


def encode_embedding(values: Sequence[float] | None) -> bytes | None:
    """Little-endian float32 bytes of an embedding (``None`` stays ``None``)."""
    if values is None:
        return None
    return np.asarray(values, dtype="<f4").tobytes()


def decode_embedding(blob: bytes) -> npt.NDArray[np.float32]:
    """The float32 vector of a stored BLOB."""
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def memory_row(namespace: str, memory: Memory) -> tuple[Any, ...]:
    """Parameters of :data:`UPSERT_MEMORY` for ``memory``."""
    return (
        namespace,
        memory.id,
        memory.type,
        memory.content,
        memory.content_hash,
        memory.subject,
        memory.predicate,
        memory.superseded_by,
        memory.tier,
        int(memory.retrievable),
        micros(memory.time_anchor),
        encode_embedding(memory.embedding),
        memory.model_dump_json(exclude={"embedding"}),
    )


def memory_from_row(body: str, blob: bytes | None, *, with_embedding: bool) -> Memory:
    """The :class:`Memory` of a ``(body, embedding)`` row."""
    memory = Memory.model_validate_json(body)
    if with_embedding and blob is not None:
        memory = memory.model_copy(update={"embedding": tuple(decode_embedding(blob).tolist())})
    return memory


def relation_row(namespace: str, relation: Relation) -> tuple[Any, ...]:
    """Parameters of :data:`UPSERT_RELATION` for ``relation``."""
    until = None if relation.valid_until is None else micros(relation.valid_until)
    return (
        namespace,
        relation.id,
        relation.source_id,
        relation.target_id,
        relation.predicate,
        relation.confidence,
        relation.memory_id,
        until,
        relation.model_dump_json(),
    )


def entity_row(namespace: str, entity: Entity) -> tuple[Any, ...]:
    """Parameters of :data:`UPSERT_ENTITY` for ``entity``."""
    return (namespace, entity.id, entity.model_dump_json())


def chunks(values: Sequence[str]) -> Iterator[list[str]]:
    """Distinct ``values`` in slices of at most :data:`CHUNK`."""
    distinct = list(dict.fromkeys(values))
    for start in range(0, len(distinct), CHUNK):
        yield distinct[start : start + CHUNK]


def placeholders(count: int) -> str:
    """``"?, ?, ..."`` with ``count`` marks."""
    return ", ".join("?" * count)


def create_schema(conn: sqlite3.Connection, dim: int) -> int:
    """Create the tables (idempotent) and return the stored embedding dimension."""
    conn.executescript(SCHEMA)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('dim', ?)", (json.dumps(dim),))
        stored = conn.execute("SELECT value FROM meta WHERE key = 'dim'").fetchone()[0]
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return int(json.loads(stored))
