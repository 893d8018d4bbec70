"""The facade: one object an application holds (docs/spec.md §5).

>>> from graphmem import GraphMem                       # doctest: +SKIP
>>> with GraphMem() as memory:                          # doctest: +SKIP
...     memory.remember("alice", [{"content": "Alice prefers tea", "type": "Preference"}])
...     result = memory.recall("alice", "what does Alice drink?")

The constructor does no I/O; the store opens on first use (or ``open()``).
The store is Neo4j when ``settings.neo4j_uri`` is set, else the embedded store
under ``settings.data_dir``.

The calls are grouped in :mod:`graphmem.facade` (state and lifecycle, reads,
writes, maintenance); this module puts them together.
"""

from __future__ import annotations

from graphmem.facade.base import Clock, make_store, validate_namespace
from graphmem.facade.forgetting import Forgetting
from graphmem.facade.maintenance import Maintenance
from graphmem.facade.writes import Writes

__all__ = ["Clock", "GraphMem", "make_store", "validate_namespace"]


class GraphMem(Writes, Maintenance, Forgetting):
    """graphmem's public entry point: remember, recall, confirm, correct, forget.

    Parameters
    ----------
    settings : Settings, optional
        Defaults from the environment (``GRAPHMEM_*``).
    store, embedder, judge, extractor, reranker, clock : optional
        Replace a default component (tests, other backends).
    claim_judge, pair_judge : optional
        Judges of the guards (docs/spec.md §10, §11): whether a memory entails an answer's
        claim (:meth:`faithfulness`) and whether two similar memories contradict (the
        consistency scan of :meth:`consolidate`). None: the offline rules.
    owns_store : bool
        Whether :meth:`close` closes the store too (default). Pass ``False`` for a
        store the caller keeps using after this facade: ``close`` then stops only
        the facade's own threads.
    """
