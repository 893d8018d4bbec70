// find_by_hashes (dedup tier 1).
CREATE RANGE INDEX memory_content_hash IF NOT EXISTS
FOR (m:Memory) ON (m.namespace, m.content_hash)
