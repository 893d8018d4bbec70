// The deletion log of a namespace, oldest first. One row.
MATCH (d:DeletionLog)
WHERE d.namespace = $namespace
WITH d ORDER BY d.at
RETURN collect({at: toString(d.at), kind: d.kind, command: d.command,
                counts_json: d.counts_json, keys: d.keys}) AS entries
