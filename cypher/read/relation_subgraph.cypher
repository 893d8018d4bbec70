// Distinct current relations (valid_until unset) on paths of at most $max_hops (<= 3) from the
// seed entities, walking relations in either direction: first the entities fewer than
// $max_hops steps away (a breadth-first, pruning expansion: each entity once, at its depth),
// then every current relation touching one of them.
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
RETURN r.id AS id, startNode(r).id AS source_id, endNode(r).id AS target_id,
       r.predicate AS predicate, r.confidence AS confidence, r.memory_id AS memory_id,
       r.valid_from AS valid_from, r.valid_until AS valid_until
ORDER BY id
