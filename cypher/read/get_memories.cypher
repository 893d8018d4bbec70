// Memories by id (missing ids skipped; the caller passes distinct ids and restores their order).
// One row: a result row costs the Python driver more than the values it carries.
UNWIND $ids AS id
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id = id
RETURN collect(m {
  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate, .object,
  .source_level, .source_strength, .hearsay, .extractor, .extractor_confidence, .type_prior,
  .n, .observations_json, .grounding, .confidence, .access_count, .accessed_sessions,
  .stability, .salience, .retrievable, .tier, .superseded_by, .content_hash, .key, .version,
  // times as ISO 8601 text: the driver builds a DateTime ~100x slower than fromisoformat
  last_accessed_at: toString(m.last_accessed_at), created_at: toString(m.created_at),
  last_observed_at: toString(m.last_observed_at), event_time: toString(m.event_time),
  valid_until: toString(m.valid_until),
  embedding: CASE WHEN $with_embeddings THEN m.embedding END,
  mentions: COLLECT {
    MATCH (m)-[r:MENTIONS]->(e:Entity)
    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
  }
}) AS memories
