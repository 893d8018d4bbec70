// Namespaces that hold at least one memory or (named) entity.
CALL () {
  MATCH (m:Memory) WHERE m.namespace IS NOT NULL
  RETURN DISTINCT m.namespace AS namespace
  UNION
  MATCH (e:Entity) WHERE e.namespace IS NOT NULL AND e.name IS NOT NULL
  RETURN DISTINCT e.namespace AS namespace
}
RETURN namespace
ORDER BY namespace
