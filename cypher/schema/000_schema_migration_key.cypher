// Applied schema steps are recorded as (:SchemaMigration {name}) nodes: one per name.
CREATE CONSTRAINT schema_migration_key IF NOT EXISTS
FOR (s:SchemaMigration) REQUIRE s.name IS UNIQUE
