// The entities of a namespace, by id (stubs created by a mention, without a name, left out);
// one row.
MATCH (e:Entity {namespace: $namespace})
WHERE e.name IS NOT NULL
WITH e ORDER BY e.id
RETURN collect({id: e.id, name: e.name, kind: e.kind, aliases: e.aliases}) AS entities
