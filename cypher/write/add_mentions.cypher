// Link memories to the entities they mention, in order (ord). An entity that is not stored
// yet is created as a stub (namespace and id only) and filled in when it is upserted.
// $rows: [{memory_id, entity_id, role, ord}]
UNWIND $rows AS row
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = row.memory_id
MERGE (e:Entity {namespace: $namespace, id: row.entity_id})
CREATE (m)-[:MENTIONS {role: row.role, ord: row.ord}]->(e)
