"""A chat client for any OpenAI-compatible server that answers in JSON (docs/spec.md §11).

:class:`ChatClient` sends one system and one user message through the official
``openai`` client (``pip install 'graphmem[llm]'``) to ``POST
{base_url}/chat/completions`` — OpenAI, vLLM, Ollama (``http://localhost:11434/v1``),
the llama.cpp server, LM Studio — and returns the answer's JSON object:

1. **Structured output**: ``response_format`` ``json_schema`` (strict) with the
   schema. A server that rejects that (HTTP 400 / 422) gets **JSON mode** next
   (``json_object``, the schema written into the system prompt), and one that
   rejects ``logprobs`` gets the request without them; the client remembers what
   the server took.
2. The answer is read with Markdown code fences stripped and parsed; an answer
   that is no JSON, or no JSON the caller's validator accepts, is sent back once
   with the error ("one retry"); a second failure is an :class:`ExtractionError`.
3. A refusal (``message.refusal``, or ``finish_reason`` ``content_filter``), an
   error status, a timeout or no connection is an :class:`ExtractionError` that
   names the server, the model and what happened.

Token log-probabilities come back with the answer when the server returns them
(:attr:`ChatReply.tokens`); :func:`span_logprobs` picks those of one string value
of the answer (docs/spec.md §2.2: ``e`` from the logprobs of the extracted span).

The key is read from ``GRAPHMEM_LLM_API_KEY``, else ``OPENAI_API_KEY``; local
servers that ignore it get a placeholder.
"""

from __future__ import annotations

import codecs
import json
import math
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from graphmem.errors import ConfigurationError, ExtractionError
from graphmem.extract.shape import Mode, check_not_schema, shape_note
from graphmem.openai_client import NO_KEY as NO_KEY
from graphmem.openai_client import LazyClient

if TYPE_CHECKING:  # pragma: no cover
    from graphmem.settings import Settings

__all__ = [
    "ChatClient",
    "ChatReply",
    "span_logprobs",
    "strip_fences",
]

T = TypeVar("T")
_FENCE = re.compile(r"^\s*```[\w-]*\s*\n?(.*?)\n?\s*```\s*$", re.S)


@dataclass(frozen=True, slots=True)
class ChatReply:
    """One answer: its text as the server sent it, the request mode that produced it,
    the answer's tokens with their natural-log probabilities (None when the server
    returned none; a token's text is decoded from its UTF-8 ``bytes`` when the server
    sends them, so a character split over two tokens still spells the answer) and the
    server's ``finish_reason``."""

    text: str
    mode: Mode
    tokens: tuple[tuple[str, float], ...] | None
    finish_reason: str | None = None


def strip_fences(text: str) -> str:
    """The text inside one Markdown code fence (```json … ```), else ``text`` stripped."""
    match = _FENCE.match(text)
    return (match.group(1) if match else text).strip()


def span_logprobs(reply: ChatReply, value: str, *, start: int = 0) -> tuple[float, ...] | None:
    """Log-probabilities of the tokens that wrote the string ``value`` in the answer.

    ``value`` is looked up as JSON writes it (escapes included) from character
    ``start`` on. Returns None when the server sent no logprobs, the tokens do not
    spell the answer, or the value is not found; else the logprobs (each ``<= 0``)
    of every token overlapping the value.
    """
    if not reply.tokens or not value:
        return None
    if "".join(token for token, _ in reply.tokens) != reply.text:
        return None
    needle = json.dumps(value, ensure_ascii=False)[1:-1]
    begin = reply.text.find(needle, start)
    if begin < 0:
        return None
    end = begin + len(needle)
    out: list[float] = []
    offset = 0
    for token, logprob in reply.tokens:
        if offset < end and offset + len(token) > begin and math.isfinite(logprob):
            out.append(min(logprob, 0.0))
        offset += len(token)
    return tuple(out) or None


class ChatClient:
    """JSON answers from an OpenAI-compatible chat completions endpoint.

    Parameters
    ----------
    model : str
        The server's model name (``gpt-4o-mini``, ``llama3.1:8b``, …); it is also the
        ``extractor`` the memories carry (its ``e`` comes from the model table).
    base_url : str, optional
        The API root, e.g. ``http://127.0.0.1:11434/v1`` (default: the client's,
        ``OPENAI_BASE_URL`` or OpenAI's).
    api_key : str, optional
        Default: ``GRAPHMEM_LLM_API_KEY``, else ``OPENAI_API_KEY``, else a placeholder.
    timeout_s : float
        Per-request timeout, seconds (> 0).
    max_retries : int
        The client's own retries on connection errors, 429 and 5xx (>= 0).
    logprobs : bool
        Ask for token logprobs (dropped by itself when the server rejects them).
    temperature : float
        Sampling temperature (0: the most likely answer).

    Raises
    ------
    ExtractionError
        On a call: see the module docstring.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        logprobs: bool = True,
        temperature: float = 0.0,
    ) -> None:
        if not model.strip():
            raise ConfigurationError("the LLM needs a model name (GRAPHMEM_LLM_MODEL)")
        if not timeout_s > 0 or max_retries < 0:
            raise ConfigurationError("the LLM client needs timeout_s > 0 and max_retries >= 0")
        self.model = model
        self._timeout_s = timeout_s
        self._temperature = temperature
        # what this server took so far: the mode, and whether it returns logprobs
        self._mode: Mode = "json_schema"
        self._logprobs = logprobs
        self._lock = threading.Lock()
        self._openai = LazyClient(
            base_url=base_url,
            api_key=api_key,
            key_variable="GRAPHMEM_LLM_API_KEY",
            timeout_s=timeout_s,
            max_retries=max_retries,
            error=ExtractionError,
            missing="LLM extraction needs the openai client: pip install 'graphmem[llm]'",
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatClient:
        """The client ``GRAPHMEM_LLM_*`` configure.

        Raises
        ------
        ConfigurationError
            ``GRAPHMEM_LLM_MODEL`` is not set.
        """
        if not settings.llm.llm_model:
            raise ConfigurationError(
                "LLM extraction needs GRAPHMEM_LLM_MODEL (and GRAPHMEM_LLM_BASE_URL for a"
                " server other than OpenAI's, e.g. http://127.0.0.1:11434/v1 for Ollama)"
            )
        key = settings.llm.llm_api_key.get_secret_value() if settings.llm.llm_api_key else None
        return cls(
            settings.llm.llm_model,
            base_url=settings.llm.llm_base_url,
            api_key=key,
            timeout_s=settings.llm.llm_timeout_s,
            max_retries=settings.llm.llm_max_retries,
            logprobs=settings.llm.llm_logprobs,
        )

    @property
    def where(self) -> str:
        """The server the requests go to (for messages)."""
        return self._openai.where

    def _load(self) -> Any:
        return self._openai.get()

    # ------------------------------------------------------------------ calls
    def complete_json(
        self,
        system: str,
        user: str,
        *,
        schema: dict[str, Any],
        name: str,
        validate: Callable[[dict[str, Any], ChatReply], T],
    ) -> T:
        """Ask, and return ``validate(answer object, reply)``.

        Parameters
        ----------
        system, user : str
            The instructions and the input.
        schema : dict
            JSON schema of the answer object (strict: every property required,
            ``additionalProperties`` false).
        name : str
            The schema's name (letters, digits, ``_``, ``-``).
        validate : callable
            Turns the parsed object into the result; a ``ValueError`` (pydantic's
            ``ValidationError`` included) sends the answer back once with the error.

        Raises
        ------
        ExtractionError
            See the class.
        """
        client = self._load()
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        problem = ""
        for attempt in range(2):
            reply = self._ask(client, messages, schema, name)
            try:
                data = json.loads(strip_fences(reply.text))
                if not isinstance(data, dict):
                    raise ValueError(f"expected a JSON object, got {type(data).__name__}")
                check_not_schema(data, schema)
                return validate(data, reply)
            except (ValueError, ValidationError) as exc:  # JSONDecodeError is a ValueError
                problem = _short(str(exc))
                if reply.finish_reason == "length":
                    problem = f"the answer stopped at the server's length limit ({problem})"
                if attempt == 0:
                    messages += [
                        {"role": "assistant", "content": reply.text},
                        {
                            "role": "user",
                            "content": (
                                f"That answer is not valid: {problem}. Answer again with only"
                                " the JSON object that matches the schema."
                            ),
                        },
                    ]
        raise ExtractionError(
            f"model {self.model!r} at {self.where} answered no valid JSON for schema"
            f" {name!r} after one retry: {problem}"
        )

    def _ask(
        self, client: Any, messages: list[dict[str, str]], schema: dict[str, Any], name: str
    ) -> ChatReply:
        """One answer, stepping down json_schema → json_object → no logprobs while the
        server rejects the request's form (400 / 422)."""
        import openai

        while True:
            mode, logprobs = self._mode, self._logprobs
            sent = list(messages)
            sent[0] = {
                "role": "system",
                "content": messages[0]["content"] + shape_note(schema, mode),
            }
            if mode == "json_schema":
                response_format: dict[str, Any] = {
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": True},
                }
            else:
                response_format = {"type": "json_object"}
            extra: dict[str, Any] = {"logprobs": True} if logprobs else {}
            try:
                response = client.chat.completions.create(
                    model=self.model,
                    messages=sent,
                    response_format=response_format,
                    temperature=self._temperature,
                    **extra,
                )
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                with self._lock:
                    if mode == "json_schema" and self._mode == "json_schema":
                        self._mode = "json_object"
                        continue
                    if logprobs and self._logprobs:
                        self._logprobs = False
                        continue
                raise self._error(exc) from exc
            except openai.APIError as exc:
                raise self._error(exc) from exc
            return self._read(response, mode)

    def _read(self, response: Any, mode: Mode) -> ChatReply:
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise ExtractionError(f"model {self.model!r} at {self.where} sent no answer")
        choice = choices[0]
        message = choice.message
        refusal = getattr(message, "refusal", None)
        if refusal:
            raise ExtractionError(
                f"model {self.model!r} at {self.where} refused: {_short(str(refusal))}"
            )
        if choice.finish_reason == "content_filter":
            raise ExtractionError(
                f"model {self.model!r} at {self.where} withheld the answer (content filter)"
            )
        text = message.content or ""
        tokens: tuple[tuple[str, float], ...] | None = None
        content = getattr(getattr(choice, "logprobs", None), "content", None)
        if content:
            tokens = _tokens(content)
        return ChatReply(text=text, mode=mode, tokens=tokens, finish_reason=choice.finish_reason)

    def _error(self, exc: Exception) -> ExtractionError:
        import openai

        if isinstance(exc, openai.APITimeoutError):
            what = f"timed out after {self._timeout_s:g} s"
        elif isinstance(exc, openai.APIConnectionError):
            what = f"cannot be reached ({exc})"
        elif isinstance(exc, openai.APIStatusError):
            what = f"answered {exc.status_code}: {_short(exc.message)}"
        else:
            what = f"failed: {_short(str(exc))}"
        return ExtractionError(f"LLM server {self.where} (model {self.model!r}) {what}")


def _tokens(content: Any) -> tuple[tuple[str, float], ...]:
    """(text, logprob) per token; the text decoded from the token's ``bytes`` when
    every token has them (a UTF-8 character may be split over tokens, whose ``token``
    strings then hold replacement characters), else its ``token``."""
    if all(getattr(t, "bytes", None) is not None for t in content):
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        texts = [decoder.decode(bytes(t.bytes)) for t in content]
        texts[-1] += decoder.decode(b"", final=True)
    else:
        texts = [str(t.token) for t in content]
    return tuple((text, float(t.logprob)) for text, t in zip(texts, content, strict=True))


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
