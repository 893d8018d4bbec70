// delete_namespace: every :Turn of the namespace with its relationships, in batches
// (CALL ... IN TRANSACTIONS needs an auto-commit transaction).
MATCH (n:Turn {namespace: $namespace})
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
