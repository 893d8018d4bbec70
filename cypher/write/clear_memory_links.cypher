// Remove the mentions and observation links of memories about to be re-linked; returns the
// sessions they were observed in, so that provenance left without memories can be pruned.
UNWIND $ids AS id
OPTIONAL MATCH (m:Memory)-[r:MENTIONS|OBSERVED_IN]->(x)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
WITH r, x.session_id AS session_id
DELETE r
RETURN collect(DISTINCT session_id) AS session_ids
