// The sessions each memory was observed in, by id (graphmem.store.base.MemoryStore
// .memory_sessions): one row holding [memory id, session ids] per memory with a session,
// through the provenance path (:Memory)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(:Session).
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
MATCH (m)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(s:Session)
WITH m.id AS memory_id, collect(DISTINCT s.id) AS sessions
RETURN collect([memory_id, sessions]) AS rows
