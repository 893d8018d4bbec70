"""The five retrievers (SPEC §3), one per module."""

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext, Retriever
from graphmem.retrieval.retrievers.bm25 import BM25Retriever
from graphmem.retrieval.retrievers.entity import EntityRetriever
from graphmem.retrieval.retrievers.graph import GraphRetriever
from graphmem.retrieval.retrievers.semantic import SemanticRetriever
from graphmem.retrieval.retrievers.temporal import TemporalRetriever

DEFAULT_RETRIEVERS: tuple[Retriever, ...] = (
    SemanticRetriever(),
    BM25Retriever(),
    EntityRetriever(),
    TemporalRetriever(),
    GraphRetriever(),
)

__all__ = [
    "DEFAULT_RETRIEVERS",
    "BM25Retriever",
    "EntityRetriever",
    "GraphRetriever",
    "Hit",
    "RetrievalContext",
    "Retriever",
    "SemanticRetriever",
    "TemporalRetriever",
]
