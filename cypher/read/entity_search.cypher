// entity_search, second pass, over the contenders of read/entity_contenders ($ids): per
// memory the given entities it mentions, each with its strongest role (subject, then object,
// then mention), and the cosine to $embedding (0 without one, or for a zero vector; reading
// the stored vector is the costly part, hence the first pass). Ordered by entities mentioned,
// cosine, id; one row.
WITH any(x IN coalesce($embedding, []) WHERE x <> 0.0) AS directed
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
MATCH (m)-[r:MENTIONS]->(e:Entity)
WHERE e.id IN $entity_ids
WITH directed, m, e.id AS entity_id,
     min(CASE r.role WHEN 'subject' THEN 0 WHEN 'object' THEN 1 ELSE 2 END) AS rank
ORDER BY entity_id
WITH directed, m, collect(entity_id) AS entity_ids,
     collect(['subject', 'object', 'mention'][rank]) AS roles
WITH m, entity_ids, roles,
     CASE WHEN directed
               AND coalesce(m.embedding_nonzero, any(x IN coalesce(m.embedding, []) WHERE x <> 0.0))
          THEN round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6)
          ELSE 0.0
     END AS similarity
WITH m.id AS memory_id, entity_ids, roles, similarity
ORDER BY size(entity_ids) DESC, similarity DESC, memory_id
LIMIT $k
RETURN collect({memory_id: memory_id, entity_ids: entity_ids, roles: roles,
                similarity: similarity}) AS hits
