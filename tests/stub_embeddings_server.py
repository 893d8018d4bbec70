"""A local stand-in for an OpenAI-compatible ``/v1/embeddings`` server (issue 17 tests).

It answers on 127.0.0.1 (an ephemeral port) as OpenAI's API does: ``{"object":
"list", "data": [{"object": "embedding", "index": i, "embedding": [...]}], "model",
"usage"}``. Each vector is a deterministic function of the text (signed hashes of its
words, scaled by 3 so that it is *not* unit length: the client must normalise), and
the rows come back in reverse order (the client must sort by ``index``). It records
every request body and ``Authorization`` header, and can be told to answer with
vectors of another dimension, or with an HTTP error. Like OpenAI, it rejects an
empty string with 400.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def stub_vector(text: str, dim: int) -> list[float]:
    """The stub's (unnormalised) vector for ``text``."""
    out = np.zeros(dim, dtype=np.float64)
    for word in text.lower().split() or ["<empty>"]:
        digest = hashlib.sha256(word.encode()).digest()
        for j in range(3):
            out[int.from_bytes(digest[4 * j : 4 * j + 4], "little") % dim] += (
                1.0 if digest[12 + j] % 2 else -1.0
            )
    norm = float(np.linalg.norm(out)) or 1.0
    return [3.0 * float(x) / norm for x in out]


@dataclass
class StubState:
    dim: int = 8
    status: int = 200
    requests: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)


@contextmanager
def embeddings_server(dim: int = 8) -> Iterator[tuple[str, StubState]]:
    """Run the stub; yields its base URL (``http://127.0.0.1:PORT/v1``) and its state."""
    state = StubState(dim=dim)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # silence the test output
            return

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            state.requests.append(body)
            state.authorizations.append(self.headers.get("Authorization"))
            if self.path != "/v1/embeddings":
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            if state.status != 200:
                self._send(state.status, {"error": {"message": "stub failure", "type": "x"}})
                return
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            if any(not t for t in texts):
                self._send(400, {"error": {"message": "'$.input' is invalid", "type": "x"}})
                return
            rows = [
                {"object": "embedding", "index": i, "embedding": stub_vector(t, state.dim)}
                for i, t in enumerate(texts)
            ]
            self._send(
                200,
                {
                    "object": "list",
                    "data": rows[::-1],
                    "model": body["model"],
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
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
        thread.join()
