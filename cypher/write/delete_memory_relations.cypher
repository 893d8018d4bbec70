// Delete the relations that deleted memories are the source of.
UNWIND $ids AS id
MATCH (:Entity)-[r:RELATES_TO]->(:Entity)
USING INDEX SEEK r:RELATES_TO(namespace, memory_id)
WHERE r.namespace = $namespace AND r.memory_id = id
DELETE r
