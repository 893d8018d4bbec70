CYPHER 25
// Neo4j 2026.06+: time_window_search with an embedding when the window holds many memories:
// the $fetch_k nearest neighbours of $embedding among the namespace's memories anchored in
// [$start, $end) (the vector index declares namespace and time_anchor: the filter runs inside
// its walk, which goes on until it has $fetch_k of them or the window is exhausted), visible
// ones only unless $include_history; re-scored exactly (same score as read/time_window_search),
// the best $k. One row.
CALL () {
  WHEN $include_history THEN {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embedding
                   WHERE m.namespace = $namespace AND m.time_anchor >= $start
                     AND m.time_anchor < $end
                   LIMIT $fetch_k)
    RETURN m
  }
  ELSE {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embedding
                   WHERE m.namespace = $namespace AND m.time_anchor >= $start
                     AND m.time_anchor < $end AND m.retrievable AND m.superseded_by IS NULL
                   LIMIT $fetch_k)
    RETURN m
  }
}
WITH m.id AS memory_id,
     round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6) AS score
ORDER BY score DESC, memory_id
LIMIT $k
RETURN collect({memory_id: memory_id, score: score}) AS hits
