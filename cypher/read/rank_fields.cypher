// What ranking reads of each memory by id (graphmem.store.base.RankFields), missing ids
// skipped: one row holding one list per memory, in RankFields' field order, then the sessions
// the memory was observed in (what read/memory_sessions returns: the recall's session support
// reads them next, so they come in this same round trip). A recall scores every fused
// candidate with these and hydrates (read/get_memories) only the k it returns.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
RETURN collect([m.id, m.type, m.type_uncertain, m.confidence, m.access_count,
                toString(m.last_observed_at), m.stability, m.superseded_by IS NULL,
                m.retrievable,
                COLLECT {
                  MATCH (m)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(s:Session)
                  RETURN DISTINCT s.id
                }]) AS rows
