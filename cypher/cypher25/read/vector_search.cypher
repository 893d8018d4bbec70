CYPHER 25
// Neo4j 2026.06+: approximate top-k by cosine for each query vector, filtered INSIDE the
// vector index (the SEARCH clause; the index declares namespace, tier, retrievable and
// superseded_by): the walk goes on until it has $fetch_k memories of the namespace that pass
// the filter, so no share of other namespaces has to be over-fetched. SEARCH accepts only
// AND-joined predicates (no OR), hence one branch per visibility. Returned as cosine in
// [-1, 1] (the index scores (1 + cos) / 2), rounded to 6 decimals: the index's own score when
// it holds the vectors unquantised ($exact_scores), else recomputed on the stored vectors;
// the caller over-fetches ($fetch_k > $k) for recall.
WITH CASE WHEN $include_cold THEN ['hot', 'cold'] ELSE ['hot'] END AS tiers
UNWIND range(0, size($embeddings) - 1) AS row
CALL (row, tiers) {
  WHEN $include_history THEN {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embeddings[row]
                   WHERE m.namespace = $namespace AND m.tier IN tiers
                   LIMIT $fetch_k) SCORE AS similarity
    RETURN m, similarity
  }
  ELSE {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embeddings[row]
                   WHERE m.namespace = $namespace AND m.tier IN tiers AND m.retrievable
                     AND m.superseded_by IS NULL
                   LIMIT $fetch_k) SCORE AS similarity
    RETURN m, similarity
  }
}
WITH row, m.id AS memory_id,
     round(2 * CASE WHEN $exact_scores THEN similarity
                    ELSE vector.similarity.cosine(m.embedding, $embeddings[row]) END - 1, 6)
       AS score
ORDER BY row, score DESC, memory_id
WITH row, collect({memory_id: memory_id, score: score})[..$k] AS hits
RETURN row, hits
