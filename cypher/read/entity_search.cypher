// Memories mentioning any of the given entities: per memory the entities it mentions, each
// with its strongest role (subject, then object, then mention), and the cosine to $embedding
// (0 without one, or for a zero vector). Ordered by entities mentioned, cosine, id; one row.
// The cosine reads the stored vector (the costly part), so it is computed only for the
// memories that mention at least as many entities as the k-th best: no other can rank.
WITH any(x IN coalesce($embedding, []) WHERE x <> 0.0) AS directed
MATCH (e:Entity)<-[r:MENTIONS]-(m:Memory)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id IN $entity_ids
  AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
WITH directed, m, e.id AS entity_id,
     min(CASE r.role WHEN 'subject' THEN 0 WHEN 'object' THEN 1 ELSE 2 END) AS rank
ORDER BY entity_id
WITH directed, m, collect(entity_id) AS entity_ids,
     collect(['subject', 'object', 'mention'][rank]) AS roles
ORDER BY size(entity_ids) DESC
WITH directed, collect({m: m, entity_ids: entity_ids, roles: roles}) AS found
WITH directed, found,
     CASE WHEN size(found) > $k THEN size(found[$k - 1].entity_ids) ELSE 0 END AS floor
UNWIND found AS f
WITH directed, floor, f.m AS m, f.entity_ids AS entity_ids, f.roles AS roles
WHERE size(entity_ids) >= floor
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
