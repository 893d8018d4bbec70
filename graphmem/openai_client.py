"""The official ``openai`` client, made one way for the OpenAI-compatible embedder
(:mod:`graphmem.embedding.openai_compat`) and chat client (:mod:`graphmem.extract.llm`).

The key is the one given, else the environment variable the caller names, else
``OPENAI_API_KEY``; local servers that ignore it get :data:`NO_KEY`.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from graphmem.errors import GraphMemError

__all__ = ["NO_KEY", "LazyClient"]

#: What the client sends when no key is configured (Ollama, vLLM and llama.cpp ignore it).
NO_KEY = "not-needed"


class LazyClient:
    """An ``openai.OpenAI`` client for ``base_url`` (None: the client's default), made
    on the first :meth:`get` (thread-safe), so that a caller that never sends a
    request needs neither the package nor a server.

    Parameters
    ----------
    base_url, api_key, timeout_s, max_retries
        As the ``openai.OpenAI`` arguments; ``api_key`` None reads ``key_variable``,
        else ``OPENAI_API_KEY``, else :data:`NO_KEY`.
    key_variable : str
        The environment variable of the caller's key.
    error : type of GraphMemError
        Raised with ``missing`` when the ``openai`` package is not installed.
    missing : str
        That error's message.
    """

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key: str | None,
        key_variable: str,
        timeout_s: float,
        max_retries: int,
        error: type[GraphMemError],
        missing: str,
    ) -> None:
        self._base_url = base_url
        self._api_key = api_key
        self._key_variable = key_variable
        self._timeout_s = timeout_s
        self._max_retries = max_retries
        self._error = error
        self._missing = missing
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        """The server the requests go to (for messages)."""
        client = self._client
        return str(client.base_url) if client is not None else (self._base_url or "default")

    def get(self) -> Any:
        """The client, made on the first call.

        Raises
        ------
        GraphMemError
            ``error(missing)`` when the ``openai`` package is not installed.
        """
        with self._lock:
            if self._client is not None:
                return self._client
            try:
                import openai
            except ImportError as exc:
                raise self._error(self._missing) from exc
            key = (
                self._api_key
                or os.environ.get(self._key_variable)
                or os.environ.get("OPENAI_API_KEY")
                or NO_KEY
            )
            self._client = openai.OpenAI(
                api_key=key,
                base_url=self._base_url,
                timeout=self._timeout_s,
                max_retries=self._max_retries,
            )
            return self._client
