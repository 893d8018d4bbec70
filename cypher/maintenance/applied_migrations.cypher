// Names of the schema steps already applied to this database.
MATCH (s:SchemaMigration)
RETURN s.name AS name
ORDER BY name
