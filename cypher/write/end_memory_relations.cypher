// Relations asserted by superseded memories stop being current with them (SPEC §9.9): a
// current relation whose memory_id is one of these memories gets that memory's valid_until.
// $rows: [{memory_id, valid_until}]
UNWIND $rows AS row
MATCH (:Entity)-[r:RELATES_TO]->(:Entity)
USING INDEX SEEK r:RELATES_TO(namespace, memory_id)
WHERE r.namespace = $namespace AND r.memory_id = row.memory_id AND r.valid_until IS NULL
SET r.valid_until = row.valid_until
