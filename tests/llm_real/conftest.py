"""Fixtures of the real-model tests (docs/llm.md): the local model server that
``scripts/llm-real.sh`` starts (tests/llm_real/llama_server.py) at
``GRAPHMEM_TEST_LLM_URL``, its test controls, and a GraphMem on an embedded store whose
LLM is that server. Without ``GRAPHMEM_TEST_LLM_URL`` every test here is skipped (CI
does not run them: the model is 1.1 GB)."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from tests.fakes import HashEmbedder

URL = os.environ.get("GRAPHMEM_TEST_LLM_URL", "").rstrip("/")
MODEL = os.environ.get("GRAPHMEM_TEST_LLM_MODEL", "qwen2.5-coder-1.5b-instruct-q4_k_m")
NOW = datetime(2026, 5, 15, 18, 0, tzinfo=UTC)


class Shim:
    """The test controls of the local server (``/shim/*``, next to ``/v1``)."""

    def __init__(self, url: str) -> None:
        self.root = url.removesuffix("/v1")

    def _call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.root + path, data=data)
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def json_schema(self, mode: str) -> None:
        """``guided`` (enforced), ``reject`` (400: no structured output) or ``ignore``."""
        self._call("/shim/config", {"json_schema": mode})

    def truncate_next(self, n: int) -> None:
        """Cut the next ``n`` answers at half their tokens (``finish_reason`` length)."""
        self._call("/shim/faults", {"truncate_next": n})

    def last(self) -> dict[str, Any]:
        """The last request's messages, answer, finish reason and tokens."""
        return dict(self._call("/shim/last"))

    def stats(self) -> list[dict[str, Any]]:
        """Per request: prompt tokens, reused tokens, seconds, completion tokens."""
        return list(self._call("/shim/stats")["requests"])


@pytest.fixture
def shim() -> Iterator[Shim]:
    controls = Shim(URL)
    controls.truncate_next(0)
    controls.json_schema("guided")
    yield controls
    controls.truncate_next(0)
    controls.json_schema("guided")


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[GraphMem]:
    settings = Settings(
        data_dir=tmp_path / "store",
        neo4j_uri=None,
        extractor="capitalized",
        llm_base_url=URL,
        llm_model=MODEL,
        llm_timeout_s=900,
        llm_max_retries=0,
    )
    with GraphMem(settings, embedder=HashEmbedder(), clock=lambda: NOW) as opened:
        yield opened
