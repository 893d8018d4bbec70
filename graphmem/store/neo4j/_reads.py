"""The retriever role of the Neo4j store (:class:`~graphmem.store.base.StoreRetrievers`):
the five retrievers' queries, each one or two statements of ``cypher/read/`` run through
the store's :class:`Neo4jExecutor`, with the query plans of :mod:`._plans`. No
driver import here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.errors import InvalidInputError
from graphmem.models import Relation
from graphmem.store.checks import check_aware, check_k, unit_rows, unit_vector
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j import _plans as plans
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.neo4j._terms import TermCounts
from graphmem.store.records import EntityHit, ScoredId, TermStats, micros
from graphmem.text import tokenize
from graphmem.types import Vector

MAX_HOPS = 3  # relation_subgraph's Cypher pattern is bounded at 3 hops


OVERFETCH = 10  # text_search asks Lucene for max(OVERFETCH·k, MIN_FETCH_K) hits


@dataclass(frozen=True, slots=True)
class _VectorAsk:
    """One vector_search: its query ``rows`` (unit vectors) and ``results`` (aligned with
    them, None while a row is unanswered), which its plans fill in turn."""

    namespace: str
    rows: list[list[float]]
    k: int
    flags: dict[str, bool]
    results: list[list[ScoredId] | None]


class Neo4jRetrievers:
    """:class:`~graphmem.store.base.StoreRetrievers` on Neo4j's vector, fulltext and
    range indexes. ``exact_search_max``: see :class:`~graphmem.store.neo4j.Neo4jStore`."""

    def __init__(self, executor: Neo4jExecutor, *, dim: int, exact_search_max: int | None) -> None:
        self._exec = executor
        self._dim = dim
        self._terms = TermCounts(executor)
        self._plans = plans.Planner(executor, exact_search_max)

    def forget_stats(self) -> None:
        """Forget the cached term counts (text_search's IDF boosts, term_stats): the
        store's writes call it, so the next search counts what was just written. Other
        processes' writes show within :data:`STATS_TTL_S` seconds."""
        self._terms.forget()

    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        """The plan, by server and namespace size (:mod:`._plans`).

        On Neo4j 2026.06+ the vector index filters by namespace and visibility inside
        its graph walk (``SEARCH``, the ``cypher25`` statement): it is asked for one
        memory per ``FILTERED_MEMORIES_PER_FETCH`` of the namespace, between ``k`` (at
        least ``FILTERED_MIN_FETCH_K``) and ``FILTERED_OVERFETCH·k``, which are
        re-scored exactly and cut to ``k``; only namespaces of at most
        ``exact_search_max`` memories (default ``FILTERED_EXACT_MAX``) and dedup
        batches on namespaces up to ``CLIENT_EXACT_MAX`` are searched exactly.

        On 5.26: a namespace of at most ``exact_search_max`` memories is searched exactly
        (``vector.similarity.cosine`` over the namespace). A batch of at least
        ``CLIENT_EXACT_MIN_ROWS`` rows (dedup) on a namespace of at most
        ``CLIENT_EXACT_MAX`` memories is searched exactly too, in numpy on the
        namespace's vectors fetched once. Otherwise a larger one goes
        through the HNSW index (``db.index.vector.queryNodes``), post-filtered by
        namespace and visibility and re-scored exactly: first with ``3·k`` over the
        namespace's share of the index's memories neighbours (at least 32), then,
        for a row left with fewer than ``k`` hits, ten times as many (at most
        10 000 each time); a row still short is searched exactly (an O(namespace)
        scan: ~5 s at 100k memories).
        """
        check_k(k)
        rows = unit_rows(embeddings, self._dim).tolist()
        if not rows:
            return []
        flags = {"include_history": include_history, "include_cold": include_cold}
        results: list[list[ScoredId] | None] = [None] * len(rows)
        batch = len(rows) >= plans.CLIENT_EXACT_MIN_ROWS  # a dedup batch, not a recall
        client_exact = batch and (
            not self._plans.large(namespace)
            or self._plans.size(namespace) <= plans.CLIENT_EXACT_MAX
        )
        ask = _VectorAsk(namespace, rows, k, flags, results)
        if self._plans.filtered and self._plans.large(namespace) and not client_exact:
            self._vector_filtered(ask)
        elif k <= plans.MAX_FETCH_K and self._plans.large(namespace) and not client_exact:
            self._vector_post_filtered(ask)
        self._vector_exact(ask, client=client_exact)
        return [hits or [] for hits in results]

    # Each _vector_* plan fills the rows of ``ask.results`` it answers.
    def _vector_filtered(self, ask: _VectorAsk) -> None:
        """2026.06+: the index filters in its walk; every row with a direction is answered."""
        indexed = [i for i, row in enumerate(ask.rows) if any(row)]
        if not indexed:
            return
        fetch_k = self._plans.filtered_fetch_k(ask.namespace, ask.k)
        params = {"namespace": ask.namespace, "k": ask.k, "fetch_k": fetch_k, **ask.flags}
        params["embeddings"] = [ask.rows[i] for i in indexed]
        params["exact_scores"] = self._exec.exact_index_scores
        for record in self._exec.run("read/vector_search", params):
            # the walk stops with fewer only when fewer memories pass the filter
            ask.results[indexed[record["row"]]] = codec.scored(record["hits"])
        for i in indexed:
            if ask.results[i] is None:
                ask.results[i] = []

    def _vector_post_filtered(self, ask: _VectorAsk) -> None:
        """5.26: the HNSW index post-filtered, twice at most; a row left short stays None."""
        share = self._plans.size(ask.namespace) / max(
            self._plans.all_size(), self._plans.size(ask.namespace), 1
        )
        fetch_k = max(
            plans.VECTOR_MIN_FETCH_K, math.ceil(plans.INDEX_OVERFETCH * ask.k / max(share, 1e-9))
        )
        fetch_k = min(fetch_k, plans.MAX_FETCH_K)
        for attempt in (fetch_k, min(fetch_k * plans.OVERFETCH_RETRY, plans.MAX_FETCH_K)):
            indexed = [i for i, row in enumerate(ask.rows) if ask.results[i] is None and any(row)]
            if not indexed:
                break
            params = {"namespace": ask.namespace, "k": ask.k, "fetch_k": attempt, **ask.flags}
            params["embeddings"] = [ask.rows[i] for i in indexed]
            for record in self._exec.run("read/vector_search", params):
                hits = codec.scored(record["hits"])
                if len(hits) >= ask.k:
                    ask.results[indexed[record["row"]]] = hits
            if attempt == plans.MAX_FETCH_K:
                break

    def _vector_exact(self, ask: _VectorAsk, *, client: bool) -> None:
        """The rows still unanswered, exactly: in numpy on the namespace's vectors fetched
        once (``client``, a dedup batch), else by a cosine scan in Cypher."""
        missing = [i for i, hits in enumerate(ask.results) if hits is None]
        if client and missing:
            found = self._exec.run(
                "read/namespace_vectors", {"namespace": ask.namespace, **ask.flags}
            )
            if found:
                exact = plans.exact_cosine_top_k(
                    found[0]["ids"], found[0]["vectors"], [ask.rows[i] for i in missing], ask.k
                )
                for i, hits in zip(missing, exact, strict=True):
                    ask.results[i] = hits
                missing = []
        if missing:
            params = {"namespace": ask.namespace, "k": ask.k, **ask.flags}
            params["embeddings"] = [ask.rows[i] for i in missing]
            for record in self._exec.run("read/vector_search_exact", params):
                ask.results[missing[record["row"]]] = codec.scored(record["hits"])

    def text_search(
        self, namespace: str, text: str, k: int, *, include_history: bool = False
    ) -> list[ScoredId]:
        """Lucene's BM25 (k1 = 1.2, b = 0.75) on the fulltext index with the namespace's
        own IDF, ``text`` escaped (:func:`graphmem.store.lucene.lucene_escape`).

        Lucene takes IDF over the whole index, every namespace included, so one
        namespace's ranking would shift with what the others hold (LoCoMo turns, BM25
        alone: R@10 0.69 on an empty server, 0.50 beside 111k memories of other
        namespaces). Each query word is boosted by ``idf(namespace) / idf(index)``
        (:meth:`TermCounts.idf_boosts`), which makes each word's weight its IDF in this namespace,
        as on the embedded store; the length normalisation still uses the index's mean
        length. Lucene ranks its best ``max(10·k, 100)`` hits, which are filtered by
        visibility; when fewer than ``k`` are left and Lucene had more, all hits are
        ranked (a second round trip). Lucene's BM25 leaves out the constant factor
        ``k1 + 1`` (the ranking is the same)."""
        check_k(k)
        escaped = codec.lucene_escape(text)
        if not tokenize(text) or not escaped:
            return []
        words = escaped.split(" ")
        boosts = self._terms.idf_boosts(namespace, words)
        # fixed-point: Lucene's query syntax takes no exponent, and 9 decimals keep a word
        # that nearly every memory of a large namespace holds (IDF ~ 0.5 / N) above 0
        boosted = " ".join(f"{word}^{boosts[word.casefold()]:.9f}" for word in words)
        params = {
            "namespace": namespace,
            "lucene": codec.lucene_query(namespace, boosted, field="search_text"),
            "k": k,
            "fetch_k": max(k * OVERFETCH, plans.MIN_FETCH_K),
            "include_history": include_history,
        }
        found = self._exec.run("read/text_search", params)
        hits = codec.scored(codec.collected(found, "hits"))
        if len(hits) < k and found and found[0]["fetched"] >= params["fetch_k"]:
            # too few visible among the best fetch_k, and Lucene had more: search all hits
            hits = self._hits("read/text_search", {**params, "fetch_k": plans.ALL_HITS})
        return hits

    def entity_search(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[EntityHit]:
        check_k(k)
        query = (
            None if embedding is None else unit_vector(embedding, self._dim, "embedding").tolist()
        )
        ids = sorted(set(entity_ids))
        if not ids:
            return []
        params: dict[str, Any] = {
            "namespace": namespace,
            "entity_ids": ids,
            "k": k,
            "include_history": include_history,
            "embedding": query,
        }
        max_exact = self._plans.max_exact(namespace, k, query)
        # one statement counts the contenders and, up to max_exact of them, scores them
        found = self._exec.run("read/entity_search", {**params, "max_exact": max_exact})
        if not found or not found[0]["contenders"]:
            return []
        rows: list[Any] = list(found[0]["hits"])
        if found[0]["contenders"] > max_exact:  # a large tie: through the vector index
            fetch_k = self._plans.index_fetch_k(namespace, k, found[0]["contenders"])
            index_params = {**params, "floor": found[0]["floor"], "fetch_k": fetch_k}
            rows = codec.collected(self._exec.run("read/entity_search_index", index_params), "hits")
            if len(rows) < k:  # other namespaces crowd the neighbourhood: look further
                index_params["fetch_k"] = min(fetch_k * plans.OVERFETCH_RETRY, plans.MAX_FETCH_K)
                rows = codec.collected(
                    self._exec.run("read/entity_search_index", index_params), "hits"
                )
            if len(rows) < k:  # too few of the tie among the neighbours: exactly after all
                exact = {**params, "max_exact": plans.ALL_HITS}
                rows = codec.collected(self._exec.run("read/entity_search", exact), "hits")
        return [codec.entity_hit(row) for row in rows]

    def time_window_search(
        self,
        namespace: str,
        start: datetime,
        end: datetime,
        k: int,
        *,
        embedding: Vector | None = None,
        include_history: bool = False,
    ) -> list[ScoredId]:
        check_k(k)
        check_aware(start, "start")
        check_aware(end, "end")
        query = (
            None if embedding is None else unit_vector(embedding, self._dim, "embedding").tolist()
        )
        lo, hi = micros(start), micros(end)
        if hi <= lo:
            return []
        window = {
            "namespace": namespace,
            "start": codec.wire(start.astimezone(UTC)),  # see _codec.memory_row
            "end": codec.wire(end.astimezone(UTC)),
        }
        params = {**window, "k": k, "embedding": query, "include_history": include_history}
        exact = {**params, "bounds_sum_us": lo + hi}
        max_exact = self._plans.max_exact(namespace, k, query)
        if self._plans.filtered:
            # 2026.06+, one round trip: a wide window goes through the index, which filters
            # by namespace, window and visibility in its walk (read/time_window_search),
            # asked for as many as vector_search asks for
            fetch_k = self._plans.filtered_fetch_k(namespace, k)
            wide = {**exact, "max_exact": max_exact, "fetch_k": fetch_k}
            wide["exact_scores"] = self._exec.exact_index_scores
            return self._hits("read/time_window_search", wide)
        found = self._exec.run("read/time_window_search", {**exact, "max_exact": max_exact})
        if found and found[0]["inside"] > max_exact:  # a wide window: through the index
            fetch_k = self._plans.index_fetch_k(namespace, k, found[0]["inside"])
            for attempt in (fetch_k, min(fetch_k * plans.OVERFETCH_RETRY, plans.MAX_FETCH_K)):
                hits = self._hits("read/time_window_search_index", {**params, "fetch_k": attempt})
                if len(hits) >= k:
                    return hits
            found = self._exec.run(
                "read/time_window_search", {**exact, "max_exact": plans.ALL_HITS}
            )
        return codec.scored(codec.collected(found, "hits"))

    def relation_subgraph(
        self, namespace: str, entity_ids: Sequence[str], max_hops: int
    ) -> list[Relation]:
        """Raises InvalidInputError if ``max_hops > 3`` (the Cypher pattern is bounded at
        3 hops)."""
        if max_hops > MAX_HOPS:
            raise InvalidInputError(f"must be <= {MAX_HOPS}, got {max_hops}", field="max_hops")
        ids = list(dict.fromkeys(entity_ids))
        if max_hops < 1 or not ids:
            return []
        params = {"namespace": namespace, "entity_ids": ids, "max_hops": max_hops}
        rows = codec.collected(self._exec.run("read/relation_subgraph", params), "relations")
        return [codec.relation_from_record(row, namespace) for row in rows]

    def memory_sessions(self, namespace: str, ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        # one query through the turns, or none right after rank_fields read them in this thread
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return {}
        memo = self._exec.recall("sessions")  # answered once: a later call reads afresh
        if memo is not None and memo[0] == namespace and memo[1].issuperset(distinct):
            return {i: memo[2][i] for i in distinct if memo[2].get(i)}
        rows = self._exec.run("read/memory_sessions", {"namespace": namespace, "ids": distinct})
        return {row[0]: tuple(sorted(row[1])) for row in codec.collected(rows, "rows") if row[1]}

    def memory_cosines(
        self, namespace: str, ids: Sequence[str], embedding: Vector
    ) -> dict[str, float]:
        query = unit_vector(embedding, self._dim, "embedding").tolist()
        distinct = list(dict.fromkeys(ids))
        if not distinct:
            return {}
        params = {
            "namespace": namespace,
            "ids": distinct,
            "embedding": query,
            "directed": any(query),
        }
        rows = codec.collected(self._exec.run("read/memory_cosines", params), "rows")
        return {row[0]: float(row[1]) for row in rows}

    def term_stats(self, namespace: str, terms: Sequence[str]) -> TermStats:
        """Through the fulltext index (:meth:`TermCounts.term_stats`)."""
        return self._terms.term_stats(namespace, terms)

    def _hits(self, name: str, params: Mapping[str, Any]) -> list[ScoredId]:
        return codec.scored(codec.collected(self._exec.run(name, params), "hits"))
