"""Recall's first stage: reading the question into a plan (docs/pipelines.md, steps 3-9).

The planner chooses the retrievers' weights from the question's specificity and cues
(docs/spec.md §3 "Query planner").
"""
