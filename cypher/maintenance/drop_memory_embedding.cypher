// Drop the vector index, for Neo4jStore.open to recreate it in the form the server's Cypher
// dialect wants (see cypher25/schema/010_memory_embedding); idempotent.
DROP INDEX memory_embedding IF EXISTS
