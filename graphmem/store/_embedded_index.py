"""In-memory read indexes of the embedded store, one set per namespace.

Each index is built from one consistent SQLite snapshot, is immutable after
construction (so concurrent readers share it without locks) and is replaced
whole when the namespace's version changes. Rows are kept in memory-id order,
so a stable sort on the score breaks ties by id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import numpy.typing as npt

from graphmem.models import Relation
from graphmem.store._bm25 import BM25Index
from graphmem.store.base import ScoredId

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IndexArray = npt.NDArray[np.intp]

# Cosines are rounded before ranking so that 1-ulp BLAS differences between
# identical vectors cannot beat the id tie-break.
COSINE_DECIMALS = 6


def top_k(scores: FloatArray, k: int) -> IndexArray:
    """Rows of the ``k`` highest finite scores, by score desc then row asc.

    Parameters
    ----------
    scores : numpy.ndarray of float64, shape (n,)
        ``-inf`` marks rows that must not be returned.
    k : int
        How many rows at most, ``>= 1``.

    Returns
    -------
    numpy.ndarray of intp, shape (<= k,)
    """
    rows = np.flatnonzero(np.isfinite(scores))
    if rows.size > k:  # keep every row tied with the k-th score, then sort
        values = scores[rows]
        kth = values[np.argpartition(values, rows.size - k)[rows.size - k]]
        rows = rows[values >= kth]
    order = np.lexsort((rows, -scores[rows]))
    return rows[order][:k]


@dataclass(frozen=True, slots=True)
class Flags:
    """Per-row visibility flags, aligned with an index's ``ids``."""

    current: BoolArray
    retrievable: BoolArray
    hot: BoolArray

    def allowed(self, *, include_history: bool, include_cold: bool) -> BoolArray:
        """Rows a retriever may return under these options (SPEC §3, §4)."""
        mask = np.ones(self.current.shape, dtype=np.bool_)
        if not include_history:
            mask &= self.current & self.retrievable
        if not include_cold:
            mask &= self.hot
        return mask


class VectorIndex:
    """Exact cosine search over the L2-normalised embeddings of a namespace.

    Parameters
    ----------
    ids : sequence of str
        Memory ids in ascending order (memories without an embedding left out).
    matrix : numpy.ndarray of float32, shape (n, dim)
        One embedding per id; rows are normalised here (zero rows stay zero).
    flags : Flags
        Visibility of each row.
    """

    def __init__(self, ids: Sequence[str], matrix: npt.NDArray[np.float32], flags: Flags) -> None:
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self.ids = tuple(ids)
        self.row = {memory_id: i for i, memory_id in enumerate(self.ids)}
        self.matrix = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
        self.flags = flags

    def search(
        self, queries: npt.NDArray[np.float32], k: int, *, include_history: bool, include_cold: bool
    ) -> list[list[ScoredId]]:
        """Top-``k`` rows by cosine for each row of ``queries`` (shape (m, dim), normalised)."""
        if not self.ids:
            return [[] for _ in range(queries.shape[0])]
        allowed = self.flags.allowed(include_history=include_history, include_cold=include_cold)
        cosines = np.round((self.matrix @ queries.T).astype(np.float64), COSINE_DECIMALS)
        results: list[list[ScoredId]] = []
        for column in range(queries.shape[0]):
            scores = np.where(allowed, cosines[:, column], -np.inf)
            rows = top_k(scores, k)
            results.append([ScoredId(self.ids[r], float(scores[r])) for r in rows])
        return results

    def similarities(
        self, ids: Sequence[str], query: npt.NDArray[np.float32] | None
    ) -> dict[str, float]:
        """Cosine of each of ``ids`` to ``query`` (0.0 without a query or an embedding)."""
        if query is None:
            return dict.fromkeys(ids, 0.0)
        rows = [self.row[i] for i in ids if i in self.row]
        sims = np.round((self.matrix[rows] @ query).astype(np.float64), COSINE_DECIMALS)
        found = {self.ids[r]: float(s) for r, s in zip(rows, sims, strict=True)}
        return {i: found.get(i, 0.0) for i in ids}


class TextIndex:
    """BM25 over the content of every memory of a namespace (SPEC §3).

    Parameters
    ----------
    ids : sequence of str
        Memory ids in ascending order.
    documents : sequence of sequence of str
        Tokenised content of each id.
    flags : Flags
        Visibility of each row.
    k1, b : float
        BM25 parameters.
    """

    def __init__(
        self,
        ids: Sequence[str],
        documents: Sequence[Sequence[str]],
        flags: Flags,
        *,
        k1: float,
        b: float,
    ) -> None:
        self.ids = tuple(ids)
        self.flags = flags
        self.bm25 = BM25Index(documents, k1=k1, b=b)
        current_rows = np.flatnonzero(flags.current)
        self.n_current = int(current_rows.size)
        self.df: Counter[str] = Counter()
        for row in current_rows:
            self.df.update(self.bm25.doc_terms(int(row)))

    def search(self, tokens: Sequence[str], k: int, *, include_history: bool) -> list[ScoredId]:
        """Top-``k`` memories containing a query token, by BM25 desc then id."""
        if not tokens or not self.ids:
            return []
        scores = self.bm25.scores(tokens)
        allowed = self.flags.allowed(include_history=include_history, include_cold=True)
        scores = np.where(allowed & (scores > 0.0), scores, -np.inf)
        return [ScoredId(self.ids[r], float(scores[r])) for r in top_k(scores, k)]


class RelationGraph:
    """The current relations of a namespace as a ``networkx.MultiDiGraph``."""

    def __init__(self, relations: Sequence[Relation]) -> None:
        self.graph: nx.MultiDiGraph = nx.MultiDiGraph()
        for relation in relations:
            self.graph.add_edge(
                relation.source_id, relation.target_id, key=relation.id, relation=relation
            )

    def subgraph(self, seeds: Sequence[str], max_hops: int) -> list[Relation]:
        """Distinct relations on a path of at most ``max_hops`` edges from a seed.

        Reachability ignores direction (a relation can be walked either way);
        a relation qualifies when one of its ends is fewer than ``max_hops``
        steps from a seed. Returned once each, by relation id.
        """
        sources = [s for s in dict.fromkeys(seeds) if s in self.graph]
        if max_hops < 1 or not sources:
            return []
        undirected = self.graph.to_undirected(as_view=True)
        inner: list[str] = []
        for depth, layer in enumerate(nx.bfs_layers(undirected, sources)):
            if depth >= max_hops:
                break
            inner.extend(layer)
        found: dict[str, Relation] = {}
        for edges in (
            self.graph.out_edges(inner, data=True),
            self.graph.in_edges(inner, data=True),
        ):
            for _, _, data in edges:
                relation: Relation = data["relation"]
                found[relation.id] = relation
        return [found[key] for key in sorted(found)]
