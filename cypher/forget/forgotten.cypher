// Whether a deletion-log entry of the namespace holds $key (a repeated forget reports zeros).
RETURN EXISTS {
  MATCH (d:DeletionLog)
  WHERE d.namespace = $namespace AND $key IN d.keys
} AS forgotten
