// Delete forgotten entities with every link to them (mentions and relations).
UNWIND $ids AS id
MATCH (e:Entity)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id = id
DETACH DELETE e
