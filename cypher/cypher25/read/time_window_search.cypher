CYPHER 25
// Neo4j 2026.06+: read/time_window_search in one round trip whatever the window's size.
// Memories whose time anchor (event time, else first observation; a DATETIME) lies in
// [$start, $end), counted first from the range index (no property read). Up to $max_exact
// of them are scored exactly as in the base statement: the cosine to $embedding when given
// (0 for a memory without an embedding, or for a zero vector), else 1 / (1 + |anchor - centre|
// in days), $bounds_sum_us being start + end in epoch microseconds. A wider window (the caller
// passes $max_exact past the count only with an embedding) goes through the vector index,
// which declares namespace and time_anchor and filters inside its walk: the $fetch_k nearest
// neighbours of $embedding in the window (visible ones only unless $include_history), scored
// by the index when it holds the vectors unquantised ($exact_scores), else re-scored on the
// stored vectors, the best $k. One row: hits and the count.
CALL () {
  MATCH (m:Memory)
  USING INDEX SEEK m:Memory(namespace, time_anchor)
  WHERE m.namespace = $namespace AND m.time_anchor >= $start AND m.time_anchor < $end
  RETURN count(m) AS inside
}
CALL (inside) {
  WHEN inside <= $max_exact THEN {
    WITH $embedding IS NOT NULL AS ranked,
         any(x IN coalesce($embedding, []) WHERE x <> 0.0) AS directed
    MATCH (m:Memory)
    USING INDEX SEEK m:Memory(namespace, time_anchor)
    WHERE m.namespace = $namespace AND m.time_anchor >= $start AND m.time_anchor < $end
      AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
    WITH m,
         CASE WHEN NOT ranked
              THEN 1.0 / (1.0 + abs(2 * (m.time_anchor.epochSeconds * 1000000
                                         + m.time_anchor.microsecond) - $bounds_sum_us)
                                / 172800000000.0)
              WHEN directed
                   AND coalesce(m.embedding_nonzero,
                                any(x IN coalesce(m.embedding, []) WHERE x <> 0.0))
              THEN round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6)
              ELSE 0.0
         END AS score
    WITH m.id AS memory_id, score
    ORDER BY score DESC, memory_id
    LIMIT $k
    RETURN collect({memory_id: memory_id, score: score}) AS hits
  }
  WHEN $include_history THEN {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embedding
                   WHERE m.namespace = $namespace AND m.time_anchor >= $start
                     AND m.time_anchor < $end
                   LIMIT $fetch_k) SCORE AS similarity
    WITH m.id AS memory_id,
         round(2 * CASE WHEN $exact_scores THEN similarity
                        ELSE vector.similarity.cosine(m.embedding, $embedding) END - 1, 6)
           AS score
    ORDER BY score DESC, memory_id
    LIMIT $k
    RETURN collect({memory_id: memory_id, score: score}) AS hits
  }
  ELSE {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embedding
                   WHERE m.namespace = $namespace AND m.time_anchor >= $start
                     AND m.time_anchor < $end AND m.retrievable AND m.superseded_by IS NULL
                   LIMIT $fetch_k) SCORE AS similarity
    WITH m.id AS memory_id,
         round(2 * CASE WHEN $exact_scores THEN similarity
                        ELSE vector.similarity.cosine(m.embedding, $embedding) END - 1, 6)
           AS score
    ORDER BY score DESC, memory_id
    LIMIT $k
    RETURN collect({memory_id: memory_id, score: score}) AS hits
  }
}
RETURN hits, inside
