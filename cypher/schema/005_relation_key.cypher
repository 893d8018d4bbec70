// One relation per (namespace, id): relationship uniqueness constraints work on Community 5.26.
CREATE CONSTRAINT relation_key IF NOT EXISTS
FOR ()-[r:RELATES_TO]-() REQUIRE (r.namespace, r.id) IS UNIQUE
