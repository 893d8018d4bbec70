"""Recall's last stage: the fused candidates admitted, scored, cut to ``k`` and explained
(docs/pipelines.md, steps 18-26; docs/spec.md §3): the ranker, the attribute and
currency rules, the optional reranker."""
