CYPHER 25
// Neo4j 2026.06+: the vector (HNSW) index on memory embeddings, cosine (score (1 + cos) / 2),
// declaring the properties the in-index filters of read/vector_search, time_window_search_index
// and entity_search_index read (namespace, tier, retrievable, superseded_by, time_anchor): the
// graph walk skips other namespaces' memories instead of the caller post-filtering them.
// Quantization is set explicitly: since 2026.08 the default is binary, which loses much recall
// at 384 dimensions; none (graphmem's default) gives exact scores, scalar needs the caller's
// exact re-score. HNSW m 32 / ef_construction 200 (the server's are 16 / 100): a denser graph,
// so the caller's over-fetch reaches recall@10 >= 0.98 on random vectors at 100k (issue 13).
// The store recreates an index of another form (no filter properties, another quantization,
// m or ef_construction) when it opens (Neo4jStore.open).
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON m.embedding
WITH [m.namespace, m.tier, m.retrievable, m.superseded_by, m.time_anchor]
OPTIONS {indexConfig: {
  `vector.dimensions`: $dimensions,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.type`: $quantization,
  `vector.hnsw.m`: $hnsw_m,
  `vector.hnsw.ef_construction`: $hnsw_ef_construction
}}
