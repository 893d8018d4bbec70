"""The parts of the facade :class:`graphmem.GraphMem` is built from.

- :mod:`graphmem.facade.base`: state and lifecycle (open, close, flush, locks, the
  embedder record of each namespace);
- :mod:`graphmem.facade.reads`: recall, get, history, entities, listing, stats;
- :mod:`graphmem.facade.writes`: remember, confirm, correct, forget, delete;
- :mod:`graphmem.facade.maintenance`: consolidation, cold reactivation, re-embedding,
  guards.

Applications import :class:`graphmem.GraphMem` (``graphmem.memory``), not these.
"""
