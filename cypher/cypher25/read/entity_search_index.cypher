CYPHER 25
// Neo4j 2026.06+: entity_search when many memories tie at the k-th entity count ($floor, from
// read/entity_contenders): every memory mentioning more than $floor of the entities (fewer
// than k) plus, from the tie, those among the $fetch_k nearest neighbours of $embedding in the
// namespace (the vector index filters by namespace and visibility inside its walk); then the
// same roles, exact cosine and order as read/entity_search. The caller falls back to
// read/entity_search when fewer than $k come back. One row.
CALL () {
  MATCH (e:Entity)<-[:MENTIONS]-(m:Memory)
  USING INDEX SEEK e:Entity(namespace, id)
  WHERE e.namespace = $namespace AND e.id IN $entity_ids
    AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
  WITH m, count(DISTINCT e) AS mentioned
  WHERE mentioned > $floor
  RETURN m
  UNION
  CALL () {
    WHEN $include_history THEN {
      MATCH (node:Memory)
        SEARCH node IN (VECTOR INDEX memory_embedding FOR $embedding
                        WHERE node.namespace = $namespace
                        LIMIT $fetch_k)
      RETURN node
    }
    ELSE {
      MATCH (node:Memory)
        SEARCH node IN (VECTOR INDEX memory_embedding FOR $embedding
                        WHERE node.namespace = $namespace AND node.retrievable
                          AND node.superseded_by IS NULL
                        LIMIT $fetch_k)
      RETURN node
    }
  }
  WITH node
  WHERE size(COLLECT {
      MATCH (node)-[:MENTIONS]->(e:Entity)
      WHERE e.id IN $entity_ids
      RETURN DISTINCT e.id
    }) >= $floor
  RETURN node AS m
}
MATCH (m)-[r:MENTIONS]->(e:Entity)
WHERE e.id IN $entity_ids
WITH m, e.id AS entity_id,
     min(CASE r.role WHEN 'subject' THEN 0 WHEN 'object' THEN 1 ELSE 2 END) AS rank
ORDER BY entity_id
WITH m, collect(entity_id) AS entity_ids, collect(['subject', 'object', 'mention'][rank]) AS roles
WITH m.id AS memory_id, entity_ids, roles,
     round(2 * vector.similarity.cosine(m.embedding, $embedding) - 1, 6) AS similarity
ORDER BY size(entity_ids) DESC, similarity DESC, memory_id
LIMIT $k
RETURN collect({memory_id: memory_id, entity_ids: entity_ids, roles: roles,
                similarity: similarity}) AS hits
