// Number of memories of a namespace (all tiers, current or not).
MATCH (m:Memory {namespace: $namespace})
RETURN count(m) AS count
