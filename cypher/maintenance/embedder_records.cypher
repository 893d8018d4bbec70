// Which embedder wrote each namespace's vectors (issue 17).
MATCH (r:EmbedderRecord)
RETURN r.namespace AS namespace, r.model AS model, r.dim AS dim
ORDER BY namespace
