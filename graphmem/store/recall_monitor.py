"""Vector-index recall monitor (docs/spec.md §10): is the store's vector search losing neighbours?

The semantic retriever asks :meth:`MemoryStore.vector_search` for one query at a time;
on Neo4j that goes through an approximate (HNSW, quantised, filtered) index. This module
measures **recall@k** of exactly that path against exact cosine within the namespace:
for each query, the share of the exact top-``k`` (over the namespace's searchable
memories: current, retrievable, hot) that the store returned. A returned memory whose
exact cosine ties the ``k``-th exact one counts as found (ties are not misses).

Queries are a seeded sample of the namespace's own stored embeddings (docs/spec.md §10), or
vectors the caller gives (``python -m bench latency`` passes its query embeddings). The
exact side is computed here in numpy on every searchable vector of the namespace, read
once through :meth:`MemoryStore.scan_memories` (~40 MB of floats per 100k memories at
384 dimensions).

Used by ``graphmem doctor --index-recall`` and ``python -m bench latency``; the alert
threshold is ``Settings.guards.vector_recall_alert`` (0.95, docs/spec.md §8).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphmem.store.base import MemoryStore, memory_pages
from graphmem.store.checks import check_k

__all__ = ["NamespaceRecall", "exact_searchable", "index_recall", "recall_at_k"]

#: Memories read per page while collecting a namespace's vectors.
PAGE = 5_000
#: Score slack under which a returned memory ties the k-th exact neighbour (store scores are
#: rounded to 6 decimals).
TIE_EPS = 2e-6

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class NamespaceRecall:
    """Recall@k of one namespace's vector search.

    Attributes
    ----------
    namespace : str
    memories : int
        Searchable memories (current, retrievable, hot, with an embedding) in it.
    queries : int
        Queries measured (0 when the namespace has no searchable memory).
    k : int
    recall : float
        Mean recall@k over the queries, in [0, 1] (1.0 when nothing was measured).
    worst : float
        The lowest single-query recall.
    """

    namespace: str
    memories: int
    queries: int
    k: int
    recall: float
    worst: float

    def alert(self, threshold: float) -> bool:
        """Whether the measured recall is below ``threshold`` (never without queries)."""
        return self.queries > 0 and self.recall < threshold


def exact_searchable(
    store: MemoryStore, namespace: str
) -> tuple[list[str], npt.NDArray[np.float64]]:
    """Ids and unit vectors (rows) of the namespace's searchable memories: current,
    retrievable, hot, with a non-zero embedding — what the semantic retriever searches."""
    ids: list[str] = []
    rows: list[Sequence[float]] = []
    for page in memory_pages(store, namespace, PAGE, with_embeddings=True):
        for m in page:
            if m.embedding is None or not m.is_current or not m.retrievable or m.tier != "hot":
                continue
            ids.append(m.id)
            rows.append(m.embedding)
    if not rows:
        return [], np.zeros((0, 0))
    matrix = np.asarray(rows, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    keep = norms[:, 0] > 0
    unit = matrix[keep] / norms[keep]
    return [i for i, kept in zip(ids, keep, strict=True) if kept], unit


def recall_at_k(
    returned: Sequence[str], exact_scores: npt.NDArray[np.float64], ids: Sequence[str], k: int
) -> float:
    """Recall@k of ``returned`` ids against exact cosines ``exact_scores`` (aligned with
    ``ids``): found / min(k, len(ids)), a returned id tying the k-th exact score counts."""
    want = min(k, len(ids))
    if want == 0:
        return 1.0
    kth = float(np.partition(exact_scores, len(ids) - want)[len(ids) - want])
    position = {mid: j for j, mid in enumerate(ids)}
    found = sum(
        1
        for mid in dict.fromkeys(returned[:k])
        if mid in position and exact_scores[position[mid]] >= kth - TIE_EPS
    )
    return min(1.0, found / want)


def index_recall(
    store: MemoryStore,
    namespace: str,
    *,
    sample: int = 100,
    k: int = 10,
    search_k: int | None = None,
    queries: npt.NDArray[np.float32] | None = None,
    seed: int = 0,
    exact: tuple[list[str], npt.NDArray[np.float64]] | None = None,
) -> NamespaceRecall:
    """Recall@``k`` of ``store.vector_search`` (one query per call, default visibility, as
    the semantic retriever calls it) against exact cosine over the namespace: of its first
    ``k`` hits when asked for ``search_k``.

    Parameters
    ----------
    store : MemoryStore
        An open store.
    namespace : str
    sample : int
        How many stored embeddings to use as queries (seeded choice; all when fewer).
    k : int
        The cut (recall@10 by default, docs/spec.md §10).
    search_k : int, optional
        How many the store is asked for (default ``k``); the semantic retriever asks for
        ``Settings.read.fusion.candidate_k`` (50) and its top ``k`` are measured.
    queries : ndarray, optional
        (m, dim) query vectors to use instead of a sample of stored ones.
    seed : int
        Seed of the sample.
    exact : tuple, optional
        :func:`exact_searchable`'s result when the caller already read it.

    Raises
    ------
    InvalidInputError
        If ``sample < 1`` or ``k < 1`` (from the store for ``k``).
    """
    check_k(sample, field="sample")
    ids, unit = exact if exact is not None else exact_searchable(store, namespace)
    if not ids:
        return NamespaceRecall(namespace, 0, 0, k, 1.0, 1.0)
    recalls: list[float] = []
    for row in _probes(unit, sample, queries, seed):
        [hits] = store.vector_search(namespace, row[None, :].astype(np.float32), search_k or k)
        scores = unit @ row
        recalls.append(recall_at_k([h.memory_id for h in hits], scores, ids, k))
    if not recalls:
        return NamespaceRecall(namespace, len(ids), 0, k, 1.0, 1.0)
    return NamespaceRecall(
        namespace=namespace,
        memories=len(ids),
        queries=len(recalls),
        k=k,
        recall=round(float(np.mean(recalls)), 4),
        worst=round(float(np.min(recalls)), 4),
    )


def _probes(
    unit: npt.NDArray[np.float64],
    sample: int,
    queries: npt.NDArray[np.float32] | None,
    seed: int,
) -> npt.NDArray[np.float64]:
    """The query rows: ``queries`` normalised (zero rows dropped), else a seeded sample
    of ``sample`` stored unit vectors, in stored order."""
    if queries is None:
        rng = np.random.default_rng(seed)
        chosen = rng.choice(len(unit), size=min(sample, len(unit)), replace=False)
        return unit[np.sort(chosen)]
    probe = np.asarray(queries, dtype=np.float64)
    norms = np.linalg.norm(probe, axis=1, keepdims=True)
    kept: npt.NDArray[np.float64] = probe[norms[:, 0] > 0] / norms[norms[:, 0] > 0]
    return kept
