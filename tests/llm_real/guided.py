"""Token-by-token decoding for the shim (tests/llm_real/llama_server.py): free, or
guided by a JSON schema the way llama.cpp's server enforces ``response_format``
``json_schema`` with a grammar — here without a grammar engine, for the subset of JSON
schema graphmem sends (SPEC §11):

- ``object`` with ``properties``: written in the schema's order, every property, the
  keys fixed, laid out like ``json.dumps(indent=1)`` (the model's own layout after
  graphmem's prompt);
- ``array`` of ``items``: the model chooses between another item and ``]`` (at most
  ``MAX_ITEMS``);
- ``string``: the model writes it, restricted to tokens without ``"``, ``\\`` or
  control characters, until its best token that closes the string (``"``, ``",``,
  ``."``, ``.",`` …: text, the quote, then only JSON punctuation) beats its best token
  inside the string; ``enum``: the model chooses among the values; ``integer``: digits;
  ``boolean``: ``true`` / ``false``; ``["T", "null"]``: ``null`` or a value.

Text the schema fixes is not written alone: it waits and is tokenized together with
the next choice (``"verdict": "same"`` is written ``"`` ``verdict`` ``":`` `` "`` ``same`` …, the
tokens the model itself uses), and a choice compares the model's log-probability
of each option's next token. Forcing ``":`` and then asking for ``"`` would push the
model off its own tokenization; an earlier version that did so answered "same" for
two different claims, where JSON mode answered right.

Every token written, forced or chosen, is reported with the model's own
log-probability of it at that point (so logprobs stay honest).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np

MAX_ITEMS = 8
MAX_STRING_TOKENS = 96
MAX_DIGITS = 6
#: Spaces per level: the answer is laid out like the shape graphmem shows in the prompt
#: (``json.dumps(indent=1)``), which is how the model writes JSON there by itself.
INDENT = 1

Token = tuple[int, bytes, float, list[dict[str, Any]]]


class OutOfTokens(Exception):
    """The answer reached ``max_tokens``."""


class Vocabulary:
    """Each token's bytes and the masks the guided decoder needs."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces
        n = len(pieces)
        self.string_body = np.zeros(n, dtype=bool)
        self.digits = np.zeros(n, dtype=bool)
        #: token -> bytes before its closing quote, for the tokens that close a string
        self.closing: dict[int, int] = {}
        for token, piece in enumerate(pieces):
            if not piece:
                continue
            clean = b"\\" not in piece and all(byte >= 0x20 for byte in piece)
            quotes = piece.count(b'"')
            self.string_body[token] = clean and quotes == 0
            self.digits[token] = piece.isdigit()
            # '.",' '",\n' '"}': text of the string, its closing quote, then only JSON
            # punctuation; the decoder writes the text and queues the quote
            if quotes and b"\\" not in piece:
                body, _, rest = piece.partition(b'"')
                if all(b >= 0x20 for b in body) and rest.strip(b",:}] \n") == b"":
                    self.closing[token] = len(body)
        self.closes = np.zeros(n, dtype=bool)
        self.closes[list(self.closing)] = True


class Decoder:
    """One answer: ``step(token)`` feeds a token to the model, ``logprobs()`` gives the
    log-probabilities of the next one; the tokens written are in :attr:`out`."""

    def __init__(
        self,
        vocabulary: Vocabulary,
        *,
        logprobs: Callable[[], np.ndarray],
        step: Callable[[int], None],
        tokenize: Callable[[str], list[int]],
        is_end: Callable[[int], bool],
        max_tokens: int,
        temperature: float,
        top: int,
        rng: np.random.Generator,
    ) -> None:
        self.vocabulary = vocabulary
        self._logprobs = logprobs
        self._step = step
        self._tokenize = tokenize
        self._is_end = is_end
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.top = top
        self.rng = rng
        self.out: list[Token] = []
        self.pending = ""

    # ------------------------------------------------------------ primitives
    def _emit(self, token: int, logprobs: np.ndarray) -> None:
        if len(self.out) >= self.max_tokens:
            raise OutOfTokens
        alts = []
        for alt in np.argsort(-logprobs)[: self.top] if self.top else ():
            piece = self.vocabulary.pieces[int(alt)]
            alts.append(
                {
                    "token": piece.decode("utf-8", errors="replace"),
                    "logprob": float(logprobs[alt]),
                    "bytes": list(piece),
                }
            )
        self.out.append((token, self.vocabulary.pieces[token], float(logprobs[token]), alts))
        self._step(token)

    def _pick(self, logprobs: np.ndarray, allowed: np.ndarray | None = None) -> int:
        scores = logprobs if allowed is None else np.where(allowed, logprobs, -np.inf)
        if self.temperature <= 0:
            return int(np.argmax(scores))
        scaled = np.exp((scores - scores.max()) / self.temperature)
        return int(self.rng.choice(len(scores), p=scaled / scaled.sum()))

    def _force(self, text: str) -> None:
        """Queue text the schema fixes; it is written with the next choice or value,
        tokenized together with it (``":"`` is one token of the model, ``":`` then
        ``"`` is not: forcing the halves apart would push the model off its path)."""
        self.pending += text

    def _flush(self) -> None:
        pending, self.pending = self.pending, ""
        for token in self._tokenize(pending) if pending else ():
            self._emit(token, self._logprobs())

    def _choose(self, options: list[str]) -> int:
        """Write the queued text and the option the model prefers, token by token,
        comparing the model's log-probability of each option's next token; its index."""
        pending, self.pending = self.pending, ""
        sequences = [self._tokenize(pending + option) for option in options]
        alive = list(range(len(options)))
        position = 0
        while True:
            logprobs = self._logprobs()
            best = max(alive, key=lambda k: logprobs[sequences[k][position]])
            token = sequences[best][position]
            alive = [k for k in alive if sequences[k][position] == token]
            self._emit(token, logprobs)
            position += 1
            done = [k for k in alive if len(sequences[k]) == position]
            if done:
                return done[0]

    # ------------------------------------------------------------ free text
    def free(self) -> str:
        """Generate until the model ends its turn; the finish reason."""
        try:
            while True:
                logprobs = self._logprobs()
                token = self._pick(logprobs)
                if self._is_end(token):
                    return "stop"
                self._emit(token, logprobs)
        except OutOfTokens:
            return "length"

    # ------------------------------------------------------------ JSON schema
    def guided(self, schema: dict[str, Any]) -> str:
        """Write one JSON value of ``schema``; the finish reason."""
        try:
            self._value(schema)
            self._flush()
        except OutOfTokens:
            return "length"
        return "stop"

    def _value(self, schema: dict[str, Any], opened: bool = False, depth: int = 0) -> None:
        """One value after the queued text; ``opened``: its first characters (``{`` and
        the first key of an object, ``"`` of a string) are written already."""
        declared = schema.get("type")
        kinds = declared if isinstance(declared, list) else [declared]
        kind = next((k for k in kinds if k not in (None, "null")), None)
        if "enum" in schema:
            options = [json.dumps(v, ensure_ascii=False) for v in schema["enum"]]
            self._choose(options + (["null"] if "null" in kinds else []))
            return
        if "null" in kinds and not opened:
            start = self._start(schema, kind, depth)
            if self._choose(["null", start]) == 0:
                return
            opened = True
        if kind == "object":
            self._object(schema, opened, depth)
        elif kind == "array":
            self._array(schema.get("items") or {}, opened, depth)
        elif kind == "string":
            self._string(opened)
        elif kind == "integer":
            self._integer()
        elif kind == "boolean":
            self._choose(["true", "false"])
        else:
            raise ValueError(f"the shim cannot guide a value of type {declared!r}")

    def _newline(self, depth: int) -> str:
        return "\n" + " " * (INDENT * depth)

    def _start(self, schema: dict[str, Any], kind: str | None, depth: int) -> str:
        """The characters a value of ``schema`` at ``depth`` opens with."""
        if kind == "object":
            first = next(iter(schema.get("properties") or {}), None)
            if first is None:
                return "{"
            return "{" + self._newline(depth + 1) + json.dumps(first, ensure_ascii=False)[:-1]
        return {"array": "[", "string": '"'}.get(kind or "", "")

    def _object(self, schema: dict[str, Any], opened: bool, depth: int) -> None:
        properties = schema.get("properties") or {}
        if not properties:
            self._force("}" if opened else "{}")
            return
        for i, (key, value) in enumerate(properties.items()):
            written = json.dumps(key, ensure_ascii=False)[:-1]  # '"key'
            if i > 0:
                self._force("," + self._newline(depth + 1) + written)
            elif not opened:
                self._force("{" + self._newline(depth + 1) + written)
            self._force('": ')
            self._value(value, depth=depth + 1)
        self._force(self._newline(depth) + "}")

    def _array(self, items: dict[str, Any], opened: bool, depth: int) -> None:
        if not opened:
            self._force("[")
        declared = items.get("type")
        start = self._start(items, declared if isinstance(declared, str) else None, depth + 1)
        for count in range(MAX_ITEMS):
            item = ("," if count else "") + self._newline(depth + 1) + start
            if self._choose([self._newline(depth) + "]" if count else "]", item]) == 0:
                return
            self._value(items, opened=bool(start), depth=depth + 1)
        self._force(self._newline(depth) + "]")

    def _string(self, opened: bool) -> None:
        if not opened:
            self._force('"')
        self._flush()
        vocabulary = self.vocabulary
        for _ in range(MAX_STRING_TOKENS):
            logprobs = self._logprobs()
            token = self._pick(logprobs, vocabulary.string_body)
            # the model may close the string with '"', '",' '."' '.",\n' …: the best
            # of those against the best token inside the string
            closing = self._pick(logprobs, vocabulary.closes)
            if logprobs[closing] > logprobs[token]:
                text = vocabulary.pieces[closing][: vocabulary.closing[closing]]
                if text:  # the string's last characters, then the queued quote
                    for piece in self._tokenize(text.decode("utf-8", errors="replace")):
                        self._emit(piece, self._logprobs())
                self._force('"')
                return
            self._emit(token, logprobs)
        self._force('"')

    def _integer(self) -> None:
        self._flush()
        digits = self.vocabulary.digits
        logprobs = self._logprobs()
        self._emit(self._pick(logprobs, digits), logprobs)
        for _ in range(MAX_DIGITS - 1):
            logprobs = self._logprobs()
            token = self._pick(logprobs)
            if not digits[token]:
                return
            self._emit(token, logprobs)
