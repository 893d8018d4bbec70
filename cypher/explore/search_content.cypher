// Full-text (BM25) search of memory content inside a namespace, as the bm25 retriever runs it.
// The query is Lucene syntax: quote or escape + - && || ! ( ) { } [ ] ^ " ~ * ? : \ /.
// In Neo4j Browser, first run:
//   :param namespace => 'demo'
//   :param query => 'coffee'
CALL db.index.fulltext.queryNodes('memory_content', 'content:(' + $query + ')')
YIELD node, score
WHERE node.namespace = $namespace
RETURN node.content AS memory, node.type AS type, round(score, 3) AS bm25,
       node.confidence AS confidence, node.id AS id
ORDER BY bm25 DESC, id
LIMIT 20
