// One entity per (namespace, id).
CREATE CONSTRAINT entity_key IF NOT EXISTS
FOR (e:Entity) REQUIRE (e.namespace, e.id) IS UNIQUE
