// Documents of the fulltext index that hold each query word: in this namespace (df: every
// memory of it, current or not, as its own BM25 counts them) and in the whole index (df_all:
// every namespace, as Lucene's IDF counts them; counted up to $cap, which bounds the cost of a
// word most memories hold). text_search boosts each word by idf(namespace) / idf(index), so
// a namespace's BM25 does not depend on what other namespaces hold.
// $terms: [{term, lucene: 'ns_key:<key>^0 AND search_text:(<word>)', lucene_all:
// 'search_text:(<word>)'}].
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('memory_content', term.lucene_all, {limit: $cap})
  YIELD node
  RETURN count(node) AS df_all
}
CALL (term) {
  CALL db.index.fulltext.queryNodes('memory_content', term.lucene)
  YIELD node
  WHERE node.namespace = $namespace
  RETURN count(node) AS df
}
RETURN term.term AS term, df, df_all
