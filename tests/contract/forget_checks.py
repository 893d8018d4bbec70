"""Where forgotten text could hide, looked for on each store (SPEC §9.16): every row of
every table of the embedded store's SQLite file and the file's raw bytes (free pages
and the WAL too); every node and relationship property of the namespace on Neo4j,
and the fulltext and vector indexes."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from graphmem.store.base import MemoryStore

_NODES = """
MATCH (n) WHERE n.namespace = $namespace
UNWIND keys(n) AS key
WITH n[key] AS value
WHERE (value IS :: STRING AND value CONTAINS $text)
   OR (value IS :: LIST<STRING> AND any(x IN value WHERE x CONTAINS $text))
RETURN count(*) AS hits
"""
_RELATIONSHIPS = """
MATCH (a)-[r]->(b) WHERE a.namespace = $namespace OR b.namespace = $namespace
UNWIND keys(r) AS key
WITH r[key] AS value
WHERE (value IS :: STRING AND value CONTAINS $text)
   OR (value IS :: LIST<STRING> AND any(x IN value WHERE x CONTAINS $text))
RETURN count(*) AS hits
"""
_FULLTEXT = """
CALL db.index.fulltext.queryNodes('memory_content', $query) YIELD node
WHERE node.namespace = $namespace
RETURN collect(node.id) AS ids
"""
_VECTOR = """
CALL db.index.vector.queryNodes('memory_embedding', 100, $vector) YIELD node
WHERE node.namespace = $namespace
RETURN collect(node.id) AS ids
"""


def _run(store: MemoryStore, statement: str, **params: Any) -> dict[str, Any]:
    records, _, _ = store.driver.execute_query(statement, params)  # type: ignore[attr-defined]
    return dict(records[0])


def stored_hits(store: MemoryStore, namespace: str, texts: Iterable[str]) -> list[str]:
    """Each of ``texts`` that some stored row, node, relationship or byte still holds."""
    found: list[str] = []
    if store.name == "embedded":
        path = Path(store.db_path)  # type: ignore[attr-defined]
        conn = sqlite3.connect(path)
        try:
            tables = [
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            rows = [str(row) for t in tables for row in conn.execute(f"SELECT * FROM {t}")]
        finally:
            conn.close()
        raw = b"".join(
            p.read_bytes() for p in (path, path.with_name(path.name + "-wal")) if p.exists()
        )
        for text in texts:
            if any(text in row for row in rows) or text.encode() in raw:
                found.append(text)
        return found
    for text in texts:
        nodes = _run(store, _NODES, namespace=namespace, text=text)["hits"]
        relationships = _run(store, _RELATIONSHIPS, namespace=namespace, text=text)["hits"]
        if nodes or relationships:
            found.append(text)
    return found


def index_hits(
    store: MemoryStore, namespace: str, words: Sequence[str], vectors: Sequence[Sequence[float]]
) -> set[str]:
    """Neo4j: the memory ids the fulltext index returns for ``words`` and the vector
    index for ``vectors`` in ``namespace`` (empty on the embedded store, whose indexes
    are rebuilt from the rows checked by :func:`stored_hits`)."""
    if store.name == "embedded":
        return set()
    ids: set[str] = set()
    for word in words:
        ids.update(_run(store, _FULLTEXT, query=word, namespace=namespace)["ids"])
    for vector in vectors:
        ids.update(
            _run(store, _VECTOR, vector=[float(x) for x in vector], namespace=namespace)["ids"]
        )
    return ids
