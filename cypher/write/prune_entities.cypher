// Delete the given entities that nothing supports any more: no memory mentions them and no
// relation touches them (forgetting a session leaves no entity only it supported).
// $ids: entity ids
UNWIND $ids AS id
MATCH (e:Entity)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id = id
  AND NOT EXISTS { (e)<-[:MENTIONS]-(:Memory) }
  AND NOT EXISTS { (e)-[:RELATES_TO]-(:Entity) }
DETACH DELETE e
