"""In-memory read indexes of the embedded store, one set per namespace.

Each index is built from one consistent SQLite snapshot, is immutable after
construction (so concurrent readers share it without locks) and is replaced
whole when the namespace's version changes. Rows are kept in memory-id order,
so a stable sort on the score breaks ties by id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
        """Rows a retriever may return under these options (docs/spec.md §3, §4)."""
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
        self._sorted_ids = np.array(self.ids, dtype=np.str_)  # ascending: searchsorted finds rows
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

    def has(self, memory_id: str) -> bool:
        """Whether ``memory_id`` is a row (a memory of the namespace with an embedding)."""
        row = int(np.searchsorted(self._sorted_ids, memory_id))
        return row < len(self.ids) and self.ids[row] == memory_id

    def cosines(self, ids: Sequence[str], query: npt.NDArray[np.float32]) -> FloatArray:
        """Cosine of each of ``ids`` to ``query`` (normalised), rounded as in :meth:`search`;
        0.0 for an id without an embedding. Aligned with ``ids``."""
        out = np.zeros(len(ids), dtype=np.float64)
        if not ids or not self.ids:
            return out
        wanted = np.array(ids, dtype=np.str_)
        rows = np.minimum(np.searchsorted(self._sorted_ids, wanted), len(self.ids) - 1)
        found = self._sorted_ids[rows] == wanted
        values = (self.matrix[rows[found]] @ query).astype(np.float64)
        out[found] = np.round(values, COSINE_DECIMALS)
        return out


class TimeIndex:
    """The time anchors of a namespace's memories (``Memory.time_anchor``, µs since the epoch).

    Parameters
    ----------
    ids : sequence of str
        Memory ids in ascending order.
    anchors : numpy.ndarray of int64
        The time anchor of each id.
    flags : Flags
        Visibility of each row.
    """

    def __init__(self, ids: Sequence[str], anchors: npt.NDArray[np.int64], flags: Flags) -> None:
        self.ids = tuple(ids)
        self.anchors = anchors
        self.flags = flags

    def window(self, lo: int, hi: int, *, include_history: bool) -> IndexArray:
        """Rows (ascending, i.e. by id) anchored in ``[lo, hi)`` that a retriever may return."""
        allowed = self.flags.allowed(include_history=include_history, include_cold=True)
        return np.flatnonzero((self.anchors >= lo) & (self.anchors < hi) & allowed)


class TextIndex:
    """BM25 over the content of every memory of a namespace (docs/spec.md §3).

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
        self.n_current = int(np.count_nonzero(flags.current))

    def doc_freq(self, term: str) -> int:
        """Current memories whose content holds ``term`` (a lower-cased token)."""
        rows, _ = self.bm25.postings(term)
        return int(np.count_nonzero(self.flags.current[rows]))

    def search(self, tokens: Sequence[str], k: int, *, include_history: bool) -> list[ScoredId]:
        """Top-``k`` memories containing a query token, by BM25 desc then id."""
        if not tokens or not self.ids:
            return []
        rows, scores = self.bm25.matches(tokens)
        allowed = self.flags.allowed(include_history=include_history, include_cold=True)
        keep = allowed[rows] & (scores > 0.0)
        rows, scores = rows[keep], scores[keep]
        # rows ascend, so top_k's tie-break on position is the tie-break on id
        return [ScoredId(self.ids[rows[i]], float(scores[i])) for i in top_k(scores, k)]


# Mention roles by strength: a memory mentioning an entity in several roles reports the
# strongest (subject, then object, then mention).
ROLES = ("subject", "object", "mention")


class MentionIndex:
    """Which memories mention which entities, as arrays (the entity retriever's index).

    Parameters
    ----------
    ids : sequence of str
        Memory ids in ascending order.
    visible : numpy.ndarray of bool
        Per row: current and retrievable (the default retrievers' filter).
    mentions : sequence of (int, str, str)
        ``(row, entity_id, role)`` of every mention of a memory of ``ids``.
    """

    def __init__(
        self, ids: Sequence[str], visible: BoolArray, mentions: Sequence[tuple[int, str, str]]
    ) -> None:
        self.ids = tuple(ids)
        self.visible = visible
        code = {role: i for i, role in enumerate(ROLES)}
        entities = sorted({entity for _, entity, _ in mentions})
        position = {entity: i for i, entity in enumerate(entities)}
        rows = np.fromiter((m[0] for m in mentions), dtype=np.int64, count=len(mentions))
        ents = np.fromiter((position[m[1]] for m in mentions), dtype=np.int64, count=len(mentions))
        roles = np.fromiter((code[m[2]] for m in mentions), dtype=np.int8, count=len(mentions))
        order = np.lexsort((roles, rows, ents))  # by entity, then row, strongest role first
        rows, ents, roles = rows[order], ents[order], roles[order]
        first = np.ones(rows.size, dtype=np.bool_)  # keep one (entity, row) pair: its best role
        first[1:] = (rows[1:] != rows[:-1]) | (ents[1:] != ents[:-1])
        self._rows, self._roles = rows[first], roles[first]
        bounds = np.searchsorted(ents[first], np.arange(len(entities) + 1))
        self._span = {e: (int(bounds[i]), int(bounds[i + 1])) for e, i in position.items()}

    def search(
        self,
        entity_ids: Sequence[str],
        k: int,
        similarities: Callable[[Sequence[str]], FloatArray],
        *,
        include_history: bool,
    ) -> list[tuple[str, tuple[str, ...], tuple[str, ...], float]]:
        """Memories mentioning any of ``entity_ids``: at most ``k``, by entities mentioned
        desc, similarity desc, id asc.

        ``similarities`` gives the cosines of memory ids to the query (aligned with
        them); it is asked only for the memories that can still make the top ``k`` by
        count.

        Returns
        -------
        list of (memory_id, entity_ids, roles, similarity)
            ``entity_ids`` sorted, ``roles`` aligned with them.
        """
        wanted = sorted(e for e in set(entity_ids) if e in self._span)
        if not wanted:
            return []
        slices = [slice(*self._span[e]) for e in wanted]
        rows = np.concatenate([self._rows[s] for s in slices])
        roles = np.concatenate([self._roles[s] for s in slices])
        ents = np.repeat(np.arange(len(wanted)), [s.stop - s.start for s in slices])
        if not include_history:
            keep = self.visible[rows]
            rows, roles, ents = rows[keep], roles[keep], ents[keep]
        if not rows.size:
            return []
        order = np.lexsort((ents, rows))  # by row, then entity (ascending id)
        rows, roles, ents = rows[order], roles[order], ents[order]
        members, starts, counts = np.unique(rows, return_index=True, return_counts=True)
        if members.size > k:  # only memories tied with the k-th count or above can rank
            kth = np.partition(counts, members.size - k)[members.size - k]
            contenders = np.flatnonzero(counts >= kth)
        else:
            contenders = np.arange(members.size)
        ids = [self.ids[r] for r in members[contenders]]
        values = similarities(ids)
        ranked = np.lexsort((members[contenders], -values, -counts[contenders]))[:k]
        out: list[tuple[str, tuple[str, ...], tuple[str, ...], float]] = []
        for j in ranked:
            c = contenders[j]
            span = slice(starts[c], starts[c] + counts[c])
            out.append(
                (
                    ids[j],
                    tuple(wanted[e] for e in ents[span]),
                    tuple(ROLES[r] for r in roles[span]),
                    float(values[j]),
                )
            )
        return out


class RelationGraph:
    """The current relations of a namespace as a ``networkx.MultiDiGraph``."""

    def __init__(self, relations: Sequence[Relation]) -> None:
        import networkx as nx  # imported on first use: stats / show never pay for it

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
        import networkx as nx

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
