// Every memory (current or not) observed in a session, with embeddings, by id.
MATCH (s:Session)<-[:IN_SESSION]-(:Turn)<-[:OBSERVED_IN]-(m:Memory)
USING INDEX SEEK s:Session(namespace, id)
WHERE s.namespace = $namespace AND s.id = $session_id
WITH DISTINCT m ORDER BY m.id
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
