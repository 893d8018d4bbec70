// Delete relations by id, whoever asserted them (every relation touching a forgotten entity).
UNWIND $ids AS id
MATCH (:Entity)-[r:RELATES_TO]->(:Entity)
WHERE r.namespace = $namespace AND r.id = id
DELETE r
