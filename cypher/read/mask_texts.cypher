// What name masking reads of each memory by id (graphmem.store.base.MaskText), missing ids and
// memories without an embedding skipped: one row holding one list per memory, [id, content,
// extractor, embedding, ids of the entities it names as subject]. A recall over a transcript
// reads ~200 memories this way: the whole memory (read/get_memories) costs ~3x as much to
// project, send and decode.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id AND m.embedding IS NOT NULL
RETURN collect([m.id, m.content, m.extractor, m.embedding,
                COLLECT {
                  MATCH (m)-[r:MENTIONS]->(e:Entity)
                  WHERE r.role = 'subject'
                  RETURN e.id
                }]) AS rows
