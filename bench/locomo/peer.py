"""The peer row: neo4j-graphrag's ``HybridRetriever`` on the same Neo4j, memories and embeddings.

What the peer does (neo4j-graphrag 1.x, ``retrievers/hybrid.py`` and
``neo4j_queries.py``): ``search(query_text, query_vector, top_k,
effective_search_ratio)`` runs ``db.index.vector.queryNodes(vector index,
top_k · effective_search_ratio, query_vector)`` and
``db.index.fulltext.queryNodes(fulltext index, query_text, {limit: top_k})``,
divides each list's scores by that list's maximum, keeps each node's larger
score (its default "naive" ranker) and returns ``ORDER BY score DESC,
elementId(node) LIMIT top_k``. Hybrid search takes no filters ("Filters are
not supported with hybrid search"), and its constructor reads the server
version and the vector index's label and property (I/O), and sets the
driver's user agent to its own (the bench shares the store's driver with it).

Same Neo4j, memories and embeddings: it searches graphmem's own indexes,
``memory_embedding`` (vector, the stored embeddings) and ``memory_content``
(fulltext), and gets the query vector from the bench's embedder.

**Namespaces.** Several conversations (and both corpora) share those two
indexes, and a question must be answered from its own conversation only. So:

- fulltext: the ``query_text`` it is given is the question as escaped Lucene
  terms inside the namespace clause graphmem's own BM25 retriever sends,
  ``ns_key:<key>^0 AND content:(<terms>)``; Lucene returns only the
  conversation's memories, with the same BM25 scores (the clause adds 0);
- vector: ``top_k`` is every memory in the database (``effective_search_ratio``
  1), so its vector list is exhaustive and no memory of the conversation is cut
  by the ``LIMIT``; the bench keeps the conversation's memories from its
  ranked output, in its order, and scores the first ``k``.

Its ranking of the conversation's memories is then its own, with one
difference from a database holding that conversation alone: the vector list
is divided by the best vector score over *all* namespaces (the fulltext list
by the conversation's own best). The report says so (``namespace_filter``).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any, Protocol, runtime_checkable

from graphmem.memory import GraphMem
from graphmem.store.base import Vector
from graphmem.store.lucene import lucene_escape, lucene_query

__all__ = ["HybridPeer", "PeerSearch", "open_peer"]

VECTOR_INDEX = "memory_embedding"
FULLTEXT_INDEX = "memory_content"
NAMESPACE_FILTER = (
    "fulltext: Lucene namespace clause (as graphmem's BM25); vector: exhaustive top_k, then "
    "the conversation's memories kept in the peer's order; the vector scores are normalised "
    "by the best score over all namespaces"
)


@runtime_checkable
class PeerSearch(Protocol):
    """A peer system the bench scores beside graphmem."""

    def start(self) -> None:
        """Called once the bench's memories are written, before the first search."""

    def search(self, namespace: str, text: str, vector: Vector, k: int) -> list[str]:
        """Memory ids of ``namespace``, best first, at most ``k``."""

    def describe(self) -> dict[str, Any]:
        """What the report says about the peer (name, version, how it was run)."""


class HybridPeer:
    """neo4j-graphrag's ``HybridRetriever`` over graphmem's indexes (module docstring).

    Parameters
    ----------
    memory : GraphMem
        An open facade on the Neo4j store.
    retriever : object
        A ``HybridRetriever`` (or anything with its ``search`` signature).
    """

    def __init__(self, memory: GraphMem, retriever: Any) -> None:
        self._memory = memory
        self._retriever = retriever
        self._top_k = 0

    def start(self) -> None:
        store = self._memory.store
        self._top_k = sum(store.count_memories(ns) for ns in store.namespaces())

    def search(self, namespace: str, text: str, vector: Vector, k: int) -> list[str]:
        escaped = lucene_escape(text)
        if not escaped or self._top_k < 1:
            return []
        result = self._retriever.search(
            query_text=lucene_query(namespace, escaped),
            query_vector=[float(x) for x in vector],
            top_k=self._top_k,
            effective_search_ratio=1,
        )
        ids: list[str] = []
        for item in result.items:
            node = item.metadata["node"]  # kept there by open_peer's result formatter
            if node.get("namespace") == namespace:
                ids.append(str(node["id"]))
                if len(ids) == k:
                    break
        return ids

    def describe(self) -> dict[str, Any]:
        return {
            "system": "neo4j_graphrag.retrievers.HybridRetriever (ranker naive)",
            "version": _version(),
            "indexes": [VECTOR_INDEX, FULLTEXT_INDEX],
            "namespace_filter": NAMESPACE_FILTER,
        }


def _version() -> str:
    try:
        return version("neo4j-graphrag")
    except PackageNotFoundError:
        return "unknown"


def open_peer(memory: GraphMem) -> HybridPeer | str:
    """The peer on ``memory``'s Neo4j store, or why it cannot run: not on Neo4j,
    or neo4j-graphrag not installed (``pip install 'graphmem[peer]'``)."""
    from graphmem.store.neo4j import Neo4jStore

    store = memory.store
    if not isinstance(store, Neo4jStore):
        return "needs --store neo4j (the peer searches Neo4j's indexes)"
    try:
        from neo4j_graphrag.retrievers import HybridRetriever
        from neo4j_graphrag.types import RetrieverResultItem
    except ImportError:
        return "neo4j-graphrag is not installed (pip install 'graphmem[peer]')"

    def keep_node(record: Any) -> Any:  # the returned properties, as a map in metadata
        node = record.get("node")
        return RetrieverResultItem(
            content=str(node.get("id")), metadata={"node": node, "score": record.get("score")}
        )

    memory.open()
    retriever = HybridRetriever(
        store.driver,  # the store's own connection pool
        vector_index_name=VECTOR_INDEX,
        fulltext_index_name=FULLTEXT_INDEX,
        return_properties=["id", "namespace"],
        result_formatter=keep_node,
    )
    return HybridPeer(memory, retriever)
