// Retrievability flag and tier of memories (SPEC §4, §9.5), set by the consolidation pass.
// A row applies only while the memory's access_count is the one the pass read (a memory
// recalled since then is left for the next pass) and only when something changes.
// $rows: [{memory_id, retrievable, tier, access_count}]
UNWIND $rows AS row
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = row.memory_id
  AND coalesce(m.access_count, 0) = row.access_count
  AND (m.retrievable <> row.retrievable OR m.tier <> row.tier)
SET m.retrievable = row.retrievable,
    m.tier = row.tier
RETURN count(m) AS changed
