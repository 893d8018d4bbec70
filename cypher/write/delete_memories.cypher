// Delete memories with their links; returns the sessions they were observed in.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
OPTIONAL MATCH (m)-[:OBSERVED_IN]->(t:Turn)
WITH m, collect(t.session_id) AS sessions
DETACH DELETE m
WITH sessions
UNWIND sessions AS session_id
RETURN collect(DISTINCT session_id) AS session_ids
