// `graphmem list`: up to $limit memories with id > $after_id, in id order, that pass every
// filter given (a null filter passes all): tier, retrievable, superseded, types, and
// mentioning one of entity_ids. Same projection as maintenance/scan_memories, without the embedding.
MATCH (m:Memory)
USING INDEX SEEK m:Memory(namespace, id)
WHERE m.namespace = $namespace AND m.id > $after_id
  AND ($tier IS NULL OR m.tier = $tier)
  AND ($retrievable IS NULL OR coalesce(m.retrievable, true) = $retrievable)
  AND ($superseded IS NULL OR (m.superseded_by IS NOT NULL) = $superseded)
  AND ($types IS NULL OR m.type IN $types)
  AND ($entity_ids IS NULL OR EXISTS {
    MATCH (m)-[:MENTIONS]->(e:Entity) WHERE e.id IN $entity_ids
  })
WITH m ORDER BY m.id LIMIT $limit
RETURN collect(m {
  .id, .namespace, .type, .type_uncertain, .content, .subject, .predicate, .object,
  .source_level, .source_strength, .hearsay, .extractor, .extractor_confidence, .type_prior,
  .n, .observations_json, .grounding, .confidence, .access_count, .accessed_sessions,
  .stability, .salience, .retrievable, .tier, .superseded_by, .content_hash, .key, .version,
  last_accessed_at: toString(m.last_accessed_at), created_at: toString(m.created_at),
  last_observed_at: toString(m.last_observed_at), event_time: toString(m.event_time),
  valid_until: toString(m.valid_until),
  embedding: null,
  mentions: COLLECT {
    MATCH (m)-[r:MENTIONS]->(e:Entity)
    RETURN {entity_id: e.id, role: r.role} ORDER BY r.ord
  }
}) AS memories
