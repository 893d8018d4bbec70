"""Which of a recall's candidates may be returned (docs/spec.md §9.11): current ones
(unless history is asked for), retrievable ones or those the question targets
directly, of the requested types."""

from __future__ import annotations

from collections.abc import Mapping

from graphmem.models import RecallQuery
from graphmem.retrieval.rescoring.answer_type import ANSWER_TYPE
from graphmem.retrieval.retrievers import Hit
from graphmem.store.base import RankFields

__all__ = ["admissible", "direct_hits"]


def admissible(f: RankFields, query: RecallQuery, direct: set[str]) -> bool:
    """Whether a candidate may be returned: current (unless ``include_history``),
    retrievable or a direct hit (docs/spec.md §9.11), of a requested type when ``types`` is set."""
    if not query.include_history and not f.current:
        return False
    if not query.include_history and not f.retrievable and f.memory_id not in direct:
        return False  # docs/spec.md §9.11: out of broad context, reachable when targeted
    if query.types is not None:
        return f.type in query.types and not f.type_uncertain
    return True


def direct_hits(hits: Mapping[str, list[Hit]], depth: int) -> set[str]:
    """Ids a question targets directly (docs/spec.md §9.11): in the top ``depth`` of the semantic,
    BM25, entity or expected-answer-type list (graphmem.retrieval.rescoring.answer_type)."""
    lists = ("semantic", "bm25", "entity", ANSWER_TYPE)
    return {h.memory_id for n in lists for h in hits.get(n, [])[:depth] if not h.associative}
