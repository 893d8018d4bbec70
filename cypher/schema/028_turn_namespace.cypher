// delete_namespace over turns.
CREATE RANGE INDEX turn_namespace IF NOT EXISTS
FOR (t:Turn) ON (t.namespace)
