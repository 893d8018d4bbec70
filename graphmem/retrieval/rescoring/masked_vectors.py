"""The vectors of name-masked texts (:mod:`graphmem.retrieval.rescoring.masking`): an in-process LRU
cache in front of the persistent, cross-process one (:mod:`graphmem.embedding.cache`),
and the per-recall budget of texts embedded at query time (docs/performance.md
"Recall on real input")."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from graphmem.embedding import Embedder
from graphmem.embedding.cache import FILE_NAME, VectorCache
from graphmem.settings import Settings
from graphmem.types import Vector

__all__ = ["Budget", "MaskedEmbeddings", "vector_cache_for"]


class MaskedEmbeddings:
    """Embeddings of masked texts: an in-process LRU cache in front of an optional
    persistent one (:class:`graphmem.embedding.cache.VectorCache`, shared by processes,
    filled when memories are written: :func:`warm_masked`).

    Parameters
    ----------
    embedder : Embedder
        Gives unit vectors of shape (n, dim); its ``name`` keys the persistent cache.
    size : int
        Most texts kept in memory, ``>= 1`` (a vector of 384 float32 is 1.5 KiB).
    cache : VectorCache, optional
        The persistent cache (None: memory only).
    """

    def __init__(
        self, embedder: Embedder, size: int = 8192, cache: VectorCache | None = None
    ) -> None:
        self._embedder = embedder
        self._size = max(1, size)
        self._cache: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()
        self._persistent = cache
        self._computed = threading.local()

    @classmethod
    def for_store(cls, embedder: Embedder, settings: Settings, store: object) -> MaskedEmbeddings:
        """With the persistent cache :func:`vector_cache_for` gives for ``store``."""
        return cls(embedder, cache=vector_cache_for(settings, store))

    def close(self) -> None:
        """Close the persistent cache's file (reopened on next use)."""
        if self._persistent is not None:
            self._persistent.close()

    @property
    def model(self) -> str:
        """The embedder's model name."""
        return self._embedder.name

    @property
    def persistent(self) -> VectorCache | None:
        """The persistent cache, if any."""
        return self._persistent

    def forget(self, texts: Sequence[str]) -> None:
        """Drop the vectors of ``texts`` from both caches (a forget, docs/spec.md §9.16)."""
        with self._lock:
            for text in texts:
                self._cache.pop(text, None)
        if self._persistent is not None and texts:
            self._persistent.delete_many(self._embedder.name, texts)

    def _cached(self, texts: Sequence[str]) -> dict[str, Vector]:
        found: dict[str, Vector] = {}
        with self._lock:
            for text in texts:
                vector = self._cache.get(text)
                if vector is not None:
                    self._cache.move_to_end(text)
                    found[text] = vector
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing and self._persistent is not None:
            stored = self._persistent.get_many(self._embedder.name, missing)
            self._remember(stored)
            found.update(stored)
        return found

    def _remember(self, vectors: Mapping[str, Vector]) -> None:
        with self._lock:
            for text, vector in vectors.items():
                self._cache[text] = vector
                self._cache.move_to_end(text)
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)

    def _compute(self, texts: list[str]) -> dict[str, Vector]:
        if not texts:
            return {}
        fresh = np.asarray(self._embedder.embed(texts), dtype=np.float32)
        if self._persistent is not None:
            self._persistent.put_many(self._embedder.name, texts, fresh)
        out = dict(zip(texts, fresh, strict=True))
        self._remember(out)
        return out

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One unit vector per text (in order); only texts in neither cache are
        embedded, in one call."""
        found = self._cached(texts)
        found.update(self._compute([t for t in dict.fromkeys(texts) if t not in found]))
        return [found[t] for t in texts]

    def embed_within(self, texts: Sequence[str], budget: int) -> list[Vector | None]:
        """Like :meth:`embed`, but at most ``budget`` texts are embedded: the first
        ``budget`` of those in neither cache, in order; the others give None (the
        caller keeps their unmasked vector)."""
        found = self._cached(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        computed = self._compute(missing[: max(0, budget)])
        self._computed.value = len(computed)
        found.update(computed)
        return [found.get(t) for t in texts]

    @property
    def last_computed(self) -> int:
        """How many texts this thread's last :meth:`embed_within` embedded."""
        value: int = getattr(self._computed, "value", 0)
        return value

    def warm(self, texts: Sequence[str]) -> int:
        """Embed the texts not in the persistent cache and store them there (nothing
        without a persistent cache). Returns how many were embedded."""
        if self._persistent is None or not texts:
            return 0
        unique = list(dict.fromkeys(texts))
        have = self._persistent.get_many(self._embedder.name, unique)
        missing = [t for t in unique if t not in have]
        if missing:
            fresh = np.asarray(self._embedder.embed(missing), dtype=np.float32)
            self._persistent.put_many(self._embedder.name, missing, fresh)
        return len(missing)


@dataclasses.dataclass
class Budget:
    """How many more masked texts a recall may embed (``left >= 0``); the texts in a
    cache cost nothing (setting ``name_mask_budget``)."""

    left: int

    def spend(self, n: int) -> None:
        """Count ``n`` texts embedded."""
        self.left = max(0, self.left - max(0, n))


def vector_cache_for(settings: Settings, store: object) -> VectorCache | None:
    """The persistent vector cache a recall pipeline on ``store`` uses (None when the
    setting ``vector_cache`` is off): ``settings.vector_cache_path`` if set, else
    beside an embedded store's SQLite file, else ``graphmem/`` under
    ``$XDG_CACHE_HOME`` (default ``~/.cache``)."""
    if not settings.embedding.vector_cache:
        return None
    path = settings.embedding.vector_cache_path
    if path is None:
        db_path = getattr(store, "db_path", None)
        if isinstance(db_path, Path):
            path = db_path.parent / FILE_NAME
        else:
            root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
            path = Path(root) / "graphmem" / FILE_NAME
    return VectorCache(path, settings.embedding.embedding_dim)
