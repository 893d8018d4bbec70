// An entity's neighbourhood over current relations, up to 2 hops, as a graph (switch to
// the Graph view); each RELATES_TO edge carries its predicate and confidence.
// In Neo4j Browser, first run:
//   :param namespace => 'demo'
//   :param name => 'Alice'
MATCH (e:Entity {namespace: $namespace})
WHERE toLower(e.name) = toLower($name)
MATCH p = (e)-[:RELATES_TO*1..2]-(:Entity)
WHERE all(r IN relationships(p) WHERE r.valid_until IS NULL)
RETURN p
LIMIT 200
