// Forget a namespace's embedder record (the namespace was deleted).
MATCH (r:EmbedderRecord {namespace: $namespace})
DELETE r
