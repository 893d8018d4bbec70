// Vector (HNSW) index on memory embeddings, cosine. Its score is (1 + cos) / 2.
// $dimensions is the configured embedding dimension (Neo4j 5.26 accepts a parameter in
// OPTIONS); the store checks the dimension of an existing index at open().
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON m.embedding
OPTIONS {indexConfig: {
  `vector.dimensions`: $dimensions,
  `vector.similarity_function`: 'cosine'
}}
