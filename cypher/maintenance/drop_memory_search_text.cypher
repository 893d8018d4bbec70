// Drop the fulltext index memory_search_text of older databases: memory_content indexes
// search_text since issue 13 (schema/011_memory_content); idempotent.
DROP INDEX memory_search_text IF EXISTS
