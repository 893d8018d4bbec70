"""Term counts through Neo4j's fulltext index: the query planner's lexical rarity
(:meth:`TermCounts.term_stats`) and the namespace's own IDF that ``text_search`` weighs
each query word by (:meth:`TermCounts.idf_boosts`). Cached for
:data:`~graphmem.store.neo4j._plans.STATS_TTL_S` seconds; the store's writes forget them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from graphmem.store.lucene import lucene_idf
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j import _plans as plans
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.records import TermStats

# idf_boosts counts a query word's documents in the whole fulltext index up to this many
# (Neo4j returns no count: the procedure walks each hit, ~4 µs apiece).
INDEX_DF_CAP = 1000


class TermCounts:
    """Cached document counts of words, per namespace and over the whole index."""

    def __init__(self, executor: Neo4jExecutor) -> None:
        self._exec = executor
        self._cache = plans.TTLCache(plans.STATS_TTL_S, plans.STATS_MAX_ENTRIES)

    def forget(self) -> None:
        """Forget every cached count (the store calls it after its writes)."""
        self._cache.clear()

    def term_stats(self, namespace: str, terms: Sequence[str]) -> TermStats:
        """Through the fulltext index: approximate (Lucene's standard tokenizer splits
        a few words, e.g. ``don't`` or ``3.5``, unlike :func:`graphmem.text.tokenize`),
        and up to :data:`STATS_TTL_S` seconds old (cached per namespace and term)."""
        keys = list(dict.fromkeys(t.casefold() for t in terms))
        n_docs = self._cache.get(
            ("n_current", namespace),
            lambda: int(self._exec.run("read/count_current", {"namespace": namespace})[0]["count"]),
        )
        if not n_docs:
            return TermStats(n_docs=0, df=dict.fromkeys(keys, 0))

        def count(missing: list[Hashable]) -> dict[Hashable, int]:
            df: dict[Hashable, int] = dict.fromkeys(missing, 0)
            queries = [
                {
                    "term": key[2],
                    "lucene": codec.lucene_query(namespace, escaped, field="search_text"),
                }
                for key in missing
                if isinstance(key, tuple) and (escaped := codec.lucene_escape(key[2]))
            ]
            if queries:
                rows = self._exec.run("read/term_df", {"namespace": namespace, "terms": queries})
                for row in rows:
                    df[("df", namespace, row["term"])] = int(row["df"])
            return df

        found = self._cache.get_many([("df", namespace, key) for key in keys], count)
        return TermStats(n_docs=n_docs, df={key: found[("df", namespace, key)] for key in keys})

    def idf_boosts(self, namespace: str, words: Sequence[str]) -> dict[str, float]:
        """Lower-cased escaped query word → ``idf(namespace) / idf(index)``, Lucene's
        IDF (:func:`graphmem.store.lucene.lucene_idf`) over the namespace's memories
        (current or not: the documents its own BM25 counts) and over the whole fulltext
        index; 1.0 for a word the namespace does not hold (it matches nothing there).

        The index's count stops at :data:`INDEX_DF_CAP` (counting a word every memory
        holds walks all of them: ~0.4 s at 100k). Past it the index's IDF is taken at
        the cap, an upper bound, so a word that other namespaces make common weighs at
        most its IDF here (it weighed its small index IDF before): only the opposite
        error, a word common here and rare elsewhere (a person's name in their own
        memory) weighing its large index IDF, is the one removed exactly. The counts are
        cached for :data:`STATS_TTL_S` seconds per namespace and word, and forgotten on
        this store's writes (:meth:`forget`)."""
        keys = list(dict.fromkeys(word.casefold() for word in words))
        n_namespace = self._cache.get(
            ("n_all", namespace),
            lambda: int(
                self._exec.run("read/count_memories", {"namespace": namespace})[0]["count"]
            ),
        )
        n_index = self._cache.get(
            ("n_index",),
            lambda: int(self._exec.run("read/count_all_memories", {})[0]["count"]),
        )

        def count(missing: list[Hashable]) -> dict[Hashable, tuple[int, int]]:
            found: dict[Hashable, tuple[int, int]] = dict.fromkeys(missing, (0, 0))
            terms = [
                {
                    "term": key[2],
                    "lucene": codec.lucene_query(namespace, key[2], field="search_text"),
                    "lucene_all": f"search_text:({key[2]})",
                }
                for key in missing
                if isinstance(key, tuple)
            ]
            params = {"namespace": namespace, "terms": terms, "cap": INDEX_DF_CAP}
            for row in self._exec.run("read/bm25_term_df", params):
                found[("bm25_df", namespace, row["term"])] = (int(row["df"]), int(row["df_all"]))
            return found

        counts = self._cache.get_many([("bm25_df", namespace, key) for key in keys], count)
        boosts: dict[str, float] = {}
        for key in keys:
            df, df_all = counts[("bm25_df", namespace, key)]
            df_all = max(df_all, df)  # the capped count is at least the namespace's
            if df == 0:
                boosts[key] = 1.0
                continue
            own = lucene_idf(max(n_namespace, df), df)
            whole = lucene_idf(max(n_index, df_all), df_all)
            boosts[key] = own / whole
        return boosts
