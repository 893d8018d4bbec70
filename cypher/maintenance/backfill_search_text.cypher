// Memories written before contextual keys (issue 15) have no search_text: they are searched
// by their key, else their content. Run once, when schema/012_memory_search_text is applied.
MATCH (m:Memory)
WHERE m.search_text IS NULL
SET m.search_text = coalesce(m.key, m.content)
