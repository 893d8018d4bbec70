// Fulltext (Lucene BM25, k1 = 1.2, b = 0.75) index on memory content. ns_key is a one-token
// hash of the namespace so a search can require its namespace inside Lucene (ns_key:<key>^0,
// a clause that adds 0 to the score) instead of filtering a corpus-wide hit list.
CREATE FULLTEXT INDEX memory_content IF NOT EXISTS
FOR (m:Memory) ON EACH [m.content, m.ns_key]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: 'standard-no-stop-words',
  `fulltext.eventually_consistent`: false
}}
