// Retrievability flag and tier of memories (SPEC §4, §9.5), set by the consolidation pass.
// A row applies only while the memory's access_count and version are the ones the pass read (a
// memory recalled or written since then is left for the next pass) and only when something
// changes; an applied row raises the version. The first SET rewrites the version it reads, which
// takes the node's write lock before the checks read the memory (no writer slips in between).
// $rows: [{memory_id, retrievable, tier, access_count, version}]
UNWIND $rows AS row
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = row.memory_id
SET m.version = coalesce(m.version, 0)
WITH m, row
WHERE coalesce(m.access_count, 0) = row.access_count
  AND m.version = row.version
  AND (m.retrievable <> row.retrievable OR m.tier <> row.tier)
SET m.retrievable = row.retrievable,
    m.tier = row.tier,
    m.version = m.version + 1
RETURN count(m) AS changed
