// The history of a memory: the memories it superseded or was superseded by, and every other
// memory about the same subject and predicate (SPEC §2.11), oldest first.
// In Neo4j Browser, first run:
//   :param namespace => 'demo'
//   :param memory_id => '<a memory id>'
MATCH (m:Memory {namespace: $namespace, id: $memory_id})
MATCH (h:Memory {namespace: $namespace})
WHERE h.id = m.id OR h.superseded_by = m.id OR h.id = m.superseded_by
   OR (m.subject IS NOT NULL AND h.subject = m.subject AND h.predicate = m.predicate)
RETURN h.id = m.id AS this, h.content AS content, h.confidence AS confidence,
       h.created_at AS created_at, h.valid_until AS valid_until,
       h.superseded_by AS superseded_by, h.id AS id
ORDER BY created_at, id
