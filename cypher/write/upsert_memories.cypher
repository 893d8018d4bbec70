// Upsert memories whole by (namespace, id). row.props holds every stored property; a null
// value removes that property. The embedding is stored as a compact float32 vector.
// $rows: [{id, props: {...}, embedding: [float] | null}]
UNWIND $rows AS row
MERGE (m:Memory {namespace: $namespace, id: row.id})
SET m += row.props
WITH m, row
WHERE row.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
