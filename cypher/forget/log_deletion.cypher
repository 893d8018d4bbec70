// One entry of the deletion log: the kind of forget, when, by which command, the counts per
// kind (JSON) and the hashes of what was asked for (graphmem.store.forgetting.forget_key).
// Never content.
CREATE (:DeletionLog {namespace: $namespace, at: $at, kind: $kind, command: $command,
                      counts_json: $counts_json, keys: $keys})
