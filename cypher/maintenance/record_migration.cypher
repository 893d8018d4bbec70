// Record one applied schema step (after it ran in its own transaction).
MERGE (s:SchemaMigration {name: $name})
ON CREATE SET s.applied_at = datetime()
