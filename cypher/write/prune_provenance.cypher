// Delete the turns of these sessions that no memory is observed in any more, then the
// sessions left without turns (forgetting a session leaves no trace of it).
UNWIND $session_ids AS session_id
MATCH (s:Session)
USING INDEX SEEK s:Session(namespace, id)
WHERE s.namespace = $namespace AND s.id = session_id
OPTIONAL MATCH (s)<-[:IN_SESSION]-(t:Turn)
WHERE NOT EXISTS { (t)<-[:OBSERVED_IN]-(:Memory) }
DETACH DELETE t
WITH DISTINCT s
WHERE NOT EXISTS { (s)<-[:IN_SESSION]-(:Turn) }
DETACH DELETE s
