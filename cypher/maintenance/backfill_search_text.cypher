// Memories written before contextual keys (issue 15) have no search_text: they are searched
// by their key, else their content. Run when schema/011_memory_content is
// (re)created.
MATCH (m:Memory)
WHERE m.search_text IS NULL
SET m.search_text = coalesce(m.key, m.content)
