// What ranking reads of each memory by id (graphmem.store.base.RankFields), missing ids
// skipped: one row holding one list per memory, in RankFields' field order. A recall scores
// every fused candidate with these and hydrates (read/get_memories) only the k it returns.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
RETURN collect([m.id, m.type, m.type_uncertain, m.confidence, m.access_count,
                toString(m.last_observed_at), m.stability, m.superseded_by IS NULL,
                m.retrievable]) AS rows
