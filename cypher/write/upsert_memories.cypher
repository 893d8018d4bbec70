// Upsert memories by (namespace, id), locked and versioned by write/claim_memories. row.props
// holds every stored property but the access bookkeeping and the version; a null value removes
// that property. row.access holds the access bookkeeping (access_count, last_accessed_at,
// accessed_sessions, stability, salience), or null to keep the stored one: a checked write of a
// stored memory leaves it to record_access. The embedding is stored as a compact float32 vector.
// $rows: [{id, props: {...}, access: {...} | null, embedding: [float] | null}]
UNWIND $rows AS row
MERGE (m:Memory {namespace: $namespace, id: row.id})
SET m += row.props
SET m += coalesce(row.access, {})
WITH m, row
WHERE row.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
