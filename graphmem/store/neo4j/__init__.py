"""The Neo4j backend: :class:`Neo4jStore` (in :mod:`graphmem.store.neo4j.store`) and the
private parts it is composed of (``docs/store.md``, "How a backend is put together")."""

from graphmem.store.neo4j.store import QUERY_PARAMS, Neo4jStore

__all__ = ["QUERY_PARAMS", "Neo4jStore"]
