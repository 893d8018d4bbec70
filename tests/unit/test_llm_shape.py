"""What the chat client learned from a real small model (docs/llm.md, SPEC §11), checked
against the local stub server (tests/stub_chat_server.py): the prompt carries the
answer's shape instead of the JSON schema, a schema echoed back is named in the one
retry, an answer cut at the length limit says so, and token texts are decoded from
their UTF-8 bytes so a character split over tokens keeps the span's logprobs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("openai", reason="extra graphmem[llm] not installed")

from graphmem.errors import ExtractionError
from graphmem.extract.llm import ChatClient, span_logprobs
from graphmem.extract.shape import answer_template, check_not_schema
from tests.stub_chat_server import Reply, StubState, chat_server

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["same", "different"]},
        "when": {"type": ["string", "null"], "description": "ISO 8601 date"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["verdict", "when", "items"],
    "additionalProperties": False,
}


@pytest.fixture
def stub() -> Iterator[tuple[str, StubState]]:
    with chat_server() as running:
        yield running


def _client(url: str) -> ChatClient:
    return ChatClient("stub-small-1b", base_url=url, max_retries=0, timeout_s=5)


def _ask(client: ChatClient) -> dict[str, Any]:
    return client.complete_json(
        "Judge.", "A and B", schema=SCHEMA, name="verdict", validate=lambda data, reply: data
    )


def test_answer_template_is_the_object_to_fill_in() -> None:
    assert json.loads(answer_template(SCHEMA)) == {
        "verdict": "same | different",
        "when": "<string: ISO 8601 date> or null",
        "items": [{"n": "<integer>"}],
    }


def test_both_modes_show_the_shape_and_json_mode_never_the_schema(
    stub: tuple[str, StubState],
) -> None:
    url, state = stub
    state.reject_json_schema = True
    state.replies = [Reply(text='{"verdict": "same", "when": null, "items": []}')]
    assert _ask(_client(url))["verdict"] == "same"
    structured, json_mode = (r["messages"][0]["content"] for r in state.requests)
    assert '"verdict": "same | different"' in structured
    assert structured.startswith("Judge.\n\nThe answer is one JSON object of this shape")
    assert "Answer with one JSON object and nothing else" in json_mode
    assert '"properties"' not in json_mode and '"additionalProperties"' not in json_mode


def test_a_schema_echoed_back_is_named_in_the_retry(stub: tuple[str, StubState]) -> None:
    url, state = stub
    state.replies = [
        Reply(text=json.dumps(SCHEMA)),
        Reply(text='{"verdict": "different", "when": "2026-06-20", "items": [{"n": 1}]}'),
    ]
    assert _ask(_client(url))["when"] == "2026-06-20"
    retry = state.requests[1]["messages"][-1]["content"]
    assert "is a JSON schema, not an object of that shape" in retry


def test_check_not_schema_leaves_answers_alone() -> None:
    check_not_schema({"verdict": "same", "type": "object"}, SCHEMA)  # has a property
    check_not_schema({}, SCHEMA)
    with pytest.raises(ValueError, match="JSON schema"):
        check_not_schema({"$schema": "x", "title": "verdict"}, SCHEMA)


def test_an_answer_cut_at_the_length_limit_says_so(stub: tuple[str, StubState]) -> None:
    url, state = stub
    cut = '{"verdict": "same", "wh'
    state.replies = [Reply(text=cut, finish_reason="length")] * 2
    with pytest.raises(ExtractionError, match="stopped at the server's length limit"):
        _ask(_client(url))
    assert "stopped at the server's length limit" in state.requests[1]["messages"][-1]["content"]


def test_token_texts_come_from_their_bytes() -> None:
    # "Zoë" with the two bytes of "ë" in two tokens: their ``token`` strings are
    # replacement characters, their bytes spell the text
    text = '{"name": "Zoë"}'
    pieces = [b'{"name": "Zo', b"\xc3", b"\xab", b'"}']
    content = [
        SimpleNamespace(token=p.decode("utf-8", "replace"), logprob=-0.5 * i, bytes=list(p))
        for i, p in enumerate(pieces)
    ]
    choice = SimpleNamespace(
        message=SimpleNamespace(content=text, refusal=None),
        finish_reason="stop",
        logprobs=SimpleNamespace(content=content),
    )
    reply = _client("http://127.0.0.1:9/v1")._read(SimpleNamespace(choices=[choice]), "json_schema")
    assert "".join(t for t, _ in reply.tokens or ()) == text
    assert span_logprobs(reply, "Zoë") == (-0.0, -0.5, -1.0)
