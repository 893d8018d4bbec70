// time_window_search with an embedding when the window holds many memories: the $fetch_k
// nearest neighbours of $embedding (HNSW), post-filtered by namespace, window and visibility,
// re-scored exactly (same score as read/time_window_search). The caller falls back to
// read/time_window_search when fewer than $k come back. One row.
CALL db.index.vector.queryNodes('memory_embedding', $fetch_k, $embedding)
YIELD node
WHERE node.namespace = $namespace AND node.time_anchor >= $start AND node.time_anchor < $end
  AND ($include_history OR (node.superseded_by IS NULL AND node.retrievable))
WITH node.id AS memory_id,
     round(2 * vector.similarity.cosine(node.embedding, $embedding) - 1, 6) AS score
ORDER BY score DESC, memory_id
LIMIT $k
RETURN collect({memory_id: memory_id, score: score}) AS hits
