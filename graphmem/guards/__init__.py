"""The guards against hallucinated memories and the drift monitor (docs/spec.md §10).

- :mod:`graphmem.guards.faithfulness` — read-time faithfulness of an answer against
  the memories it rests on (claims, support, risk level);
- :mod:`graphmem.guards.consistency` — the consistency scan of the consolidation pass
  (pairs of current memories that contradict, resolved by docs/spec.md §9.9);
- :mod:`graphmem.guards.drift` — concept drift per entity (reported, never acted on);
- :mod:`graphmem.guards.claims` — claim splitting, terms, criticality, risk level;
- :mod:`graphmem.guards.judge` — the judge protocols (an LLM can decide where the
  offline rule cannot).

Write-time grounding, the first guard, is docs/spec.md §2.6 in the write pipeline.
Their reports (``FaithfulnessReport``, ``ConsistencyReport``, ``EntityDrift``) are in
:mod:`graphmem.models`.
"""
