// One turn per (namespace, session, id); id '' is a session's observations without a turn id.
CREATE CONSTRAINT turn_key IF NOT EXISTS
FOR (t:Turn) REQUIRE (t.namespace, t.session_id, t.id) IS UNIQUE
