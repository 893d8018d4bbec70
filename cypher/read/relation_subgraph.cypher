// Distinct current relations (valid_until unset) on paths of at most $max_hops (<= 3) from the
// seed entities, walking relations in either direction: first the entities fewer than
// $max_hops steps away (a breadth-first, pruning expansion: each entity once, at its depth),
// then every current relation touching one of them. One row.
MATCH (seed:Entity)
USING INDEX SEEK seed:Entity(namespace, id)
WHERE seed.namespace = $namespace AND seed.id IN $entity_ids
MATCH p = (seed)-[:RELATES_TO*0..2]-(inner:Entity)
WHERE all(r IN relationships(p) WHERE r.valid_until IS NULL)
WITH inner, min(length(p)) AS depth
WHERE depth < $max_hops
MATCH (inner)-[r:RELATES_TO]-(:Entity)
WHERE r.valid_until IS NULL
WITH DISTINCT r
WITH r ORDER BY r.id
RETURN collect({id: r.id, source_id: startNode(r).id, target_id: endNode(r).id,
                predicate: r.predicate, confidence: r.confidence, memory_id: r.memory_id,
                valid_from: toString(r.valid_from),
                valid_until: toString(r.valid_until), lemma: r.lemma}) AS relations
