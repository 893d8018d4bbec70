// entity_search in one round trip. First the counts (no vector is read): the memories
// mentioning at least as many of the given entities as the k-th best ($floor is that count)
// are the only ones that can rank. When there are at most $max_exact of them, each gets the
// given entities it mentions with its strongest role (subject, then object, then mention) and
// its cosine to $embedding (0 without one, or for a zero vector; reading the stored vector is
// the costly part, hence the count first), ordered by entities mentioned, cosine, id. With
// more, hits is empty and the caller searches the tie through the vector index
// (read/entity_search_index), given floor and contenders. One row.
MATCH (e:Entity)<-[:MENTIONS]-(m:Memory)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id IN $entity_ids
  AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
WITH m, count(DISTINCT e) AS mentioned
ORDER BY mentioned DESC
WITH collect({m: m, mentioned: mentioned}) AS counted
WITH coalesce(counted[$k - 1].mentioned, 0) AS floor, counted
WITH floor, [c IN counted WHERE c.mentioned >= floor | c.m] AS tie
CALL (tie) {
  WITH tie, any(x IN coalesce($embedding, []) WHERE x <> 0.0) AS directed
  WHERE size(tie) <= $max_exact
  UNWIND tie AS m
  MATCH (m)-[r:MENTIONS]->(e:Entity)
  WHERE e.id IN $entity_ids
  WITH directed, m, e.id AS entity_id,
       min(CASE r.role WHEN 'subject' THEN 0 WHEN 'object' THEN 1 ELSE 2 END) AS rank
  ORDER BY entity_id
  WITH directed, m, collect(entity_id) AS entity_ids,
       collect(['subject', 'object', 'mention'][rank]) AS roles
  WITH m, entity_ids, roles,
       CASE WHEN directed
                 AND coalesce(m.embedding_nonzero,
                              any(x IN coalesce(m.embedding, []) WHERE x <> 0.0))
            THEN round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6)
            ELSE 0.0
       END AS similarity
  WITH m.id AS memory_id, entity_ids, roles, similarity
  ORDER BY size(entity_ids) DESC, similarity DESC, memory_id
  LIMIT $k
  RETURN collect({memory_id: memory_id, entity_ids: entity_ids, roles: roles,
                  similarity: similarity}) AS hits
}
RETURN floor, size(tie) AS contenders, hits
