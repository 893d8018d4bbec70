// The memories still mentioning entities a forget deletes, after its own deletions and
// rewrites: any here were written since the forget was planned (it then plans again).
UNWIND $ids AS id
MATCH (e:Entity)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id = id
MATCH (e)<-[:MENTIONS]-(m:Memory)
RETURN collect(DISTINCT m.id) AS memory_ids
