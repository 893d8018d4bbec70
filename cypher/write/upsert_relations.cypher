// Upsert relations by (namespace, id) as (:Entity)-[:RELATES_TO]->(:Entity); the predicate is a
// property because relationship types cannot be parameters. A relation whose ends changed is
// moved; missing end entities are created as stubs.
// $rows: [{id, source_id, target_id,
//          props: {predicate, confidence, memory_id, valid_from, valid_until, lemma}}]
UNWIND $rows AS row
OPTIONAL MATCH (a:Entity)-[old:RELATES_TO]->(b:Entity)
USING INDEX SEEK old:RELATES_TO(namespace, id)
WHERE old.namespace = $namespace AND old.id = row.id
  AND (a.id <> row.source_id OR b.id <> row.target_id)
DELETE old
WITH row
MERGE (s:Entity {namespace: $namespace, id: row.source_id})
MERGE (t:Entity {namespace: $namespace, id: row.target_id})
MERGE (s)-[r:RELATES_TO {namespace: $namespace, id: row.id}]->(t)
SET r += row.props
