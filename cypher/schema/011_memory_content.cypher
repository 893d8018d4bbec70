// The one fulltext index (Lucene BM25, k1 = 1.2, b = 0.75) of memories, three fields:
// - search_text: what the BM25 retriever searches (read/text_search, read/term_df, field
//   'search_text:'), the memory's contextual key (graphmem.write.keys), else its content;
// - content: the memory's text, for the neo4j-graphrag peer, Neo4j Browser and
//   cypher/explore ('content:' searches it alone; Lucene keeps statistics per field, so
//   the fields do not change each other's scores);
// - ns_key: a one-token hash of the namespace so a search can require its namespace inside
//   Lucene (ns_key:<key>^0, a clause that adds 0 to the score) instead of filtering a
//   corpus-wide hit list.
// One Lucene document per memory where two indexes were written before (issue 13); an older
// database's memory_content and memory_search_text are replaced by it at open.
CREATE FULLTEXT INDEX memory_content IF NOT EXISTS
FOR (m:Memory) ON EACH [m.content, m.search_text, m.ns_key]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: 'standard-no-stop-words',
  `fulltext.eventually_consistent`: false
}}
