// find_by_subject_predicate (conflicts, SPEC §2.11).
CREATE RANGE INDEX memory_subject_predicate IF NOT EXISTS
FOR (m:Memory) ON (m.namespace, m.subject, m.predicate)
