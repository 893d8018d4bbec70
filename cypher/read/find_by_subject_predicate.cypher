// Current memories with exactly this triple subject and predicate, with embeddings, by id.
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, subject, predicate)
WHERE m.namespace = $namespace AND m.subject = $subject AND m.predicate = $predicate
  AND m.superseded_by IS NULL
WITH m ORDER BY m.id
RETURN m {
  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate, .object,
  .source_level, .source_strength, .hearsay, .extractor, .extractor_confidence, .type_prior,
  .n, .observations_json, .grounding, .confidence, .access_count, .last_accessed_at,
  .accessed_sessions, .stability, .salience, .retrievable, .tier, .created_at,
  .last_observed_at, .event_time, .valid_until, .superseded_by, .content_hash,
  embedding: m.embedding,
  mentions: COLLECT {
    MATCH (m)-[r:MENTIONS]->(e:Entity)
    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
  }
} AS memory
