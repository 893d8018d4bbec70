"""Embedding the next write batch while the current one is deduplicated and written.

Ingest is bounded by the embedding model (docs/benchmarks.md "Speed and scale": the target is
ingest ≥ 0.85 × raw ``encode`` throughput). The rest of a batch — dedup
look-ups, entity resolution, the store's write transaction — waits on SQLite
or on the Neo4j server, during which the model could already encode the
next batch. :class:`PrefetchingEmbedder` wraps an embedder: ``prefetch(texts)``
starts encoding in one background thread, and ``embed(texts)`` serves texts
prefetched before (waiting for them if need be) and encodes the rest itself.
Results are identical to the wrapped embedder's: the same model, the same
texts (a text prefetched alone or within a batch gets the same vector up to
float rounding of the batch's padding, which sentence-transformers masks).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from graphmem.embedding import Embedder, EmbedderWrapper
from graphmem.store.base import Vector


class PrefetchingEmbedder(EmbedderWrapper):
    """An :class:`~graphmem.embedding.Embedder` that can encode ahead.

    Parameters
    ----------
    inner : Embedder
        The model; every vector comes from it.

    Notes
    -----
    A prefetched text is served once (then forgotten), so memory stays bounded
    by one batch. An error raised while prefetching is raised by the ``embed``
    call that needs those texts, not lost.
    """

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self._lock = threading.Lock()
        self._pending: dict[str, Future[Vector]] = {}
        self._rows: dict[str, int] = {}
        self._pool: ThreadPoolExecutor | None = None

    def prefetch(self, texts: Sequence[str]) -> None:
        """Start encoding ``texts`` in the background (returns at once)."""
        with self._lock:
            fresh = [t for t in dict.fromkeys(texts) if t not in self._pending]
            if not fresh:
                return
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prefetch")
            future = self._pool.submit(self._inner.embed, fresh)
            for row, text in enumerate(fresh):
                self._pending[text] = future
                self._rows[text] = row

    def embed(self, texts: Sequence[str]) -> Vector:
        """``(len(texts), dim)`` float32 unit rows: prefetched ones, the rest encoded now."""
        with self._lock:
            taken = {
                t: (self._pending.pop(t), self._rows.pop(t)) for t in texts if t in self._pending
            }
        if not taken:  # nothing prefetched: the model's answer as it is (shape included)
            return self._inner.embed(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in taken]
        vectors: dict[str, Vector] = {}
        if missing:
            fresh = self._inner.embed(missing)
            if fresh.ndim != 2 or fresh.shape[0] != len(missing):
                return fresh  # a broken model: the caller's shape check names it
            vectors.update(zip(missing, fresh, strict=True))
        for text, (future, row) in taken.items():
            batch = future.result()
            if batch.ndim != 2 or row >= batch.shape[0]:
                return batch
            vectors[text] = batch[row]
        return np.stack([vectors[t] for t in texts]).astype(np.float32, copy=False)

    def close(self) -> None:
        """Stop the background thread (pending prefetches are dropped)."""
        with self._lock:
            self._pending.clear()
            self._rows.clear()
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
