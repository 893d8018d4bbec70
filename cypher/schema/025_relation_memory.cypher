// Deleting a memory deletes the relations it is the source of.
CREATE RANGE INDEX relation_memory IF NOT EXISTS
FOR ()-[r:RELATES_TO]-() ON (r.namespace, r.memory_id)
