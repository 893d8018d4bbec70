// One memory per (namespace, id). Composite uniqueness works on Community 5.26.
// Its backing range index serves every (namespace, id) lookup and makes MERGE safe
// under concurrent writers.
CREATE CONSTRAINT memory_key IF NOT EXISTS
FOR (m:Memory) REQUIRE (m.namespace, m.id) IS UNIQUE
