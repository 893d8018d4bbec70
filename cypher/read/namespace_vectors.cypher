// The stored vectors of a namespace's searchable memories (same filters as
// read/vector_search_exact), for an exact search of many query rows computed by the caller:
// each vector is read and sent once. Used for small namespaces only; one row.
MATCH (m:Memory {namespace: $namespace})
WHERE ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
  AND ($include_cold OR m.tier = 'hot')
WITH m.id AS memory_id, m.embedding AS vector
WHERE vector IS NOT NULL
RETURN collect(memory_id) AS ids, collect(vector) AS vectors
