// stats and delete_namespace over sessions.
CREATE RANGE INDEX session_namespace IF NOT EXISTS
FOR (s:Session) ON (s.namespace)
