// Document frequency of terms over the current memories of a namespace, through the fulltext
// index. $terms: [{term, lucene: 'ns_key:<key>^0 AND search_text:<term>'}]. Approximate: Lucene's
// standard tokenizer splits a few words differently from graphmem.text.tokenize.
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('memory_content', term.lucene)
  YIELD node
  WHERE node.namespace = $namespace AND node.superseded_by IS NULL
  RETURN count(node) AS df
}
RETURN term.term AS term, df
