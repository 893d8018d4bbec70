"""A conversation as the extractors read it: :class:`Message` s (speaker, text, time)
from Python values (:func:`as_messages`) or from a file's lines (:func:`read_conversation`:
JSON Lines or "Speaker: text"; docs/input.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from graphmem.errors import InvalidInputError
from graphmem.jsonlines import json_object

__all__ = ["Message", "as_messages", "read_conversation"]


class Message(BaseModel):
    """One message of a conversation: what was said, by whom, when, where.

    ``observed_at`` is the message's time (the reference for "yesterday");
    ``turn_id`` defaults to ``"<session_id>:t<position>"`` (so the same
    conversation remembered twice is recognised as a retry, docs/spec.md §2.8).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str = Field(min_length=1, max_length=20_000)
    speaker: str | None = Field(None, max_length=200)
    observed_at: AwareDatetime | None = None
    session_id: str | None = Field(None, min_length=1, max_length=200)
    turn_id: str | None = Field(None, max_length=200)


def as_messages(
    messages: str | Iterable[Message | Mapping[str, Any]],
    *,
    observed_at: datetime,
    session_id: str = "default",
    speaker: str | None = None,
) -> list[Message]:
    """Validated messages with every field filled.

    Parameters
    ----------
    messages : str or iterable of Message or mapping
        One text (one message by ``speaker``), or messages with the fields of
        :class:`Message` (``role`` is read as ``speaker`` when ``speaker`` is missing).
    observed_at : datetime
        Time of messages that carry none (timezone-aware).
    session_id : str
        Session of messages that name none.
    speaker : str, optional
        Speaker of a plain text.

    Raises
    ------
    InvalidInputError
        A message is invalid (the field is named: ``messages[3].content``), or
        there is none.
    """
    raw: list[Message | Mapping[str, Any]] = (
        [{"content": messages, "speaker": speaker}] if isinstance(messages, str) else list(messages)
    )
    if not raw:
        raise InvalidInputError("no messages to extract from", field="messages")
    if observed_at.tzinfo is None:
        raise InvalidInputError("must be timezone-aware", field="observed_at")
    out: list[Message] = []
    for i, item in enumerate(raw):
        try:
            if isinstance(item, Message):
                message = item
            else:
                fields = dict(item)
                if "role" in fields:
                    role = fields.pop("role")
                    fields.setdefault("speaker", role)
                message = Message.model_validate(fields)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error["loc"])
            raise InvalidInputError(error["msg"], field=f"messages[{i}].{where}") from exc
        session = message.session_id or session_id
        out.append(
            message.model_copy(
                update={
                    "observed_at": message.observed_at or observed_at,
                    "session_id": session,
                    "turn_id": message.turn_id or f"{session}:t{i + 1}",
                }
            )
        )
    return out


_SPEAKER_LINE = re.compile(r"^\s*([^\s:][^:]{0,60}?)\s*:\s+(\S.*)$")


def read_conversation(lines: Iterable[str], *, jsonl: bool) -> list[dict[str, Any]]:
    """Messages of a conversation file (``graphmem ingest --extract``).

    ``jsonl``: one JSON object per line with the fields of :class:`Message`
    (``content`` required). Else plain text, one message per non-blank line, a
    leading ``Name:`` naming the speaker.

    Raises
    ------
    InvalidInputError
        A line that is no JSON object (``field="line N"``).
    """
    out: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if jsonl:
            out.append(json_object(line, number))
            continue
        match = _SPEAKER_LINE.match(line)
        if match is not None and not match.group(1).strip().isdigit():
            out.append({"speaker": match.group(1).strip(), "content": match.group(2).strip()})
        else:
            out.append({"content": line.strip()})
    return out
