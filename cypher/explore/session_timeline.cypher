// A session's turns in order, with the memories observed in each.
// In Neo4j Browser, first run:
//   :param namespace => 'demo'
//   :param session_id => 's1'
MATCH (s:Session {namespace: $namespace, id: $session_id})<-[:IN_SESSION]-(t:Turn)
MATCH (m:Memory)-[o:OBSERVED_IN]->(t)
WITH t, o, m
ORDER BY o.observed_at, m.id
RETURN t.id AS turn, min(o.observed_at) AS first_observed,
       collect(m.type + ': ' + m.content) AS memories
ORDER BY first_observed, turn
