// Access updates (SPEC §4), applied in order; unknown ids are skipped.
// $rows: [{memory_id, accessed_at, stability, salience, session_id, reactivate}]
UNWIND $rows AS row
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = row.memory_id
SET m.access_count = coalesce(m.access_count, 0) + 1,
    m.last_accessed_at = row.accessed_at,
    m.stability = row.stability,
    m.salience = row.salience,
    m.accessed_sessions = CASE
      WHEN row.session_id IS NULL OR row.session_id IN coalesce(m.accessed_sessions, [])
        THEN coalesce(m.accessed_sessions, [])
      ELSE coalesce(m.accessed_sessions, []) + row.session_id
    END,
    m.tier = CASE WHEN row.reactivate THEN 'hot' ELSE m.tier END
