// The sessions of a namespace (those with an observation), sorted. One row.
MATCH (s:Session)
WHERE s.namespace = $namespace
WITH s.id AS id ORDER BY id
RETURN collect(id) AS ids
