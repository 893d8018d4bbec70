// Fulltext (Lucene BM25, k1 = 1.2, b = 0.75) index on what the BM25 retriever searches:
// search_text is the memory's contextual key (graphmem.retrieval.keys), else its content.
// ns_key restricts a search to its namespace inside Lucene, as in memory_content.
CREATE FULLTEXT INDEX memory_search_text IF NOT EXISTS
FOR (m:Memory) ON EACH [m.search_text, m.ns_key]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: 'standard-no-stop-words',
  `fulltext.eventually_consistent`: false
}}
