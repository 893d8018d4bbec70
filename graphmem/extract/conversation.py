"""Memory candidates from raw conversation through an LLM (docs/spec.md §11 "LLM extractor").

:class:`LLMExtractor` sends a conversation, in batches of messages, to an
OpenAI-compatible chat model (:class:`~graphmem.extract.llm.ChatClient`) with
the JSON schema of :data:`EXTRACTION_SCHEMA`, and turns the answer into
:class:`~graphmem.models.MemoryCandidate` s:

- ``type`` (Fact, Preference, Event, Relation, Entity, or ``unknown``), the docs/spec.md
  §2.1 ``source_level`` and ``hearsay`` (reported speech: the write pipeline caps
  its source strength at ``hearsay_cap``);
- entities (kind, role), typed relations (``owner —ROLE_OF→ person`` for roles,
  like the offline extractors), subject / predicate / object;
- ``event_time`` resolved against the time of the message the claim comes from
  (the model is asked for ISO 8601; a relative phrase it returns instead is
  resolved here with :func:`graphmem.language.timeparse.parse_time_window`);
- ``extractor`` = the model's name and ``logprobs`` = the token logprobs of the
  memory's ``content`` in the answer when the server returns them, so the
  pipeline takes ``e`` from the logprobs, else from the model table (docs/spec.md §2.2).

Every batch is extracted before anything is written: a failing call raises
:class:`~graphmem.errors.ExtractionError` and no candidate is returned.

The conversation itself (:class:`~graphmem.extract.messages.Message`, read from JSON,
JSON Lines or "Speaker: text" lines) is in :mod:`graphmem.extract.messages`.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from graphmem.extract.llm import ChatClient, ChatReply, span_logprobs
from graphmem.extract.messages import Message
from graphmem.extract.transcript import TranscriptExtractor
from graphmem.language.timeparse import parse_time_window
from graphmem.models import EntityMention, MemoryCandidate, RelationInput
from graphmem.settings import MEMORY_TYPES, SOURCE_LEVELS, Settings

__all__ = ["EXTRACTION_SCHEMA", "LLMExtractor", "resolve_event_time"]

_KINDS = ("Person", "Organization", "Place", "Event", "Work", "Product", "Group", "Thing")
_ROLES = ("subject", "object", "mention")
_PREDICATE_CLEAN = re.compile(r"[^A-Za-z0-9]+")
#: Known names listed in the prompt, at most (the namespace's entities, by name).
MAX_KNOWN_NAMES = 200


# ------------------------------------------------------------------ the answer
def _nullable(kind: str, description: str) -> dict[str, Any]:
    return {"type": [kind, "null"], "description": description}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


#: JSON schema of the answer (strict structured output: every property required).
EXTRACTION_SCHEMA: dict[str, Any] = _object(
    {
        "memories": {
            "type": "array",
            "items": _object(
                {
                    "message": {"type": "integer", "description": "index of the message"},
                    "content": {"type": "string", "description": "one self-contained claim"},
                    "type": {"type": "string", "enum": [*MEMORY_TYPES, "unknown"]},
                    "source_level": {"type": "string", "enum": list(SOURCE_LEVELS)},
                    "hearsay": {"type": "boolean"},
                    "entities": {
                        "type": "array",
                        "items": _object(
                            {
                                "name": {"type": "string"},
                                "kind": {"type": "string", "enum": list(_KINDS)},
                                "role": {"type": "string", "enum": list(_ROLES)},
                            }
                        ),
                    },
                    "relations": {
                        "type": "array",
                        "items": _object(
                            {
                                "source": {"type": "string"},
                                "predicate": {"type": "string"},
                                "target": {"type": "string"},
                            }
                        ),
                    },
                    "subject": _nullable("string", "who or what the claim is about"),
                    "predicate": _nullable("string", "the claim's predicate, lower_snake_case"),
                    "object": _nullable("string", "the claim's object"),
                    "event_time": _nullable(
                        "string", "ISO 8601 date or date-time when it happened, else null"
                    ),
                }
            ),
        }
    }
)

SYSTEM_PROMPT = """\
You extract long-term memories for an AI agent from a conversation.
Return every durable claim the messages make: facts about people and things, \
preferences, events (what happened and when) and relations between people, \
organisations and places. Skip greetings, small talk, questions and anything \
of no lasting use. Invent nothing.

For each memory:
- message: the index of the message it comes from.
- content: one self-contained sentence, in the third person, with names instead \
of pronouns ("Caroline's sister Nadia moved to Lisbon."), faithful to the message.
- type: Fact, Preference, Event, Relation or Entity; "unknown" when unsure.
- source_level: "direct" (the speaker states it about themselves or saw it), \
"confirmed" (stated again or confirmed), "strong_inference" (clearly implied), \
"weak_inference" (suggested), "speculation" (a guess or plan that may not happen).
- hearsay: true when the speaker only reports what someone else said or did.
- entities: the people, organisations, places, events, works, products and \
groups it names, with kind and role (subject: whom the claim is about; object; \
mention). Use the known names when they fit; "I" and "my" are the speaker.
- relations: typed relations between two of its entities, predicate in \
UPPER_SNAKE_CASE (WORKS_AT, LIVES_IN); a role is written owner ROLE_OF holder \
("Omar's sister is Nadia" -> Omar SISTER_OF Nadia).
- subject, predicate, object: the claim as a triple (predicate lower_snake_case), \
or null.
- event_time: when it happened, as an ISO 8601 date or date-time resolved \
against the message's time ("yesterday" in a message of 2024-05-08 is \
2024-05-07), or null when the message does not say."""


class _Entity(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    kind: str = "Thing"
    role: str = "mention"


class _Relation(BaseModel):
    model_config = ConfigDict(extra="ignore")
    source: str
    predicate: str
    target: str


class _Memory(BaseModel):
    model_config = ConfigDict(extra="ignore")
    message: int
    content: str
    type: Literal["Entity", "Event", "Fact", "Preference", "Relation", "unknown"] = "unknown"
    source_level: Literal[
        "direct", "confirmed", "strong_inference", "weak_inference", "speculation"
    ] = "direct"
    hearsay: bool = False
    entities: list[_Entity] = []
    relations: list[_Relation] = []
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    event_time: str | None = None


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore")
    memories: list[_Memory]


class LLMExtractor:
    """Conversation → memory candidates through a chat model.

    Parameters
    ----------
    client : ChatClient
        The model (``ChatClient.from_settings`` reads ``GRAPHMEM_LLM_*``).
    batch_messages : int
        Messages per request (>= 1): the model sees each batch whole.
    """

    def __init__(self, client: ChatClient, *, batch_messages: int = 20) -> None:
        if batch_messages < 1:
            raise ValueError("batch_messages must be >= 1")
        self.client = client
        self._batch = batch_messages

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMExtractor | TranscriptExtractor:
        """The extractor on the chat model ``GRAPHMEM_LLM_*`` configure (no I/O here).

        Without a model (``GRAPHMEM_LLM_MODEL`` unset) the offline stand-in
        :class:`~graphmem.extract.transcript.TranscriptExtractor` (each message a
        verbatim record), with a :class:`UserWarning` saying so (docs/extraction.md).

        Raises
        ------
        ConfigurationError
            The model's settings are invalid (a timeout <= 0, ...).
        """
        if not (settings.llm.llm_model or "").strip():
            warnings.warn(TranscriptExtractor.NOTE, UserWarning, stacklevel=2)
            return TranscriptExtractor()
        return cls(
            ChatClient.from_settings(settings), batch_messages=settings.llm.llm_batch_messages
        )

    def batches(self, messages: Sequence[Message]) -> list[Sequence[Message]]:
        """The batches :meth:`extract` sends, in order."""
        return [messages[i : i + self._batch] for i in range(0, len(messages), self._batch)]

    def extract(
        self,
        messages: Sequence[Message],
        known_names: Sequence[str] = (),
        *,
        on_batch: Callable[[int], None] | None = None,
    ) -> list[MemoryCandidate]:
        """Candidates of every batch, in message order (messages from :func:`as_messages`).

        ``on_batch(n)`` is called after each batch with its message count.

        Raises
        ------
        ExtractionError
            A request failed, was refused, or its answer was no valid JSON of the
            schema after one retry; nothing is returned.
        """
        out: list[MemoryCandidate] = []
        for batch in self.batches(messages):
            prompt = _user_prompt(batch, known_names)
            out.extend(
                self.client.complete_json(
                    SYSTEM_PROMPT,
                    prompt,
                    schema=EXTRACTION_SCHEMA,
                    name="memories",
                    validate=partial(self._candidates, batch=batch),
                )
            )
            if on_batch is not None:
                on_batch(len(batch))
        return out

    def _candidates(
        self, data: dict[str, Any], reply: ChatReply, *, batch: Sequence[Message]
    ) -> list[MemoryCandidate]:
        answer = _Answer.model_validate(data)
        out: list[MemoryCandidate] = []
        cursor = 0
        for i, memory in enumerate(answer.memories):
            if not 0 <= memory.message < len(batch):
                raise ValueError(
                    f"memories[{i}].message is {memory.message}; the messages are"
                    f" numbered 0 to {len(batch) - 1}"
                )
            source = batch[memory.message]
            assert source.observed_at is not None  # as_messages fills it
            logprobs = span_logprobs(reply, memory.content, start=cursor)
            found = reply.text.find(json.dumps(memory.content, ensure_ascii=False)[1:-1], cursor)
            cursor = found if found >= 0 else cursor
            out.append(
                MemoryCandidate(
                    content=memory.content,
                    type=memory.type,
                    source_level=memory.source_level,
                    hearsay=memory.hearsay,
                    extractor=self.client.model,
                    logprobs=logprobs,
                    entities=_entities(memory.entities),
                    relations=_relations(memory.relations),
                    subject=_text(memory.subject),
                    predicate=_text(memory.predicate),
                    object=_text(memory.object),
                    session_id=source.session_id or "default",
                    turn_id=source.turn_id,
                    observed_at=source.observed_at,
                    event_time=resolve_event_time(memory.event_time, source.observed_at),
                )
            )
        return out


def _user_prompt(batch: Sequence[Message], known_names: Sequence[str]) -> str:
    lines = [
        json.dumps(
            {
                "index": i,
                "speaker": m.speaker,
                "time": m.observed_at.isoformat() if m.observed_at else None,
                "text": m.content,
            },
            ensure_ascii=False,
        )
        for i, m in enumerate(batch)
    ]
    names = ", ".join(list(known_names)[:MAX_KNOWN_NAMES]) or "(none yet)"
    return f"Known names: {names}\n\nMessages (one JSON object per line):\n" + "\n".join(lines)


def _text(value: str | None) -> str | None:
    return value.strip() or None if value is not None else None


def _entities(found: Sequence[_Entity]) -> tuple[EntityMention, ...]:
    out: dict[str, EntityMention] = {}
    for entity in found:
        name = entity.name.strip()
        if not name or name.casefold() in out:
            continue
        kind = entity.kind.strip()[:64] or "Thing"
        role = entity.role if entity.role in _ROLES else "mention"
        out[name.casefold()] = EntityMention(name=name[:512], kind=kind, role=role)
    return tuple(out.values())


def _relations(found: Sequence[_Relation]) -> tuple[RelationInput, ...]:
    out: list[RelationInput] = []
    for relation in found:
        predicate = _PREDICATE_CLEAN.sub("_", relation.predicate).strip("_").upper()[:128]
        source, target = relation.source.strip(), relation.target.strip()
        if predicate and source and target and source.casefold() != target.casefold():
            out.append(RelationInput(source=source[:512], predicate=predicate, target=target[:512]))
    return tuple(out)


def resolve_event_time(value: str | None, observed_at: datetime) -> datetime | None:
    """When a claim happened, from the model's ``event_time`` and its message's time.

    An ISO 8601 date or date-time is taken as is (without a zone: the message's
    zone); a relative phrase ("yesterday", "last May") is resolved against
    ``observed_at`` (:func:`~graphmem.language.timeparse.parse_time_window`, the window's
    centre); anything else is None.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        window = parse_time_window(text, observed_at)
        return window.center if window is not None else None
    return when if when.tzinfo is not None else when.replace(tzinfo=observed_at.tzinfo)
