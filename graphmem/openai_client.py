"""The official ``openai`` client, built one way for the OpenAI-compatible embedder
(:mod:`graphmem.embedding.openai_compat`) and chat client (:mod:`graphmem.extract.llm`).

The key is the one given, else the environment variable the caller names, else
``OPENAI_API_KEY``; local servers that ignore it get :data:`NO_KEY`.
"""

from __future__ import annotations

import os
from typing import Any

from graphmem.errors import GraphMemError

__all__ = ["NO_KEY", "make_client", "server_of"]

#: What the client sends when no key is configured (Ollama, vLLM and llama.cpp ignore it).
NO_KEY = "not-needed"


def make_client(
    *,
    api_key: str | None,
    key_variable: str,
    base_url: str | None,
    timeout_s: float,
    max_retries: int,
    missing: GraphMemError,
) -> Any:
    """An ``openai.OpenAI`` client for ``base_url`` (None: the client's default).

    Raises
    ------
    GraphMemError
        ``missing`` (raised from the ``ImportError``) when the ``openai`` package is not
        installed.
    """
    try:
        import openai
    except ImportError as exc:
        raise missing from exc
    key = api_key or os.environ.get(key_variable) or os.environ.get("OPENAI_API_KEY") or NO_KEY
    return openai.OpenAI(
        api_key=key,
        base_url=base_url,
        timeout=timeout_s,
        max_retries=max_retries,
    )


def server_of(client: Any, base_url: str | None) -> str:
    """The server a client (None: not made yet) sends its requests to, for messages."""
    return str(client.base_url) if client is not None else (base_url or "default")
