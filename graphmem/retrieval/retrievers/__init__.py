"""The five retrievers (docs/spec.md §3), one per module."""

from collections.abc import Iterable
from typing import Any

from graphmem.retrieval.retrievers.base import Hit, RetrievalContext, Retriever
from graphmem.retrieval.retrievers.bm25 import BM25Retriever
from graphmem.retrieval.retrievers.entity import EntityRetriever
from graphmem.retrieval.retrievers.graph import GraphRetriever
from graphmem.retrieval.retrievers.semantic import SemanticRetriever
from graphmem.retrieval.retrievers.temporal import TemporalRetriever


def call_each(retrievers: Iterable[Retriever], method: str, *args: Any) -> None:
    """Call ``method`` (``close``, ``forget_namespace``: what a retriever keeps between
    recalls) with ``args`` on each of ``retrievers`` that has it."""
    for retriever in retrievers:
        found = getattr(retriever, method, None)
        if callable(found):
            found(*args)


def default_retrievers() -> tuple[Retriever, ...]:
    """New instances of the five retrievers, in docs/spec.md §3's order. Each recall pipeline
    makes its own (the graph retriever holds a thread pool and a per-namespace cache,
    which the pipeline's ``close`` stops): nothing is shared between facades."""
    return (
        SemanticRetriever(),
        BM25Retriever(),
        EntityRetriever(),
        TemporalRetriever(),
        GraphRetriever(),
    )


__all__ = [
    "BM25Retriever",
    "EntityRetriever",
    "GraphRetriever",
    "Hit",
    "RetrievalContext",
    "Retriever",
    "SemanticRetriever",
    "TemporalRetriever",
    "call_each",
    "default_retrievers",
]
