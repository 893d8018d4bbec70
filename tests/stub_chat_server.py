"""A local stand-in for an OpenAI-compatible ``/v1/chat/completions`` server (issue 12
LLM extraction tests). Never a real service.

It answers on 127.0.0.1 (an ephemeral port) in the shape of OpenAI's API:
``{"id", "object": "chat.completion", "model", "choices": [{"index": 0, "message":
{"role": "assistant", "content", "refusal"}, "finish_reason", "logprobs": {"content":
[{"token", "logprob", "bytes", "top_logprobs"}]}}], "usage"}``. The test scripts its
answers in ``StubState.replies`` (one per request, in order): an answer text (its
tokens are the text cut in pieces of 4 characters, each with logprob -0.1 unless the
reply gives its own), an HTTP status, a refusal or a delay. It can be told to reject
``response_format`` ``json_schema`` or ``logprobs`` with 400, as servers without those
features do, and records every request body and ``Authorization`` header.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: ``text`` (with ``logprobs`` per 4-character token, default
    -0.1 each; ``None`` sends no logprobs), or ``status`` (an HTTP error), or
    ``refusal``; ``delay`` seconds before answering."""

    text: str = ""
    status: int = 200
    refusal: str | None = None
    delay: float = 0.0
    logprob: float | None = -0.1
    logprobs: list[float] | None = None  # one per token of tokens_of(text), instead
    finish_reason: str = "stop"


def tokens_of(text: str) -> list[str]:
    """How the stub cuts an answer into tokens (4 characters each)."""
    return [text[i : i + 4] for i in range(0, len(text), 4)]


@dataclass
class StubState:
    replies: list[Reply] = field(default_factory=list)
    reject_json_schema: bool = False
    reject_logprobs: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)


@contextmanager
def chat_server() -> Iterator[tuple[str, StubState]]:
    """Run the stub; yields its base URL (``http://127.0.0.1:PORT/v1``) and its state."""
    state = StubState()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # silence the test output
            return

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client timed out
                return

        def _error(self, status: int, message: str) -> None:
            self._send(status, {"error": {"message": message, "type": "invalid_request_error"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            with lock:
                state.requests.append(body)
                state.authorizations.append(self.headers.get("Authorization"))
            if self.path != "/v1/chat/completions":
                self._error(404, f"no route {self.path}")
                return
            kind = (body.get("response_format") or {}).get("type")
            if state.reject_json_schema and kind == "json_schema":
                self._error(400, "response_format type json_schema is not supported")
                return
            if state.reject_logprobs and body.get("logprobs"):
                self._error(400, "logprobs are not supported by this model")
                return
            with lock:
                reply = state.replies.pop(0) if state.replies else Reply(status=599)
            if reply.delay:
                time.sleep(reply.delay)
            if reply.status != 200:
                self._error(reply.status, "stub failure")
                return
            logprobs = None
            if body.get("logprobs") and reply.logprob is not None and reply.refusal is None:
                tokens = tokens_of(reply.text)
                values = reply.logprobs or [reply.logprob] * len(tokens)
                logprobs = {
                    "content": [
                        {"token": t, "logprob": lp, "bytes": None, "top_logprobs": []}
                        for t, lp in zip(tokens, values, strict=True)
                    ],
                    "refusal": None,
                }
            message = {
                "role": "assistant",
                "content": None if reply.refusal else reply.text,
                "refusal": reply.refusal,
            }
            self._send(
                200,
                {
                    "id": "chatcmpl-stub",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model"),
                    "choices": [
                        {
                            "index": 0,
                            "message": message,
                            "finish_reason": reply.finish_reason,
                            "logprobs": logprobs,
                        }
                    ],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                },
            )

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
