// Current memories by content hash (dedup tier 1), with embeddings, by id; one row.
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, content_hash)
WHERE m.namespace = $namespace AND m.content_hash IN $hashes AND m.superseded_by IS NULL
WITH m ORDER BY m.id
RETURN collect(m {
  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate, .object,
  .source_level, .source_strength, .hearsay, .extractor, .extractor_confidence, .type_prior,
  .n, .observations_json, .grounding, .confidence, .access_count, .accessed_sessions,
  .stability, .salience, .retrievable, .tier, .superseded_by, .content_hash, .key, .version,
  // times as ISO 8601 text: the driver builds a DateTime ~100x slower than fromisoformat
  last_accessed_at: toString(m.last_accessed_at), created_at: toString(m.created_at),
  last_observed_at: toString(m.last_observed_at), event_time: toString(m.event_time),
  valid_until: toString(m.valid_until),
  embedding: m.embedding,
  mentions: COLLECT {
    MATCH (m)-[r:MENTIONS]->(e:Entity)
    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
  }
}) AS memories
