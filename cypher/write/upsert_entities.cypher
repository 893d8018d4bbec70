// Upsert entities by (namespace, id); replaces name, kind and aliases.
// $rows: [{id, name, kind, aliases}]
UNWIND $rows AS row
MERGE (e:Entity {namespace: $namespace, id: row.id})
SET e.name = row.name,
    e.kind = row.kind,
    e.aliases = row.aliases
