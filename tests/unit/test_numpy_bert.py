"""all-MiniLM-L6-v2 run in numpy (graphmem.embedding.numpy_bert): the vectors of
sentence-transformers on torch, without importing torch (docs/performance.md "Start-up")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from graphmem.embedding import SentenceTransformerEmbedder
from graphmem.embedding.numpy_bert import NumpyBertEmbedder, read_safetensors
from graphmem.errors import EmbeddingError

TEXTS = [
    "Caroline went to the pottery workshop on 4 June 2021.",
    "Melanie: I painted a sunrise over the lake last year!",
    "ok",
    "",
    "What did Caroline study? Marine biology, she said, after a long day at the lab.",
    " ".join(["the quick brown fox jumps over the lazy dog"] * 60),  # past 256 tokens
]


@pytest.mark.model
def test_small_calls_give_torchs_vectors_to_float_rounding() -> None:
    torch_only = SentenceTransformerEmbedder(numpy_max_texts=0).embed(TEXTS)
    default = SentenceTransformerEmbedder().embed(TEXTS)  # 6 texts: the numpy path
    assert default.shape == torch_only.shape == (len(TEXTS), 384)
    assert default.dtype == np.float32
    cosines = np.sum(default * torch_only, axis=1)
    assert float(cosines.min()) > 0.99999
    assert float(np.abs(default - torch_only).max()) < 1e-5


@pytest.mark.model
def test_a_recall_with_the_default_embedder_never_imports_torch(tmp_path: Path) -> None:
    """A fresh interpreter remembers and recalls with the default settings (the
    capitalised-name extractor: spaCy's thinc imports torch whenever it is installed)."""
    script = (
        "import sys\n"
        "from graphmem import GraphMem\n"
        "from graphmem.settings import Settings\n"
        f"s = Settings(extractor='capitalized', data_dir={str(tmp_path)!r})\n"
        "with GraphMem(s) as m:\n"
        "    m.remember('a', [{'content': 'Alice prefers green tea', 'type': 'Preference'}])\n"
        "    hits = m.recall('a', 'what does Alice drink?').hits\n"
        "assert hits and 'tea' in hits[0].memory.content, hits\n"
        "loaded = sorted(m for m in ('torch', 'sentence_transformers', 'transformers')"
        " if m in sys.modules)\n"
        "print('loaded:', loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "loaded: []" in done.stdout


def test_safetensors_are_read_as_written(tmp_path: Path) -> None:
    """A file written by hand in the safetensors layout (8-byte header length, JSON
    header, little-endian data) reads back with its names, shapes and values."""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([7, -1], dtype=np.int64)
    header = {
        "__metadata__": {"format": "pt"},
        "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
        "b": {"dtype": "I64", "shape": [2], "data_offsets": [24, 40]},
    }
    raw = json.dumps(header).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + a.tobytes() + b.tobytes())
    tensors = read_safetensors(path)
    assert set(tensors) == {"a", "b"}
    assert tensors["a"].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert tensors["b"].tolist() == [7, -1]
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(EmbeddingError, match="truncated"):
        read_safetensors(path)


def test_a_model_directory_without_its_files_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="cannot load model files"):
        NumpyBertEmbedder(tmp_path, name="x").embed(["hello"])
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "roberta"}))
    tokenizer = next(Path(__file__).parents[2].glob("graphmem/embedding/*.tokenizer.json"))
    (tmp_path / "tokenizer.json").write_bytes(tokenizer.read_bytes())
    with pytest.raises(EmbeddingError, match="runs BERT only"):
        NumpyBertEmbedder(tmp_path, name="x").embed(["hello"])
