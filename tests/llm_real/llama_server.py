"""A small OpenAI-compatible chat server around a local GGUF model (docs/llm.md).

``ik-llama-cpp-python`` 0.1.5 ships ctypes bindings and a ``create_chat_completion``
that applies a Gemma chat template, samples by looping over the vocabulary in Python
and returns no logprobs; it has no HTTP server. This shim, run by
``scripts/llm-real.sh`` in the separate ``.venv-llm`` (stdlib + the runtime + numpy),
serves the model the way the real-model tests need:

- ``POST /v1/chat/completions``: ``messages`` rendered with the model's ChatML
  template (Qwen2.5: ``<|im_start|>role\\n…<|im_end|>``), ``temperature`` (0: greedy),
  ``max_tokens`` (default 2048; ``finish_reason`` ``length`` when reached),
  ``logprobs`` / ``top_logprobs`` (natural-log probabilities of the model's
  distribution, with each token's UTF-8 ``bytes``), ``response_format``:
  ``json_object`` is accepted and *not* enforced (no grammar: the prompt does it);
  ``json_schema`` depends on the mode (``--json-schema``, or ``POST /shim/config``
  ``{"json_schema": mode}``): ``guided`` (default) enforces the schema while decoding
  (tests/llm_real/guided.py), as llama.cpp's server does with a grammar; ``reject``
  answers 400, like a server without structured output; ``ignore`` accepts it and
  enforces nothing, like servers that drop it.
- ``GET /v1/models``: the one model (the readiness probe of the script).
- ``POST /shim/faults`` ``{"truncate_next": n}``: the next ``n`` answers are cut at
  half their tokens (``finish_reason`` ``length``) — a real model's answer made
  malformed the way a low ``max_tokens`` makes it, for the retry tests.
- ``GET /shim/last``: the last request's messages, answer text, finish reason and
  tokens with their logprobs.
- ``GET /shim/stats``: per request, prompt tokens, prompt tokens reused from the
  previous request's KV cache, generated tokens and seconds (for docs/llm.md).

One request at a time (a lock); the KV cache keeps the previous prompt, so a request
that shares its prefix (the same system prompt) only evaluates the rest.
Never a public service: it binds 127.0.0.1.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
from guided import Decoder, Vocabulary  # the script runs this file; its folder is on sys.path
from ik_llama_cpp import _ctypes_api as C
from ik_llama_cpp._internals import IkContext, IkModel, make_batch_range, make_batch_single

_seq_rm = C._lib.llama_kv_cache_seq_rm
_seq_rm.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32]
_seq_rm.restype = ctypes.c_bool

JSON_SCHEMA_MODES = ("guided", "reject", "ignore")
DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."


class BadRequest(Exception):
    """A request the server answers with HTTP 400."""


def guided_schema(body: dict[str, Any], mode: str) -> dict[str, Any] | None:
    """The schema to guide the answer by: ``response_format`` ``json_schema``'s when the
    server runs with ``json_schema`` ``guided``, else None."""
    response_format = body.get("response_format") or {}
    if mode != "guided" or response_format.get("type") != "json_schema":
        return None
    schema = (response_format.get("json_schema") or {}).get("schema")
    if not isinstance(schema, dict):
        raise BadRequest("response_format.json_schema.schema must be an object")
    return schema


class Engine:
    """The model, its context and the tokens now in the KV cache."""

    def __init__(self, path: str, *, n_ctx: int, threads: int, name: str) -> None:
        started = time.perf_counter()
        self.model = IkModel(path)
        self.context = IkContext(self.model, n_ctx=n_ctx, n_threads=threads, flash_attn=False)
        self.load_s = time.perf_counter() - started
        self.name = name
        self.n_ctx = n_ctx
        self.n_vocab = self.model.n_vocab
        self.cached: list[int] = []
        self.lock = threading.Lock()
        self.json_schema = "reject"
        buffer = ctypes.create_string_buffer(256)
        pieces = []
        for token in range(self.n_vocab):
            n = C.llama_token_to_piece(self.model.model, token, buffer, 256, 0, False)
            pieces.append(buffer.raw[:n] if n > 0 else b"")
        self.vocabulary = Vocabulary(pieces)
        self.faults = {"truncate_next": 0}
        self.stats: list[dict[str, Any]] = []
        self.rng = np.random.default_rng(0)
        self.last: dict[str, Any] = {}

    # ----------------------------------------------------------- prompting
    @staticmethod
    def render(messages: list[dict[str, Any]]) -> str:
        parts: list[str] = []
        if not messages or messages[0].get("role") != "system":
            parts.append(f"<|im_start|>system\n{DEFAULT_SYSTEM}<|im_end|>\n")
        for message in messages:
            role = message.get("role")
            content = message.get("content")
            if role not in ("system", "user", "assistant") or not isinstance(content, str):
                raise BadRequest("each message needs a role (system/user/assistant) and text")
            parts.append(f"<|im_start|>{role}\n{content}<|im_end|>\n")
        parts.append("<|im_start|>assistant\n")
        return "".join(parts)

    def _logits(self, idx: int) -> np.ndarray:
        pointer = self.context.get_logits(idx)
        return np.ctypeslib.as_array(pointer, shape=(self.n_vocab,)).astype(np.float64)

    def _prefill(self, tokens: list[int]) -> int:
        """Evaluate ``tokens`` past the prefix already cached; returns the reused count."""
        keep = 0
        for old, new in zip(self.cached, tokens, strict=False):
            if old != new:
                break
            keep += 1
        keep = min(keep, len(tokens) - 1)  # the last prompt token is always evaluated
        ctx = self.context.ctx
        if keep == 0 or not _seq_rm(ctx, 0, keep, -1):
            self.context.kv_cache_clear()
            keep = 0
        self.cached = tokens[:keep]
        step = self.context._n_ubatch
        for start in range(keep, len(tokens), step):
            chunk = tokens[start : start + step]
            last = start + step >= len(tokens)
            batch = make_batch_range(chunk, pos_start=start, logits_last=last)
            status = self.context.decode(batch)
            C.llama_batch_free(batch)
            if status != 0:
                self.cached = []
                self.context.kv_cache_clear()
                raise RuntimeError(f"llama_decode failed during the prompt: {status}")
            self.cached.extend(chunk)
        return keep

    # ----------------------------------------------------------- one answer
    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("messages must be a non-empty list")
        max_tokens = int(body.get("max_tokens") or body.get("max_completion_tokens") or 2048)
        temperature = float(body.get("temperature") if body.get("temperature") is not None else 1)
        want_logprobs = bool(body.get("logprobs"))
        top = int(body.get("top_logprobs") or 0)
        schema = guided_schema(body, self.json_schema)
        prompt = self.model.tokenize(self.render(messages), add_bos=False, special=True)
        if len(prompt) + max_tokens > self.n_ctx:
            max_tokens = self.n_ctx - len(prompt)
            if max_tokens <= 0:
                raise BadRequest(f"the prompt has {len(prompt)} tokens; the context {self.n_ctx}")
        with self.lock:
            started = time.perf_counter()
            reused = self._prefill(prompt)
            prompt_s = time.perf_counter() - started
            decoder = self._decoder(len(prompt), max_tokens, temperature, top)
            finish = decoder.guided(schema) if schema is not None else decoder.free()
            tokens = decoder.out
            generated_s = time.perf_counter() - started - prompt_s
            truncate = self.faults["truncate_next"] > 0
            if truncate:
                self.faults["truncate_next"] -= 1
                tokens, finish = tokens[: max(1, len(tokens) // 2)], "length"
            self.stats.append(
                {
                    "prompt_tokens": len(prompt),
                    "reused_tokens": reused,
                    "prompt_s": round(prompt_s, 3),
                    "completion_tokens": len(tokens),
                    "completion_s": round(generated_s, 3),
                    "truncated": truncate,
                }
            )
        text = b"".join(p for _, p, _, _ in tokens).decode("utf-8", errors="replace")
        self.last = {
            "messages": messages,
            "answer": text,
            "finish_reason": finish,
            "tokens": [[p.decode("utf-8", errors="replace"), lp] for _, p, lp, _ in tokens],
        }
        logprobs = None
        if want_logprobs:
            logprobs = {
                "content": [
                    {
                        "token": p.decode("utf-8", errors="replace"),
                        "logprob": lp,
                        "bytes": list(p),
                        "top_logprobs": alts,
                    }
                    for _, p, lp, alts in tokens
                ],
                "refusal": None,
            }
        return {
            "id": f"chatcmpl-shim-{len(self.stats)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.name,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "finish_reason": finish,
                    "logprobs": logprobs,
                }
            ],
            "usage": {
                "prompt_tokens": len(prompt),
                "completion_tokens": len(tokens),
                "total_tokens": len(prompt) + len(tokens),
            },
        }

    def _decoder(self, position: int, max_tokens: int, temperature: float, top: int) -> Decoder:
        where = {"position": position}

        def logprobs() -> np.ndarray:
            logits = self._logits(-1)
            shifted = logits - logits.max()
            return shifted - np.log(np.exp(shifted).sum())

        def step(token: int) -> None:
            batch = make_batch_single(token, where["position"])
            status = self.context.decode(batch)
            C.llama_batch_free(batch)
            if status != 0:
                self.cached = []
                raise RuntimeError(f"llama_decode failed while answering: {status}")
            self.cached.append(token)
            where["position"] += 1

        return Decoder(
            self.vocabulary,
            logprobs=logprobs,
            step=step,
            tokenize=lambda text: self.model.tokenize(text, add_bos=False, special=False),
            is_end=lambda token: bool(C.llama_token_is_eog(self.model.model, token)),
            max_tokens=max_tokens,
            temperature=temperature,
            top=top,
            rng=self.rng,
        )


def serve(engine: Engine, port: int) -> None:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str) -> None:
            self._send(status, {"error": {"message": message, "type": "invalid_request_error"}})

        def do_GET(self) -> None:
            if self.path == "/v1/models":
                model = {"id": engine.name, "object": "model", "owned_by": "local"}
                self._send(200, {"object": "list", "data": [model]})
            elif self.path == "/shim/last":
                self._send(200, engine.last)
            elif self.path == "/shim/stats":
                self._send(200, {"load_s": round(engine.load_s, 3), "requests": engine.stats})
            else:
                self._error(404, f"no route {self.path}")

        def do_POST(self) -> None:
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            except ValueError:
                self._error(400, "the body is not JSON")
                return
            if self.path == "/shim/faults":
                engine.faults["truncate_next"] = int(body.get("truncate_next", 0))
                self._send(200, engine.faults)
                return
            if self.path == "/shim/config":
                mode = body.get("json_schema", engine.json_schema)
                if mode not in JSON_SCHEMA_MODES:
                    self._error(400, f"json_schema must be one of {', '.join(JSON_SCHEMA_MODES)}")
                    return
                engine.json_schema = mode
                self._send(200, {"json_schema": mode})
                return
            if self.path != "/v1/chat/completions":
                self._error(404, f"no route {self.path}")
                return
            kind = (body.get("response_format") or {}).get("type")
            if kind == "json_schema" and engine.json_schema == "reject":
                self._error(400, "response_format type json_schema is not supported")
                return
            try:
                self._send(200, engine.complete(body))
            except BadRequest as exc:
                self._error(400, str(exc))
            except Exception as exc:  # a server error, named
                self._error(500, f"{type(exc).__name__}: {exc}")

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"serving {engine.name} on http://127.0.0.1:{port}/v1 (loaded in {engine.load_s:.1f} s)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, help="path of the GGUF file")
    parser.add_argument("--name", default="qwen2.5-coder-1.5b-instruct-q4_k_m")
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=8192, help="context length, tokens")
    parser.add_argument(
        "--json-schema",
        choices=JSON_SCHEMA_MODES,
        default="guided",
        help="response_format json_schema: guided (enforced), reject (400), ignore",
    )
    args = parser.parse_args()
    engine = Engine(args.model, n_ctx=args.ctx, threads=args.threads, name=args.name)
    engine.json_schema = args.json_schema
    serve(engine, args.port)


if __name__ == "__main__":
    main()
