"""How the Neo4j store chooses its query plans, and the small caches behind the choice.

Helpers of :mod:`graphmem.store.neo4j._reads`: a TTL cache for the counts that
choose between an exact scan and the HNSW index, the :class:`Planner` that reads them
and makes the choice, the thresholds of that choice (each
measured on the 2-core bench machine, Neo4j 5.26 Community, 384-d vectors) and the
exact cosine top-k a many-row search computes here instead of in Cypher.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.records import ScoredId

# Namespaces of at most this many memories are searched by exact cosine rather than through
# the vector index (Neo4jStore's exact_search_max default), per server: on 5.26 the index is
# post-filtered and costs ~30-70 ms at any namespace size while an exact scan costs ~0.1 ms a
# memory; on 2026.06+ the in-index filtered search costs ~10-30 ms at 1k-100k (measured k = 50,
# 384 dims, 2 loaded cores: 400 memories 53 ms either way, 1 000 exact 78 ms vs index 30 ms).
POST_FILTER_EXACT_MAX = 1_000
FILTERED_EXACT_MAX = 400
# The in-index filtered search (2026.06+) is asked for FILTERED_OVERFETCH x k memories, at least
# FILTERED_MIN_FETCH_K, then re-scored exactly (the index quantises; HNSW is approximate).
# Chosen by measured recall@10 (40 stored vectors as queries, 2026.08, scalar quantization,
# expansion factor 1.5) on the latency bench's 100k random unit 384-d vectors in one
# namespace, HNSW's hardest case: LIMIT 50 0.59, 100 0.68, 200 0.80, 400 0.91, 800 0.97.
# The semantic retriever asks for k = 50, hence up to 16 x k. A smaller namespace needs less
# (600 random vectors: LIMIT 50 1.0; 3 000: 0.996 even binary) and the walk's cost grows with
# LIMIT (100k, load 25: 190 ms for 100, 375 ms for 800), so the ask scales with the
# namespace: one per FILTERED_MEMORIES_PER_FETCH memories, between k (at least
# FILTERED_MIN_FETCH_K) and FILTERED_OVERFETCH x k. (10k random vectors with one per 125,
# i.e. LIMIT 100: recall@10 0.94 in the latency bench; hence one per 25, LIMIT 400.)
# Re-measured with the HNSW graph built at m 32 / ef_construction 200, unquantised (Neo4j
# 2026.08.1, k = 50, recall@10 against exact cosine on the bench's 9 questions / 100 stored
# vectors as queries, load 5-7): 10k LIMIT 100 0.967 / 0.982, 150 1.000 / 0.998, 200 1.000 /
# 1.000 (8-13 ms), 400 1.000 / 1.000 (11 ms); 100k LIMIT 400 0.956 / 0.955, 800 0.989 / 0.989
# (43 ms). The name-masking step re-orders the semantic list's top 30, so its top 50 matter
# too: at 10k recall@50 was 0.991 for LIMIT 200 and 1.000 for 300 and 400. Hence one per 32:
# 313 at 10k (the recall lists of the bench's questions identical to LIMIT 400's), the 800 cap
# at 100k. The time-window search through the index (a window of more than
# FILTERED_EXACT_MAX memories) asks for as many (it asked for 16 x k): at 10k its top 10 and
# top 50 were those of the exact scan for LIMIT 100-800 on 5 windows.
FILTERED_OVERFETCH = 16
FILTERED_MIN_FETCH_K = 100
FILTERED_MEMORIES_PER_FETCH = 32
# vector_search's own floor: an HNSW query costs ~10 ms for 10 neighbours and ~27 ms for 100
# at 100k memories, per query row (a dedup batch sends 256 rows), and 32 keep its recall high.
VECTOR_MIN_FETCH_K = 32
# An exact search of this many query rows or more (a dedup batch) on a namespace searched
# exactly fetches its vectors once and computes the cosines here: the Cypher form computes
# rows x memories cosines in the interpreted runtime (~2 s for 256 rows x 1 000 memories).
CLIENT_EXACT_MIN_ROWS = 16
# ... and so does such a batch on a namespace of up to this many memories even when it is past
# exact_search_max, rather than sending every row through the HNSW index: the index holds
# every namespace, so a small namespace in a large database needs thousands of neighbours per
# row (a 2k-memory namespace among 110k: ~10 000), while its vectors cross the wire once
# (15 MB at 10k) and numpy scores 256 rows against them in milliseconds.
CLIENT_EXACT_MAX = 20_000
# How old the counts behind term_stats (the planner's lexical rarity) and behind
# vector_search's exact-or-index choice may be. Both are O(namespace) scans on Neo4j
# (~0.1 s each at 100k memories), once per recall without the cache; a planning
# statistic a few writes stale changes nothing (Lucene's own statistics count deleted
# documents until a merge). Counts users see (count_memories, stats) are never cached.
STATS_TTL_S = 300.0
STATS_MAX_ENTRIES = 4096
# Namespace sizes choose between exact and index plans only (both correct); they are re-read
# sooner, so a namespace that grows leaves the exact plan within seconds.
SIZE_TTL_S = 10.0
# entity_search and time_window_search read each candidate's stored vector for its cosine
# (40-130 µs a memory on the bench machine: ~2 s for a year of 100k memories). Past
# INDEXED_CANDIDATES_MIN candidates, when it is cheaper (INDEX_COST: one HNSW neighbour costs
# about two exact cosines), they take INDEX_OVERFETCH x k / (the candidates' share of the
# index) nearest neighbours of the query from the HNSW index instead (0.1-0.25 s for 500-6000
# at 100k), keep the candidates among them and re-score those exactly; with fewer than k
# left (other namespaces crowd the query's neighbourhood), ten times as many, then the exact
# statement. Results are then approximate, as vector_search's.
INDEXED_CANDIDATES_MIN = 2_000
INDEX_OVERFETCH = 3
INDEX_COST = 2

# The HNSW index is asked for at least MIN_FETCH_K and at most MAX_FETCH_K neighbours before
# the namespace / visibility post-filter (see vector_search); a second attempt takes
# OVERFETCH_RETRY times as many.
OVERFETCH_RETRY = 10
MIN_FETCH_K = 100
MAX_FETCH_K = 10_000
ALL_HITS = 2**31 - 1  # the fulltext "limit" (and max_exact) that means every hit

_V = TypeVar("_V")


class TTLCache:
    """A small thread-safe cache whose entries expire ``ttl_s`` after they were computed."""

    def __init__(self, ttl_s: float, max_entries: int) -> None:
        self._ttl_s = ttl_s
        self._max = max_entries
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()

    def get(self, key: Hashable, compute: Callable[[], _V]) -> _V:
        now = time.monotonic()
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None and now - hit[0] < self._ttl_s:
                self._entries.move_to_end(key)
                value: _V = hit[1]
                return value
        value = compute()  # outside the lock: two threads may both compute, harmlessly
        with self._lock:
            self._entries[key] = (now, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()

    def get_many(
        self, keys: Sequence[Hashable], compute: Callable[[list[Hashable]], dict[Hashable, _V]]
    ) -> dict[Hashable, _V]:
        """Cached values of ``keys``; the missing ones computed in one ``compute`` call."""
        now = time.monotonic()
        found: dict[Hashable, _V] = {}
        with self._lock:
            for key in keys:
                hit = self._entries.get(key)
                if hit is not None and now - hit[0] < self._ttl_s:
                    found[key] = hit[1]
        missing = [key for key in keys if key not in found]
        if missing:
            computed = compute(missing)
            with self._lock:
                for key in missing:
                    self._entries[key] = (now, computed[key])
                while len(self._entries) > self._max:
                    self._entries.popitem(last=False)
            found.update(computed)
        return found


def exact_cosine_top_k(
    ids: Sequence[str], vectors: Sequence[Sequence[float]], queries: Sequence[list[float]], k: int
) -> list[list[ScoredId]]:
    """Top-``k`` of ``ids`` by cosine to each query (unit or zero rows), as
    ``read/vector_search_exact`` ranks them: cosine rounded to 6 decimals, desc, then id;
    a zero vector scores 0."""
    if not ids:
        return [[] for _ in queries]
    matrix = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    scores = np.round(np.asarray(queries, dtype=np.float64) @ unit.T, 6) + 0.0
    names = np.array(ids, dtype=np.str_)
    out: list[list[ScoredId]] = []
    for row in scores:
        order = np.lexsort((names, -row))[:k]
        out.append([ScoredId(str(names[j]), float(row[j])) for j in order])
    return out


class Planner:
    """The counts that choose a Neo4j query plan (namespace sizes, cached ``SIZE_TTL_S``)
    and the choices made of them, for :class:`~graphmem.store.neo4j._reads.Neo4jRetrievers`.
    ``exact_search_max``: see :class:`~graphmem.store.neo4j.Neo4jStore` (None: by server)."""

    def __init__(self, executor: Neo4jExecutor, exact_search_max: int | None) -> None:
        self._exec = executor
        self._exact_search_max_setting = exact_search_max
        self._sizes = TTLCache(SIZE_TTL_S, STATS_MAX_ENTRIES)

    @property
    def filtered(self) -> bool:
        """The vector index filters inside the graph walk (Neo4j 2026.06+)."""
        return self._exec.dialect is not None

    @property
    def exact_search_max(self) -> int:
        if self._exact_search_max_setting is not None:
            return self._exact_search_max_setting
        return FILTERED_EXACT_MAX if self.filtered else POST_FILTER_EXACT_MAX

    def size(self, namespace: str) -> int:
        """Memories of the namespace, up to ``SIZE_TTL_S`` old (for choosing a query plan)."""
        return self._sizes.get(
            ("size", namespace),
            lambda: _count(self._exec.run("read/count_memories", {"namespace": namespace})),
        )

    def filtered_fetch_k(self, namespace: str, k: int) -> int:
        """How many memories the in-index filtered search (2026.06+) is asked for, to
        re-score and cut to ``k``: one per ``FILTERED_MEMORIES_PER_FETCH`` of the namespace,
        between ``k`` (at least ``FILTERED_MIN_FETCH_K``) and ``FILTERED_OVERFETCH·k``."""
        by_size = math.ceil(self.size(namespace) / FILTERED_MEMORIES_PER_FETCH)
        return max(FILTERED_MIN_FETCH_K, k, min(FILTERED_OVERFETCH * k, by_size))

    def large(self, namespace: str) -> bool:
        """Past exact_search_max: searches may go through the HNSW index."""
        return self.size(namespace) > self.exact_search_max

    def max_exact(self, namespace: str, k: int, query: list[float] | None) -> int:
        """Up to how many candidates entity_search / time_window_search compute every
        cosine; past it the HNSW index reads fewer vectors.

        The index takes ``INDEX_OVERFETCH·k·N/C`` neighbours for ``C`` candidates among
        the ``N`` memories it holds, and a neighbour costs about ``INDEX_COST`` exact
        cosines (measured at 100k), so it pays once ``C > sqrt(INDEX_COST·INDEX_OVERFETCH·k·N)``.
        Without a query direction, or in a namespace searched exactly, never. On 2026.06+
        (the index filters in its walk, a few ms) past ``FILTERED_EXACT_MAX``, as vector_search.
        """
        if query is None or not any(query) or not self.large(namespace):
            return ALL_HITS
        if self.filtered:  # a filtered index search costs about as much as this many cosines
            return max(FILTERED_EXACT_MAX, k)
        crossing = math.isqrt(INDEX_COST * INDEX_OVERFETCH * k * self.all_size()) + 1
        return max(INDEXED_CANDIDATES_MIN, k, crossing)

    def index_fetch_k(self, namespace: str, k: int, candidates: int) -> int:
        """HNSW neighbours to take for ``k`` hits among ``candidates`` memories:
        ``INDEX_OVERFETCH·k`` over their share of what the index walks (every namespace's
        memories on 5.26; the namespace's on 2026.06+, where it filters in its walk)."""
        # on 2026.06+ the index's walk is filtered to the namespace: only its share counts
        indexed = self.size(namespace) if self.filtered else self.all_size()
        share = candidates / max(indexed, candidates, 1)
        return min(MAX_FETCH_K, max(MIN_FETCH_K, math.ceil(INDEX_OVERFETCH * k / share)))

    def all_size(self) -> int:
        """Memories of every namespace, up to ``SIZE_TTL_S`` old (the vector index's size)."""
        return self._sizes.get(
            ("all",), lambda: _count(self._exec.run("read/count_all_memories", {}))
        )


def _count(rows: Sequence[Mapping[str, Any]]) -> int:
    """The ``count`` of a one-row counting statement (0 when it returned no row)."""
    return int(rows[0]["count"]) if rows else 0
