// Drop the fulltext index memory_content, for Neo4jStore.open to recreate it with every field
// of schema/011_memory_content (older databases indexed content alone); idempotent.
DROP INDEX memory_content IF EXISTS
