// The entities of a namespace, by id (stubs created by a mention, without a name, left out).
MATCH (e:Entity {namespace: $namespace})
WHERE e.name IS NOT NULL
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.aliases AS aliases
ORDER BY id
