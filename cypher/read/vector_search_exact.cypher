// Exact top-k by cosine over the namespace: for small namespaces, and when the index's
// post-filtered result is shorter than k. Same filters and scores as read/vector_search; a
// zero vector (query or stored) has no cosine and scores 0. Each stored vector is read once
// for all the query rows (reading it is the costly part; a dedup batch sends hundreds).
WITH [e IN $embeddings | any(x IN e WHERE x <> 0.0)] AS directed
MATCH (m:Memory {namespace: $namespace})
WHERE ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
  AND ($include_cold OR m.tier = 'hot')
WITH directed, m.id AS memory_id, m.embedding AS vector,
     coalesce(m.embedding_nonzero, any(x IN coalesce(m.embedding, []) WHERE x <> 0.0)) AS nonzero
WHERE vector IS NOT NULL
UNWIND range(0, size($embeddings) - 1) AS row
WITH row, memory_id,
     CASE WHEN nonzero AND directed[row]
          THEN round(2 * vector.similarity.cosine(vector, $embeddings[row]) - 1, 6)
          ELSE 0.0
     END AS score
ORDER BY row, score DESC, memory_id
WITH row, collect({memory_id: memory_id, score: score})[..$k] AS hits
RETURN row, hits
