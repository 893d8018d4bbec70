"""Raw conversation in, without a model: format detection and verbatim turns
(docs/spec.md §11 "Offline default"; docs/extraction.md "Formats accepted").

``graphmem ingest FILE`` reads one of four formats, told apart by content (not
by the file's suffix):

- **candidates**: JSON lines, one memory candidate each (README "Input format");
- **messages (JSONL)**: JSON lines with ``speaker`` (or ``role``) and
  ``content``, optionally ``observed_at``, ``session_id``, ``turn_id``;
- **messages (JSON)**: one JSON array of such objects, or ``{"messages": [...]}``;
- **chat**: plain text, one turn per line ``Name: text``; a line
  ``# session ID [ISO-TIME]`` starts a session (its turns are observed at
  ISO-TIME), other ``#`` lines are comments, a line without ``Name:`` continues
  the turn above it, blank lines are skipped.

:class:`TranscriptExtractor` turns messages into memory candidates without a
model: each turn a verbatim record ``"Speaker: text"`` (extractor ``verbatim``,
its speaker the subject entity, its session and time); the write pipeline's
offline extractor adds the entities and relations the text states.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from graphmem.errors import InvalidInputError
from graphmem.jsonlines import json_object
from graphmem.models import EntityMention, MemoryCandidate

if TYPE_CHECKING:  # pragma: no cover
    from graphmem.extract.messages import Message

__all__ = [
    "ACCEPTED_FORMATS",
    "VERBATIM",
    "InputFormat",
    "TranscriptExtractor",
    "read_input",
]

InputFormat = Literal["candidates", "messages", "chat"]
#: ``Memory.extractor`` of a turn stored as said.
VERBATIM = "verbatim"
#: What the error for an unreadable file lists.
ACCEPTED_FORMATS = (
    "accepted formats: (1) JSONL memory candidates, one JSON object per line"
    ' (README "Input format"); (2) JSONL or a JSON array of messages'
    ' {"speaker", "content", "observed_at", "session_id"}; (3) a chat, one turn per line'
    ' "Name: text", with optional "# session ID 2026-05-15T10:00+02:00" lines'
    " (docs/extraction.md)"
)
_MESSAGE_KEYS = frozenset({"content", "speaker", "role", "observed_at", "session_id", "turn_id"})
_SESSION = re.compile(r"^#\s*session\s+(?P<id>[^\s#]+)(?:\s+(?P<time>\S+))?\s*$", re.I)
# a speaker: one to four words of letters (digits, ' . - allowed inside), up to 60 characters
_TURN = re.compile(
    r"^\s*(?P<name>[^\W\d_][\w'’.-]*(?:[ \t]+[\w'’.-]+){0,3})[ \t]*:[ \t]+(?P<text>\S.*)$"
)


def read_input(text: str) -> tuple[InputFormat, list[dict[str, Any]]]:
    """The format of an ingest file's ``text`` and its records.

    Returns
    -------
    (format, records)
        ``candidates``: candidate dicts (validated by the caller); ``messages`` and
        ``chat``: message dicts with the fields of
        :class:`~graphmem.extract.messages.Message`.

    Raises
    ------
    InvalidInputError
        The text is in none of the formats (the message lists them, and where it
        failed: ``field="line N"``), or is empty.
    """
    stripped = text.strip()
    if not stripped:
        raise InvalidInputError(f"the file is empty; {ACCEPTED_FORMATS}", field="path")
    if stripped.startswith("["):
        return "messages", _json_messages(stripped)
    if stripped.startswith("{"):
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and isinstance(whole.get("messages"), list):
            return "messages", _json_messages(json.dumps(whole["messages"]))
        return _json_lines(text)
    return "chat", _chat(text)


def _is_message(record: dict[str, Any]) -> bool:
    return ("speaker" in record or "role" in record) and set(record) <= _MESSAGE_KEYS


def _json_messages(text: str) -> list[dict[str, Any]]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(
            f"not valid JSON ({exc.msg}, line {exc.lineno}); {ACCEPTED_FORMATS}", field="path"
        ) from exc
    if not isinstance(value, list) or not all(
        isinstance(v, dict) and _is_message(v) for v in value
    ):
        raise InvalidInputError(
            "a JSON array must hold message objects with 'speaker' and 'content';"
            f" {ACCEPTED_FORMATS}",
            field="path",
        )
    return value


def _json_lines(text: str) -> tuple[InputFormat, list[dict[str, Any]]]:
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            records.append((number, json_object(line, number)))
    messages = [_is_message(r) for _, r in records]
    if all(messages):
        return "messages", [r for _, r in records]
    if any(messages):
        number = next(n for (n, _), m in zip(records, messages, strict=True) if m != messages[0])
        raise InvalidInputError(
            "mixes messages (with 'speaker') and memory candidates; use one format per file",
            field=f"line {number}",
        )
    return "candidates", [r for _, r in records]


def _chat(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    session: str | None = None
    when: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        marker = _SESSION.match(line)
        if marker is not None:
            session, when = marker.group("id"), marker.group("time")
            if when is not None:
                _check_time(when, number)
            continue
        if line.lstrip().startswith("#"):
            continue  # a comment
        turn = _TURN.match(line)
        if turn is not None and len(turn.group("name")) <= 60:
            message: dict[str, Any] = {
                "speaker": turn.group("name").strip(),
                "content": turn.group("text").strip(),
            }
            if session is not None:
                message["session_id"] = session
            if when is not None:
                message["observed_at"] = when
            out.append(message)
        elif out:
            out[-1]["content"] += " " + line.strip()  # the turn above goes on
        else:
            raise InvalidInputError(
                f'not JSON, and no chat turn "Name: text"; {ACCEPTED_FORMATS}',
                field=f"line {number}",
            )
    if not out:
        raise InvalidInputError(f"no chat turn found; {ACCEPTED_FORMATS}", field="path")
    return out


def _check_time(value: str, number: int) -> None:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise InvalidInputError(
            f"session time {value!r} is not ISO 8601 (2026-05-15T10:00+02:00)",
            field=f"line {number}",
        ) from exc
    if parsed.tzinfo is None:
        raise InvalidInputError(
            f"session time {value!r} needs a zone (2026-05-15T10:00+02:00 or ...Z)",
            field=f"line {number}",
        )


class TranscriptExtractor:
    """Messages → verbatim turn candidates, no model (the offline stand-in for
    :class:`~graphmem.extract.conversation.LLMExtractor`, same ``extract`` call).

    Each message becomes ``"Speaker: text"`` (the text alone without a speaker),
    type Fact, source level ``direct``, extractor ``verbatim``, its speaker a
    Person entity with role ``subject``, its session, turn id and time. The
    write pipeline's extractor (``ner`` with the extra) finds the entities and
    relations in the text; in a batch of turns between two speakers "you" is
    the other one (:meth:`graphmem.extract.ner.NerExtractor.prepare`).
    """

    model = VERBATIM
    #: Why this extractor and not a model (``remember_text`` and the CLI say it).
    NOTE = (
        "no chat model configured (GRAPHMEM_LLM_MODEL): each message is stored verbatim,"
        " with the entities and relations of the offline extractor (docs/extraction.md)"
    )

    def extract(
        self,
        messages: Sequence[Message],
        known_names: Sequence[str] = (),
        *,
        on_batch: Callable[[int], None] | None = None,
    ) -> list[MemoryCandidate]:
        """One candidate per message (messages from
        :func:`~graphmem.extract.messages.as_messages`, fields filled);
        ``known_names`` is unused (the pipeline resolves names)."""
        del known_names
        out = [turn_candidate(m) for m in messages]
        if on_batch is not None:
            on_batch(len(messages))
        return out


def turn_candidate(message: Message) -> MemoryCandidate:
    """The verbatim record of one message (see :class:`TranscriptExtractor`)."""
    speaker = (message.speaker or "").strip()
    content = f"{speaker}: {message.content}" if speaker else message.content
    entities = (EntityMention(name=speaker, kind="Person", role="subject"),) if speaker else ()
    return MemoryCandidate(
        content=content[:20_000],
        type="Fact",
        source_level="direct",
        extractor=VERBATIM,
        entities=entities,
        session_id=message.session_id or "default",
        turn_id=message.turn_id,
        observed_at=message.observed_at,
    )
