// stats and delete_namespace over relations.
CREATE RANGE INDEX relation_namespace IF NOT EXISTS
FOR ()-[r:RELATES_TO]-() ON (r.namespace)
