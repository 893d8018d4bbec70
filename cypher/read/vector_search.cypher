// Approximate top-k by cosine for each query vector through the HNSW index, then the namespace
// and visibility post-filter (Neo4j 5.26 has no in-index filter): over-fetch $fetch_k. Scores
// are recomputed exactly on the stored vectors (the index quantises) and returned as cosine in
// [-1, 1] (vector.similarity.cosine gives (1 + cos) / 2), rounded to 6 decimals.
UNWIND range(0, size($embeddings) - 1) AS row
CALL db.index.vector.queryNodes('memory_embedding', $fetch_k, $embeddings[row])
YIELD node
WITH row, node
WHERE node.namespace = $namespace
  AND ($include_history OR (node.superseded_by IS NULL AND node.retrievable))
  AND ($include_cold OR node.tier = 'hot')
WITH row, node,
     round(2 * vector.similarity.cosine(node.embedding, $embeddings[row]) - 1, 6) AS score
ORDER BY row, score DESC, node.id
WITH row, collect({memory_id: node.id, score: score})[..$k] AS hits
RETURN row, hits
