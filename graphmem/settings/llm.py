"""LLM settings: the optional chat model that extracts memories from text and judges
ambiguous pairs and claims (docs/spec.md §11, docs/llm.md).

Part of :class:`graphmem.settings.Settings` as ``settings.llm``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pydantic import Field, SecretStr

from graphmem.settings.base import Concern


class LLMSettings(Concern):
    """LLM settings (``settings.llm``)."""

    llm_base_url: str | None = Field(
        None,
        description=(
            "The chat model's API root for remember_text / ingest --extract, e.g."
            " http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM);"
            " default: OpenAI's (or OPENAI_BASE_URL)."
        ),
    )
    llm_model: str | None = Field(
        None,
        max_length=200,
        description=(
            "The chat model's name (gpt-4o-mini, llama3.1:8b, ...); memories it extracts"
            " carry it as their extractor (e from the extractor table unless the server"
            " returns logprobs)."
        ),
    )
    llm_api_key: SecretStr | None = Field(
        None,
        description="The chat model's API key (default: OPENAI_API_KEY; local servers need none).",
    )
    llm_timeout_s: float = Field(
        120.0, gt=0.0, le=3600.0, description="Per-request timeout of the chat model, seconds."
    )
    llm_max_retries: int = Field(
        2, ge=0, le=10, description="The client's retries on connection errors, 429 and 5xx."
    )
    llm_logprobs: bool = Field(
        True,
        description=(
            "Ask the chat model for token logprobs (e of a memory from its span's"
            " logprobs, docs/spec.md §2.2); dropped by itself when the server rejects them."
        ),
    )
    llm_batch_messages: int = Field(
        20, ge=1, le=500, description="Conversation messages per extraction request."
    )
    llm_judge: bool = Field(
        False,
        description=(
            "Use the chat model as the tier-3 dedup judge and the consistency /"
            " faithfulness judge (docs/spec.md §11; one request per ambiguous pair or claim)."
        ),
    )
