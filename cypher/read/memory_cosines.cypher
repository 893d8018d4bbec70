// The cosine to $embedding, in [-1, 1] rounded to 6 decimals, of each stored memory of $ids
// (any tier, current or not): 0 when the query or the stored vector is zero ($directed is false
// for a zero query). Only the numbers cross back, never the vectors. One row.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id AND m.embedding IS NOT NULL
RETURN collect([m.id,
                CASE WHEN $directed
                          AND coalesce(m.embedding_nonzero,
                                       any(x IN m.embedding WHERE x <> 0.0))
                     THEN round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6)
                     ELSE 0.0
                END]) AS rows
