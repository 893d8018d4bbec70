// Exact top-k by cosine over the namespace: for small namespaces, and when the index's
// post-filtered result is shorter than k. Same filters and scores as read/vector_search; a
// zero vector (query or stored) has no cosine and scores 0.
UNWIND range(0, size($embeddings) - 1) AS row
WITH row, $embeddings[row] AS query, any(x IN $embeddings[row] WHERE x <> 0.0) AS nonzero
CALL (row, query, nonzero) {
  MATCH (m:Memory {namespace: $namespace})
  WHERE m.embedding IS NOT NULL
    AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
    AND ($include_cold OR m.tier = 'hot')
  WITH m,
       CASE WHEN nonzero AND coalesce(m.embedding_nonzero, any(x IN m.embedding WHERE x <> 0.0))
            THEN round(2 * vector.similarity.cosine(m.embedding, query) - 1, 6)
            ELSE 0.0
       END AS score
  ORDER BY score DESC, m.id
  LIMIT $k
  RETURN collect({memory_id: m.id, score: score}) AS hits
}
RETURN row, hits
