// Memories by id (missing ids skipped; the caller passes distinct ids and restores their order).
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
RETURN m {
  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate, .object,
  .source_level, .source_strength, .hearsay, .extractor, .extractor_confidence, .type_prior,
  .n, .observations_json, .grounding, .confidence, .access_count, .last_accessed_at,
  .accessed_sessions, .stability, .salience, .retrievable, .tier, .created_at,
  .last_observed_at, .event_time, .valid_until, .superseded_by, .content_hash,
  embedding: CASE WHEN $with_embeddings THEN m.embedding END,
  mentions: COLLECT {
    MATCH (m)-[r:MENTIONS]->(e:Entity)
    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
  }
} AS memory
