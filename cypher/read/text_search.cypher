// BM25 (Lucene, k1 = 1.2, b = 0.75) over memory search text (the contextual key, else the
// content). $lucene is the escaped user text restricted to the namespace inside Lucene:
// 'ns_key:<key>^0 AND search_text:(<word>^<boost> ...)'. Lucene's IDF counts the whole
// index (every namespace); each word's boost is idf(namespace) / idf(index) (from
// bm25_term_df.cypher), so the IDF that ranks is this namespace's. The average length is
// still the whole index's.
// Lucene returns its best $fetch_k hits (fetched says how many it had): when the visibility
// filter leaves fewer than $k and Lucene had more, the caller asks again for all of them.
// One row.
CALL db.index.fulltext.queryNodes('memory_content', $lucene, {limit: $fetch_k})
YIELD node, score
WITH collect([node, score]) AS found
CALL (found) {
  UNWIND found AS hit
  WITH hit[0] AS node, hit[1] AS score
  WHERE node.namespace = $namespace
    AND score > 0
    AND ($include_history OR (node.superseded_by IS NULL AND node.retrievable))
  WITH node.id AS memory_id, score
  ORDER BY score DESC, memory_id
  LIMIT $k
  RETURN collect({memory_id: memory_id, score: score}) AS hits
}
RETURN size(found) AS fetched, hits
