// What ranking reads of each memory by id (graphmem.store.base.RankFields), missing ids
// skipped: one row holding one list per memory, in RankFields' field order, then the sessions
// the memory was observed in (what read/memory_sessions returns: the recall's session support
// reads them next, so they come in this same round trip), then, for the first $hydrate ids
// (the caller's best candidates), the whole memory as read/get_memories projects it, with its
// embedding (null for the others): a recall scores every fused candidate with these and
// hydrates only the k it returns (with their embeddings, which tell near-duplicate claims
// apart: newer over older), which are then mostly here already.
UNWIND range(0, size($ids) - 1) AS position
WITH position, $ids[position] AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
RETURN collect([m.id, m.type, m.type_uncertain, m.confidence, m.access_count,
                toString(m.last_observed_at), m.stability, m.superseded_by IS NULL,
                m.retrievable,
                COLLECT {
                  MATCH (m)-[:OBSERVED_IN]->(:Turn)-[:IN_SESSION]->(s:Session)
                  RETURN DISTINCT s.id
                },
                CASE WHEN position < $hydrate THEN m {
                  // keep in step with read/get_memories
                  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate,
                  .object, .source_level, .source_strength, .hearsay, .extractor,
                  .extractor_confidence, .type_prior, .n, .observations_json, .grounding,
                  .confidence, .access_count, .accessed_sessions, .stability, .salience,
                  .retrievable, .tier, .superseded_by, .content_hash, .key, .version,
                  last_accessed_at: toString(m.last_accessed_at),
                  created_at: toString(m.created_at),
                  last_observed_at: toString(m.last_observed_at),
                  event_time: toString(m.event_time), valid_until: toString(m.valid_until),
                  embedding: m.embedding,
                  mentions: COLLECT {
                    MATCH (m)-[r:MENTIONS]->(e:Entity)
                    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
                  }
                } END]) AS rows
