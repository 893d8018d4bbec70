// Counts of a namespace; sessions are the sessions with an observation, but for the
// pseudo-sessions of confirmations and corrections made outside any conversation.
MATCH (m:Memory {namespace: $namespace})
WITH count(m) AS memories,
     count(CASE WHEN m.superseded_by IS NULL THEN 1 END) AS current,
     count(m.superseded_by) AS superseded,
     count(CASE WHEN m.tier = 'cold' THEN 1 END) AS cold,
     count(CASE WHEN NOT m.retrievable THEN 1 END) AS unretrievable
RETURN memories, current, superseded, cold, unretrievable,
       COUNT { MATCH (e:Entity {namespace: $namespace}) WHERE e.name IS NOT NULL } AS entities,
       COUNT { MATCH (:Entity)-[:RELATES_TO {namespace: $namespace}]->(:Entity) } AS relations,
       COUNT {
         MATCH (s:Session {namespace: $namespace})
         WHERE NOT s.id IN ['confirmation', 'correction']
       } AS sessions
