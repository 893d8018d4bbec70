// What a namespace holds: memories by type and state, and its most mentioned entities.
// In Neo4j Browser, first run:
//   :param namespace => 'demo'
MATCH (m:Memory {namespace: $namespace})
WITH m.type AS type,
     count(*) AS memories,
     count(CASE WHEN m.superseded_by IS NULL THEN 1 END) AS current,
     count(CASE WHEN m.tier = 'cold' THEN 1 END) AS cold,
     round(avg(m.confidence), 3) AS mean_confidence
ORDER BY memories DESC
WITH collect({type: type, memories: memories, current: current, cold: cold,
              mean_confidence: mean_confidence}) AS by_type
RETURN by_type,
       COLLECT {
         MATCH (e:Entity {namespace: $namespace})<-[:MENTIONS]-(:Memory)
         WITH e, count(*) AS mentions
         ORDER BY mentions DESC, e.name
         LIMIT 10
         RETURN e.name + ' (' + toString(mentions) + ')'
       } AS top_entities,
       COUNT { MATCH (s:Session {namespace: $namespace}) } AS sessions
