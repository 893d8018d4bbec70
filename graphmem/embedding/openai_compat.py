"""Embeddings from an OpenAI-compatible server (``GRAPHMEM_EMBEDDER=openai``).

Any server that answers ``POST {base_url}/embeddings`` as OpenAI's API does: OpenAI
itself, Ollama (``http://localhost:11434/v1``), vLLM, the llama.cpp server, LM
Studio. The request goes through the official ``openai`` client (``pip install
'graphmem[llm]'``); texts go out in batches of ``batch_size``, in order, and the
vectors are L2-normalised here (servers differ on whether they normalise).

The key is read from the environment: ``GRAPHMEM_EMBEDDING_API_KEY``, else
``OPENAI_API_KEY``; local servers that ignore it get a placeholder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.errors import EmbeddingError
from graphmem.openai_client import NO_KEY as NO_KEY
from graphmem.openai_client import LazyClient
from graphmem.types import Vector


class OpenAIEmbedder:
    """Embeds through ``/v1/embeddings`` of an OpenAI-compatible server.

    Parameters
    ----------
    model : str
        The server's model name (``text-embedding-3-small``, ``nomic-embed-text``, ...).
    base_url : str, optional
        The API root, e.g. ``http://127.0.0.1:11434/v1`` (default: the client's,
        ``OPENAI_BASE_URL`` or OpenAI's).
    api_key : str, optional
        Default: ``GRAPHMEM_EMBEDDING_API_KEY``, else ``OPENAI_API_KEY``, else a placeholder.
    dim : int
        Expected dimension: a response of another is an error (the store's vector
        index has this dimension). Also sent as ``dimensions`` when ``send_dimensions``.
    batch_size : int
        Texts per request.
    timeout_s : float
        Per-request timeout, seconds.
    max_retries : int
        The client's retries on connection errors, 429 and 5xx.
    send_dimensions : bool
        Ask the server for ``dim``-dimensional vectors (OpenAI's text-embedding-3
        models shorten on request; most local servers reject the field).

    Raises
    ------
    EmbeddingError
        On a call: the ``openai`` package is missing, the server cannot be reached or
        answers with an error, or a vector has another dimension.
    """

    #: Vectors come from a server: the facade asks for one on open to check the dimension.
    remote = True

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dim: int = 384,
        batch_size: int = 64,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        send_dimensions: bool = False,
    ) -> None:
        if batch_size < 1 or not timeout_s > 0 or max_retries < 0:
            raise EmbeddingError("need batch_size >= 1, timeout_s > 0 and max_retries >= 0")
        self._model = model
        self._dim = dim
        self._batch_size = batch_size
        self._send_dimensions = send_dimensions
        self._openai = LazyClient(
            base_url=base_url,
            api_key=api_key,
            key_variable="GRAPHMEM_EMBEDDING_API_KEY",
            timeout_s=timeout_s,
            max_retries=max_retries,
            error=EmbeddingError,
            missing="GRAPHMEM_EMBEDDER=openai needs the openai client: pip install 'graphmem[llm]'",
        )

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def where(self) -> str:
        """The server the requests go to (for messages)."""
        return self._openai.where

    def _load(self) -> Any:
        return self._openai.get()

    def embed(self, texts: Sequence[str]) -> Vector:
        """Embed ``texts``: an (n, dim) float32 array of unit rows, in input order.

        An empty text is sent as one space (OpenAI rejects empty input).

        Raises
        ------
        EmbeddingError
            See the class.
        """
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        client = self._load()
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            chunk = [
                text if text.strip() else " " for text in texts[start : start + self._batch_size]
            ]
            out[start : start + len(chunk)] = self._request(client, chunk)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.asarray(out / np.maximum(norms, 1e-12), dtype=np.float32)

    def _request(self, client: Any, chunk: list[str]) -> Vector:
        import openai

        extra: dict[str, Any] = {"dimensions": self._dim} if self._send_dimensions else {}
        try:
            response = client.embeddings.create(
                model=self._model, input=chunk, encoding_format="float", **extra
            )
        except openai.APIStatusError as exc:
            raise EmbeddingError(
                f"embedding server {self.where} answered {exc.status_code} for model"
                f" {self._model!r}: {exc.message}"
            ) from exc
        except openai.APIError as exc:  # connection errors, timeouts, bad responses
            raise EmbeddingError(
                f"embedding server {self.where} failed for model {self._model!r}: {exc}"
            ) from exc
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(chunk):
            raise EmbeddingError(
                f"embedding server {self.where} returned {len(rows)} vectors for {len(chunk)} texts"
            )
        vectors = np.asarray([row.embedding for row in rows], dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self._dim:
            found = vectors.shape[1] if vectors.ndim == 2 else "ragged"
            raise EmbeddingError(
                f"model {self._model!r} at {self.where} returns {found}-dimensional vectors"
                f" but the store's vector index has {self._dim} (GRAPHMEM_EMBEDDING_DIM);"
                " use a store created for this model"
            )
        if not np.isfinite(vectors).all():
            raise EmbeddingError(
                f"model {self._model!r} at {self.where} returned non-finite values"
            )
        return vectors
