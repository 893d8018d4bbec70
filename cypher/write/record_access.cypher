// Access updates (SPEC §4), applied in order; unknown ids are skipped. The first SET reads the
// count it raises, so it takes the node's write lock first: concurrent updates add up, and what
// follows reads the latest committed memory. A reactivating update (cold reactivation, seed 003)
// makes the memory hot and retrievable, and raises its version when that changes either (a
// writer that read it before then re-reads); plain access updates leave the version alone.
// $rows: [{memory_id, accessed_at, stability, salience, session_id, reactivate}]
UNWIND $rows AS row
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = row.memory_id
SET m.access_count = coalesce(m.access_count, 0) + 1
WITH m, row, row.reactivate AND (m.tier <> 'hot' OR NOT coalesce(m.retrievable, true)) AS revived
SET m.last_accessed_at = row.accessed_at,
    m.stability = row.stability,
    m.salience = row.salience,
    m.accessed_sessions = CASE
      WHEN row.session_id IS NULL OR row.session_id IN coalesce(m.accessed_sessions, [])
        THEN coalesce(m.accessed_sessions, [])
      ELSE coalesce(m.accessed_sessions, []) + row.session_id
    END,
    m.tier = CASE WHEN revived THEN 'hot' ELSE m.tier END,
    m.retrievable = CASE WHEN revived THEN true ELSE m.retrievable END,
    m.version = CASE WHEN revived THEN coalesce(m.version, 0) + 1 ELSE m.version END
