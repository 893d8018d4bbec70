// Record (replace) the embedder that wrote a namespace's vectors (issue 17).
MERGE (r:EmbedderRecord {namespace: $namespace})
SET r.model = $model, r.dim = $dim, r.recorded_at = datetime()
