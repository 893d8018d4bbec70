// Ids of the memories superseded by one of $ids: a fact's history, walked backwards (forget).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.superseded_by IN $ids
WITH m.id AS id ORDER BY id
RETURN collect(id) AS ids
