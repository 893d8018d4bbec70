"""Test doubles. Never product defaults (the brief: unit tests only)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from graphmem.store.base import Vector
from graphmem.text import tokenize


class HashEmbedder:
    """Deterministic bag-of-words embedder: each token hashes to a few signed
    dimensions. Texts sharing words get a high cosine; identical texts 1.0.
    For unit tests only (no model download)."""

    def __init__(self, dim: int = 384) -> None:
        self._dim = dim

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return "hash-test-embedder"

    def embed(self, texts: Sequence[str]) -> Vector:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text) or ["<empty>"]:
                digest = hashlib.sha256(token.encode()).digest()
                for j in range(3):
                    index = int.from_bytes(digest[4 * j : 4 * j + 4], "little") % self._dim
                    out[row, index] += 1.0 if digest[12 + j] % 2 else -1.0
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out
