// Number of current (not superseded) memories of a namespace: the corpus size of term_stats.
MATCH (m:Memory {namespace: $namespace})
WHERE m.superseded_by IS NULL
RETURN count(m) AS count
