"""PrefetchingEmbedder: the wrapped model's vectors, whether prefetched or not."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from graphmem.facade.prefetching_embedder import PrefetchingEmbedder
from graphmem.store.base import Vector
from tests.fakes import HashEmbedder


class Counting:
    """HashEmbedder that records each call's texts (and can fail on a text)."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.inner = HashEmbedder(16)
        self.calls: list[list[str]] = []
        self.fail_on = fail_on
        self.lock = threading.Lock()

    dim = 16
    name = "counting"

    def embed(self, texts: Sequence[str]) -> Vector:
        with self.lock:
            self.calls.append(list(texts))
        if self.fail_on in texts:
            raise RuntimeError(f"model failed on {self.fail_on!r}")
        return self.inner.embed(texts)


def test_prefetched_and_fresh_texts_get_the_models_vectors_in_order() -> None:
    model = Counting()
    embedder = PrefetchingEmbedder(model)
    embedder.prefetch(["b", "c"])
    got = embedder.embed(["a", "b", "c", "b"])
    np.testing.assert_allclose(got, model.inner.embed(["a", "b", "c", "b"]), rtol=0, atol=1e-7)
    assert sorted(map(sorted, model.calls)) == [["a"], ["b", "c"]]  # b, c encoded once, ahead
    embedder.close()


def test_a_prefetched_text_is_served_once_then_encoded_again() -> None:
    model = Counting()
    embedder = PrefetchingEmbedder(model)
    embedder.prefetch(["x"])
    embedder.embed(["x"])
    embedder.embed(["x"])
    assert model.calls == [["x"], ["x"]]
    embedder.close()


def test_a_prefetch_error_reaches_the_embed_call_that_needs_it() -> None:
    embedder = PrefetchingEmbedder(Counting(fail_on="bad"))
    embedder.prefetch(["ok", "bad"])
    with pytest.raises(RuntimeError, match="bad"):
        embedder.embed(["ok"])
    embedder.close()


def test_empty_input_and_properties() -> None:
    embedder = PrefetchingEmbedder(Counting())
    assert embedder.embed([]).shape == (0, 16)
    assert (embedder.dim, embedder.name) == (16, "counting")
    embedder.close()
