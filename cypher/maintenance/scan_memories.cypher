// The consolidation pass pages through a namespace by id: up to $limit memories (all tiers,
// current or not) with id > $after_id, in id order, through the (namespace, id) index, as one
// collected row (the driver's cost is per row).
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id > $after_id
WITH m ORDER BY m.id LIMIT $limit
RETURN collect(m {
  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate, .object,
  .source_level, .source_strength, .hearsay, .extractor, .extractor_confidence, .type_prior,
  .n, .observations_json, .grounding, .confidence, .access_count, .accessed_sessions,
  .stability, .salience, .retrievable, .tier, .superseded_by, .content_hash, .key, .version,
  // times as ISO 8601 text: the driver builds a DateTime far slower than Python parses one
  last_accessed_at: toString(m.last_accessed_at), created_at: toString(m.created_at),
  last_observed_at: toString(m.last_observed_at), event_time: toString(m.event_time),
  valid_until: toString(m.valid_until),
  embedding: CASE WHEN $with_embeddings THEN m.embedding END,
  mentions: COLLECT {
    MATCH (m)-[r:MENTIONS]->(e:Entity)
    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
  }
}) AS memories
