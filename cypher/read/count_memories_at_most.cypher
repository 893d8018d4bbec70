// Number of memories of a namespace (all tiers, current or not), counted up to $at_most:
// min(count, $at_most). The LIMIT stops the index seek there, so asking whether a namespace
// is past a size reads no more of a large one.
MATCH (m:Memory {namespace: $namespace})
WITH m LIMIT $at_most
RETURN count(m) AS count
