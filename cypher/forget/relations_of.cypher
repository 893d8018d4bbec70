// Every relation, current or ended, asserted by one of $memory_ids or touching one of
// $entity_ids, each once, by id (what a forget deletes). One row.
MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE r.namespace = $namespace
  AND (r.memory_id IN $memory_ids OR a.id IN $entity_ids OR b.id IN $entity_ids)
WITH DISTINCT r, a, b
ORDER BY r.id
RETURN collect({id: r.id, source_id: a.id, target_id: b.id, predicate: r.predicate,
                confidence: r.confidence, memory_id: r.memory_id,
                valid_from: toString(r.valid_from),
                valid_until: toString(r.valid_until), lemma: r.lemma}) AS relations
