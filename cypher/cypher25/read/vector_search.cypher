CYPHER 25
// Neo4j 2026.06+: approximate top-k by cosine for each query vector, filtered INSIDE the
// vector index (the SEARCH clause; the index declares namespace, tier, retrievable and
// superseded_by): the walk goes on until it has $fetch_k memories of the namespace that pass
// the filter, so no share of other namespaces has to be over-fetched. SEARCH accepts only
// AND-joined predicates (no OR), hence one branch per visibility. Scores are recomputed
// exactly on the stored vectors (the index quantises) and returned as cosine in [-1, 1],
// rounded to 6 decimals; the caller over-fetches ($fetch_k > $k) for recall.
WITH CASE WHEN $include_cold THEN ['hot', 'cold'] ELSE ['hot'] END AS tiers
UNWIND range(0, size($embeddings) - 1) AS row
CALL (row, tiers) {
  WHEN $include_history THEN {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embeddings[row]
                   WHERE m.namespace = $namespace AND m.tier IN tiers
                   LIMIT $fetch_k)
    RETURN m
  }
  ELSE {
    MATCH (m:Memory)
      SEARCH m IN (VECTOR INDEX memory_embedding FOR $embeddings[row]
                   WHERE m.namespace = $namespace AND m.tier IN tiers AND m.retrievable
                     AND m.superseded_by IS NULL
                   LIMIT $fetch_k)
    RETURN m
  }
}
WITH row, m.id AS memory_id,
     round(2 * vector.similarity.cosine(m.embedding, $embeddings[row]) - 1, 6) AS score
ORDER BY row, score DESC, memory_id
WITH row, collect({memory_id: memory_id, score: score})[..$k] AS hits
RETURN row, hits
