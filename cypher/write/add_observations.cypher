// Provenance: (:Memory)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(:Session).
// An observation without a turn id is linked to the session's turn ''.
// $rows: [{memory_id, session_id, turn_id, observed_at}]
UNWIND $rows AS row
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = row.memory_id
MERGE (s:Session {namespace: $namespace, id: row.session_id})
MERGE (t:Turn {namespace: $namespace, session_id: row.session_id, id: row.turn_id})
MERGE (t)-[:IN_SESSION]->(s)
MERGE (m)-[o:OBSERVED_IN]->(t)
ON CREATE SET o.observed_at = row.observed_at
