// Association links touching any of $ids (either end), as (source_id < target_id) pairs,
// collected in one row.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
MATCH (m)-[r:ASSOCIATED_WITH]-(:Memory)
WITH DISTINCT r
WITH startNode(r).id AS source_id, endNode(r).id AS target_id, r.similarity AS similarity
ORDER BY source_id, target_id
RETURN collect({source_id: source_id, target_id: target_id, similarity: similarity}) AS links
