// One session per (namespace, id).
CREATE CONSTRAINT session_key IF NOT EXISTS
FOR (s:Session) REQUIRE (s.namespace, s.id) IS UNIQUE
