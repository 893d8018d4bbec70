// entity_search, first pass: counts only (no vector is read). The memories mentioning at
// least as many of the given entities as the k-th best ($floor is that count) are the only
// ones that can rank: their number, and their ids when there are at most $max_exact of them
// (else the caller searches the tie through the vector index: read/entity_search_index).
MATCH (e:Entity)<-[:MENTIONS]-(m:Memory)
USING INDEX SEEK e:Entity(namespace, id)
WHERE e.namespace = $namespace AND e.id IN $entity_ids
  AND ($include_history OR (m.superseded_by IS NULL AND m.retrievable))
WITH m.id AS memory_id, count(DISTINCT e) AS mentioned
ORDER BY mentioned DESC
WITH collect({memory_id: memory_id, mentioned: mentioned}) AS counted
WITH counted, coalesce(counted[$k - 1].mentioned, 0) AS floor
WITH floor, [c IN counted WHERE c.mentioned >= floor | c.memory_id] AS ids
RETURN floor, size(ids) AS contenders, CASE WHEN size(ids) <= $max_exact THEN ids ELSE [] END AS ids
