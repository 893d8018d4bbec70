// Optimistic concurrency, the first statement of every write: raise the version of each memory
// the batch writes or deletes and return the version it had before (0: not stored). A SET whose
// right-hand side reads the property it sets takes the node's write lock before reading it, so
// the version read is the latest committed one and no other writer changes the memory until
// this transaction ends. A memory not stored yet is created bare here: a concurrent creator of
// the same id waits on the uniqueness constraint, then reads version 1. `stored`: the memory
// existed with its fields (a bare node has no access_count).
// $ids: distinct memory ids, sorted (one lock order for every writer)
UNWIND $ids AS id
MERGE (m:Memory {namespace: $namespace, id: id})
SET m.version = coalesce(m.version, 0) + 1
RETURN collect({id: id, version: m.version - 1, stored: m.access_count IS NOT NULL}) AS claimed
