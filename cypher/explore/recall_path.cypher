// The path behind a recall: how a memory the graph retriever returned is reached from an
// entity the question named (the path `graphmem recall --explain` prints as
// "Maya —SISTER_OF→ Priya Raman —WORKS_AT→ Lumen Labs"). The 5 shortest paths of at most 3
// current relations from the entity to an entity the memory mentions, with the memories
// that asserted each relation; switch to the Graph view to see it.
// In Neo4j Browser, first run:
//   :param namespace => 'demo-maya'
//   :param name => 'Maya'
//   :param memory_id => '5f274a84'
MATCH (seed:Entity {namespace: $namespace})
WHERE toLower(seed.name) = toLower($name)
MATCH (m:Memory {namespace: $namespace})
WHERE m.id STARTS WITH $memory_id
MATCH (m)-[:MENTIONS]->(end:Entity)
WHERE end <> seed
MATCH p = (seed)-[:RELATES_TO*1..3]-(end)
WHERE all(r IN relationships(p) WHERE r.valid_until IS NULL)
WITH m, p, [r IN relationships(p) | r.memory_id] AS asserted_by
ORDER BY length(p)
LIMIT 5
OPTIONAL MATCH (evidence:Memory {namespace: $namespace})
WHERE evidence.id IN asserted_by
RETURN p, m, collect(evidence) AS asserted_by
ORDER BY length(p)
