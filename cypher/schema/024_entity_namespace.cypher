// list_entities, stats, namespaces.
CREATE RANGE INDEX entity_namespace IF NOT EXISTS
FOR (e:Entity) ON (e.namespace)
