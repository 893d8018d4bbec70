// Memories mentioning any of the given entities: per memory the entities it mentions, each
// with its strongest role (subject, then object, then mention), and the cosine to $embedding
// (0 without one, or for a zero vector). Ordered by entities mentioned, cosine, id.
MATCH (e:Entity)<-[r:MENTIONS]-(m:Memory)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id IN $entity_ids
  AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
WITH m, e.id AS entity_id,
     min(CASE r.role WHEN 'subject' THEN 0 WHEN 'object' THEN 1 ELSE 2 END) AS rank
ORDER BY entity_id
WITH m, collect(entity_id) AS entity_ids,
     collect(['subject', 'object', 'mention'][rank]) AS roles
WITH m, entity_ids, roles,
     CASE WHEN any(x IN coalesce($embedding, []) WHERE x <> 0.0)
               AND any(x IN coalesce(m.embedding, []) WHERE x <> 0.0)
          THEN round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6)
          ELSE 0.0
     END AS similarity
RETURN m.id AS memory_id, entity_ids, roles, similarity
ORDER BY size(entity_ids) DESC, similarity DESC, memory_id
LIMIT $k
