// Association links between memories of one namespace (SPEC §4), one per unordered pair:
// the caller sends source_id < target_id. MERGE makes the upsert idempotent; a link naming
// a missing memory matches nothing and is skipped. Returns how many links are new.
// $rows: [{source_id, target_id, similarity}]
UNWIND $rows AS row
MATCH (a:Memory)
USING INDEX SEEK a:Memory(namespace, id)
WHERE a.namespace = $namespace AND a.id = row.source_id
MATCH (b:Memory)
USING INDEX SEEK b:Memory(namespace, id)
WHERE b.namespace = $namespace AND b.id = row.target_id
MERGE (a)-[r:ASSOCIATED_WITH]->(b)
WITH r, row, r.similarity IS NULL AS created
SET r.similarity = row.similarity
RETURN count(CASE WHEN created THEN 1 END) AS created
