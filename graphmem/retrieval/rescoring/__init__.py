"""Recall's third stage: the retrievers' lists re-ordered or joined before the fusion and
after it (docs/pipelines.md, steps 14-21): name-masked similarity, the expected answer
type's list, session support."""
