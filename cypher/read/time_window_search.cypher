// Memories whose time anchor (event time, else first observation; a DATETIME) lies in
// [$start, $end). Score: the cosine to $embedding when given (0 for a memory without an
// embedding, or for a zero vector), else 1 / (1 + |anchor - centre| in days); $bounds_sum_us
// is start + end in epoch microseconds, so 2 * anchor - $bounds_sum_us is twice the distance
// to the centre, computed exactly on integers. One row.
// Counting the window first (from the range index: no property read), the statement computes
// nothing when it holds more than $max_exact memories: the row carries empty hits and the
// count, and the caller searches through the vector index (read/time_window_search_index).
CALL () {
  MATCH (m:Memory)
  USING INDEX SEEK m:Memory(namespace, time_anchor)
  WHERE m.namespace = $namespace AND m.time_anchor >= $start AND m.time_anchor < $end
  RETURN count(m) AS inside
}
CALL (inside) {
  WITH $embedding IS NOT NULL AS ranked,
       any(x IN coalesce($embedding, []) WHERE x <> 0.0) AS directed
  WHERE inside <= $max_exact
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
RETURN hits, inside
