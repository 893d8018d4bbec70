"""The rows timed beside graphmem's recall in ``bench latency`` (docs/benchmarks.md
"Speed and scale", at scale), each query right after graphmem's, so that every row sees the
same load.

JSON keys (docs/performance.md):

- ``peer``: the peer doing graphmem's job, neo4j-graphrag's ``VectorRetriever`` with the
  namespace filter, on its in-index path: graphmem's vector index declares
  ``namespace`` (``WITH [m.namespace, ...]``) as its own
  ``create_vector_index(filterable_properties=...)`` would, but Neo4j 2026.08 lists those
  properties under ``properties``, not the ``vector.filterable_properties`` option that
  neo4j-graphrag 1.22 reads, so it is told what the index declares.
- ``peer_as_shipped``: the same retriever as installed: it finds no filterable property,
  warns, and falls back to a procedure-based search with the filter applied after.
- ``peer_hybrid``: its ``HybridRetriever`` (vector + fulltext, top 10), for reference: it
  cannot filter ("Filters are not supported with hybrid search"), so with more than one
  namespace it returns other tenants' memories.
- A peer's query that the server rejects is counted under ``errors`` (its time is still
  in the row's percentiles).
- ``floor``: graphmem's own: the query embedding plus one in-index filtered vector search
  (``MemoryStore.vector_search``, top 10): the least any recall can cost on the store.

The peers need Neo4j and the ``peer`` extra (``pip install 'graphmem[peer]'``); the floor
runs on every store. All rows embed the query with graphmem's embedder.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

from graphmem.memory import GraphMem

Search = Callable[[str], object]


@dataclass
class Rows:
    """The rows to time (JSON key → search of one query text) and what each one is (JSON
    key → ``retriever``, ``version``, or ``skipped`` with the reason)."""

    searches: dict[str, Search] = field(default_factory=dict)
    info: dict[str, dict[str, Any]] = field(default_factory=dict)


def floor_search(memory: GraphMem, namespace: str) -> Search:
    """The floor: embed the query, then one vector search of ``namespace`` (top 10)."""
    embedder = memory.embedder
    store = memory.store

    def search(text: str) -> object:
        return store.vector_search(namespace, embedder.embed([text]), 10)

    return search


def bench_rows(memory: GraphMem, namespace: str, *, peers: bool) -> Rows:
    """The floor, and with ``peers`` the three peer rows (or why they are skipped)."""
    rows = Rows()
    rows.searches["floor"] = floor_search(memory, namespace)
    rows.info["floor"] = {
        "retriever": "query embedding + MemoryStore.vector_search (in-index namespace filter)"
    }
    if not peers:
        return rows
    why = _why_no_peer(memory)
    if why is not None:
        for key in ("peer", "peer_as_shipped", "peer_hybrid"):
            rows.info[key] = {"skipped": why}
        return rows
    made = _peer_searches(memory, namespace)
    for key, (search, info) in made.items():
        rows.searches[key] = _counting_errors(search, info)
        rows.info[key] = info
    return rows


def _counting_errors(search: Search, info: dict[str, Any]) -> Search:
    """``search`` that counts a server error in ``info["errors"]`` instead of raising:
    the HybridRetriever hands the question to Lucene's query parser unescaped, so a
    question with "/" or an unmatched quote fails on the server (neo4j-graphrag 1.22)."""
    from neo4j.exceptions import ClientError

    def guarded(text: str) -> object:
        try:
            return search(text)
        except ClientError:
            info["errors"] = info.get("errors", 0) + 1
            return None

    return guarded


def _why_no_peer(memory: GraphMem) -> str | None:
    if memory.store.name != "neo4j":
        return "the peer runs on Neo4j only"
    try:
        import neo4j_graphrag  # noqa: F401
    except ImportError:
        return "neo4j-graphrag is not installed (pip install 'graphmem[peer]')"
    return None


#: What graphmem's vector index declares (cypher/cypher25/schema/010_memory_embedding.cypher).
INDEX_LABEL, INDEX_PROPERTY = "Memory", "embedding"
INDEX_FILTERABLE = ["namespace", "tier", "retrievable", "superseded_by", "time_anchor"]


def _retrievers(memory: GraphMem) -> tuple[Any, Any, Any]:
    """neo4j-graphrag's retrievers on graphmem's Neo4j store: the filtered vector one told
    what the index declares, the same as shipped, and the hybrid one."""
    from neo4j_graphrag.embeddings.base import Embedder as PeerEmbedder
    from neo4j_graphrag.retrievers import HybridRetriever, VectorRetriever

    from graphmem.store.neo4j import Neo4jStore

    store = memory.store
    assert isinstance(store, Neo4jStore)
    ours = memory.embedder
    dim = memory.settings.embedding.embedding_dim

    class _Embedder(PeerEmbedder):  # type: ignore[misc,unused-ignore]  # Any without the extra
        def embed_query(self, text: str) -> list[float]:
            vector: list[float] = ours.embed([text])[0].tolist()
            return vector

    class _Declared(VectorRetriever):  # type: ignore[misc,unused-ignore]
        """Reads graphmem's index as a server that reports the filterable properties
        would show it (see the module docstring): the in-index path."""

        def _fetch_index_infos(self, vector_index_name: str) -> None:
            self._node_label = INDEX_LABEL
            self._embedding_node_property = INDEX_PROPERTY
            self._embedding_dimension = dim
            self._filterable_properties = list(INDEX_FILTERABLE)

    returned = ["id", "content"]
    index = "memory_embedding"
    return (
        _Declared(store.driver, index, embedder=_Embedder(), return_properties=returned),
        VectorRetriever(store.driver, index, embedder=_Embedder(), return_properties=returned),
        HybridRetriever(
            store.driver,
            vector_index_name=index,
            fulltext_index_name="memory_content",
            embedder=_Embedder(),
            return_properties=returned,
        ),
    )


def _peer_searches(memory: GraphMem, namespace: str) -> dict[str, tuple[Search, dict[str, Any]]]:
    # as shipped it warns on every search that the filter is not declared: said once here
    logging.getLogger("neo4j_graphrag").setLevel(logging.ERROR)
    in_index, shipped, hybrid = _retrievers(memory)
    release = version("neo4j-graphrag")
    where = {"namespace": namespace}
    vector_name = "neo4j_graphrag.retrievers.VectorRetriever"
    return {
        "peer": (
            lambda text: in_index.search(query_text=text, top_k=10, filters=where),
            {"retriever": f"{vector_name} (namespace filter, in-index)", "version": release},
        ),
        "peer_as_shipped": (
            lambda text: shipped.search(query_text=text, top_k=10, filters=where),
            {
                "retriever": f"{vector_name} (namespace filter, as shipped: procedure fallback)",
                "version": release,
            },
        ),
        "peer_hybrid": (
            lambda text: hybrid.search(query_text=text, top_k=10),
            {
                "retriever": "neo4j_graphrag.retrievers.HybridRetriever (no namespace filter)",
                "version": release,
            },
        ),
    }
