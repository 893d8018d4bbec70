// time_window_search: equality on namespace, range on the DATETIME time anchor.
CREATE RANGE INDEX memory_time_anchor IF NOT EXISTS
FOR (m:Memory) ON (m.namespace, m.time_anchor)
