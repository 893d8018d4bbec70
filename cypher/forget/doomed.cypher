// What a forget is about to delete: the stored memories of $ids (and how many hold a vector),
// and the ids of the relations they asserted, of $relation_ids and touching $entity_ids.
CALL () {
  UNWIND $ids AS id
  MATCH (m:Memory)
  USING INDEX SEEK m:Memory(namespace, id)
  WHERE m.namespace = $namespace AND m.id = id
  RETURN count(m) AS memories, count(m.embedding) AS vectors
}
CALL () {
  OPTIONAL MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity)
  WHERE r.namespace = $namespace
    AND (r.memory_id IN $ids OR r.id IN $relation_ids
         OR a.id IN $entity_ids OR b.id IN $entity_ids)
  RETURN collect(DISTINCT r.id) AS relation_ids
}
RETURN memories, vectors, relation_ids
