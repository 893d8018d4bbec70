// Namespace scans: counts, stats, the exact vector fallback, deletes.
CREATE RANGE INDEX memory_namespace IF NOT EXISTS
FOR (m:Memory) ON (m.namespace)
