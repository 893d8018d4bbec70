// Memories that mention an entity (by name or alias), with their role and provenance.
// In Neo4j Browser, first run:
//   :param namespace => 'demo'
//   :param name => 'Alice'
MATCH (e:Entity {namespace: $namespace})
WHERE toLower(e.name) = toLower($name)
   OR any(alias IN coalesce(e.aliases, []) WHERE toLower(alias) = toLower($name))
MATCH (m:Memory)-[r:MENTIONS]->(e)
OPTIONAL MATCH (m)-[:OBSERVED_IN]->(t:Turn)-[:IN_SESSION]->(s:Session)
WITH m, r, collect(DISTINCT s.id + CASE WHEN t.id = '' THEN '' ELSE '/' + t.id END) AS seen_in
RETURN m.content AS memory, m.type AS type, r.role AS role, m.confidence AS confidence,
       m.n AS observations, m.superseded_by IS NOT NULL AS superseded, seen_in, m.id AS id
ORDER BY superseded, confidence DESC, id
