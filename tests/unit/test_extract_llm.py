"""LLM extraction (SPEC §11, issue 12) against a local stub chat server on 127.0.0.1
(tests/stub_chat_server.py) — never a real service: the request sent, the candidates
made (type, hearsay, entities, relations, event times resolved against the message
time, ``e`` from the span's logprobs), the json_schema → JSON-mode fallback, the one
retry, and each failure (500, malformed JSON, timeout, refusal) a clear error with
nothing written."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai", reason="extra graphmem[llm] not installed")

from graphmem import GraphMem, Settings
from graphmem.errors import ExtractionError, InvalidInputError
from graphmem.extract.conversation import EXTRACTION_SCHEMA, LLMExtractor, resolve_event_time
from graphmem.extract.judge import LLMJudge
from graphmem.extract.llm import ChatClient, ChatReply, span_logprobs, strip_fences
from graphmem.extract.messages import as_messages
from graphmem.text import entity_id
from tests.fakes import HashEmbedder
from tests.stub_chat_server import Reply, StubState, chat_server, tokens_of

MODEL = "stub-model-7b"
SENT = datetime(2024, 5, 8, 13, 56, tzinfo=UTC)
NS = "chat"


def memory_json(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "message": 0,
        "content": "Nadia works at Corvid Bakery.",
        "type": "Fact",
        "source_level": "direct",
        "hearsay": False,
        "entities": [
            {"name": "Nadia", "kind": "Person", "role": "subject"},
            {"name": "Corvid Bakery", "kind": "Organization", "role": "object"},
        ],
        "relations": [{"source": "Nadia", "predicate": "WORKS_AT", "target": "Corvid Bakery"}],
        "subject": "Nadia",
        "predicate": "works_at",
        "object": "Corvid Bakery",
        "event_time": None,
    }
    return base | over


def answer(*memories: dict[str, Any]) -> str:
    return json.dumps({"memories": list(memories)})


CONVERSATION = [
    {"speaker": "Nadia", "content": "I work at Corvid Bakery now.", "observed_at": SENT},
    {
        "speaker": "Omar",
        "content": "Lena told me she ran the Harbor 10K yesterday.",
        "observed_at": SENT + timedelta(days=1),
    },
]
TWO_MEMORIES = answer(
    memory_json(),
    memory_json(
        message=1,
        content="Lena ran the Harbor 10K.",
        type="Event",
        hearsay=True,
        entities=[
            {"name": "Lena", "kind": "Person", "role": "subject"},
            {"name": "Harbor 10K", "kind": "Event", "role": "object"},
        ],
        relations=[{"source": "Lena", "predicate": "ran", "target": "Harbor 10K"}],
        subject="Lena",
        predicate="ran",
        object="Harbor 10K",
        event_time="yesterday",
    ),
)


@pytest.fixture
def stub() -> Iterator[tuple[str, StubState]]:
    with chat_server() as running:
        yield running


def _memory(tmp_path: Path, url: str, **settings: Any) -> GraphMem:
    cfg = Settings(
        data_dir=tmp_path / "store",
        neo4j_uri=None,
        extractor="capitalized",
        llm_base_url=url,
        llm_model=MODEL,
        llm_api_key="sk-test-key",
        llm_max_retries=0,
        **settings,
    )
    return GraphMem(cfg, embedder=HashEmbedder(), clock=lambda: SENT + timedelta(days=2))


def _contents(memory: GraphMem) -> dict[str, Any]:
    return {m.content: m for m in memory.list_memories(NS)}


def test_remember_text_sends_the_schema_and_stores_the_candidates(
    stub: tuple[str, StubState], tmp_path: Path
) -> None:
    url, state = stub
    # the tokens that write the first memory's content get logprob -0.2, all others -1.0
    text = TWO_MEMORIES
    start = text.index("Nadia works at Corvid Bakery.")
    end = start + len("Nadia works at Corvid Bakery.")
    logprobs, offset = [], 0
    for token in tokens_of(text):
        logprobs.append(-0.2 if offset < end and offset + len(token) > start else -1.0)
        offset += len(token)
    state.replies = [Reply(text=text, logprobs=logprobs)]
    with _memory(tmp_path, url) as memory:
        report = memory.remember_text(NS, CONVERSATION, session_id="s7")
        assert len(report.created) == 2
        stored = _contents(memory)
        relations = memory.store.relation_subgraph(NS, [entity_id("Nadia")], 1)

    (request,) = state.requests
    assert request["model"] == MODEL
    assert request["temperature"] == 0
    assert request["logprobs"] is True
    assert request["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "memories", "schema": EXTRACTION_SCHEMA, "strict": True},
    }
    assert state.authorizations == ["Bearer sk-test-key"]
    system, user = request["messages"]
    assert system["role"] == "system" and "hearsay" in system["content"]
    lines = [json.loads(line) for line in user["content"].splitlines() if line.startswith("{")]
    assert lines == [
        {
            "index": 0,
            "speaker": "Nadia",
            "time": "2024-05-08T13:56:00+00:00",
            "text": "I work at Corvid Bakery now.",
        },
        {
            "index": 1,
            "speaker": "Omar",
            "time": "2024-05-09T13:56:00+00:00",
            "text": "Lena told me she ran the Harbor 10K yesterday.",
        },
    ]

    fact = stored["Nadia works at Corvid Bakery."]
    assert fact.type == "Fact" and fact.extractor == MODEL and not fact.hearsay
    assert fact.extractor_confidence == pytest.approx(math.exp(-0.2))  # the span's tokens
    assert fact.session_ids == ("s7",) and fact.turn_ids == ("s7:t1",)
    assert fact.observations[0].observed_at == SENT
    event = stored["Lena ran the Harbor 10K."]
    assert event.type == "Event" and event.hearsay
    assert event.turn_ids == ("s7:t2",)
    # "yesterday" against its message's time (2024-05-09), not the clock's
    assert event.event_time is not None and event.event_time.date() == datetime(2024, 5, 8).date()
    assert {(r.predicate, r.target_id) for r in relations} == {
        ("WORKS_AT", entity_id("Corvid Bakery"))
    }


def test_hearsay_is_capped(stub: tuple[str, StubState], tmp_path: Path) -> None:
    url, state = stub
    state.replies = [Reply(text=TWO_MEMORIES)]
    with _memory(tmp_path, url) as memory:
        memory.remember_text(NS, CONVERSATION)
        stored = _contents(memory)
        cap = memory.settings.write.hearsay_cap
    assert stored["Lena ran the Harbor 10K."].source_strength <= cap
    assert stored["Nadia works at Corvid Bakery."].source_strength > cap


def test_json_mode_fallback_with_schema_in_the_prompt_and_fences(
    stub: tuple[str, StubState], tmp_path: Path
) -> None:
    url, state = stub
    state.reject_json_schema = True
    state.replies = [Reply(text="```json\n" + answer(memory_json()) + "\n```")]
    with _memory(tmp_path, url) as memory:
        assert (
            len(memory.remember_text(NS, "I work at Corvid Bakery now.", speaker="Nadia").created)
            == 1
        )
    first, second = state.requests
    assert first["response_format"]["type"] == "json_schema"  # rejected with 400
    assert second["response_format"] == {"type": "json_object"}
    system = second["messages"][0]["content"]
    # the answer's shape, not the schema (small models echo a schema back, docs/llm.md)
    assert '"event_time": "<string: ISO 8601 date' in system
    assert "Answer with one JSON object and nothing else" in system
    assert json.dumps(EXTRACTION_SCHEMA, separators=(",", ":")) not in system


def test_one_retry_on_malformed_json(stub: tuple[str, StubState], tmp_path: Path) -> None:
    url, state = stub
    state.replies = [
        Reply(text='{"memories": [ {"message": 0, '),
        Reply(text=answer(memory_json())),
    ]
    with _memory(tmp_path, url) as memory:
        assert len(memory.remember_text(NS, "I work at Corvid Bakery now.").created) == 1
    retry = state.requests[1]["messages"]
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[2]["content"] == '{"memories": [ {"message": 0, '
    assert "not valid" in retry[3]["content"]


def test_a_message_index_out_of_range_is_retried(
    stub: tuple[str, StubState], tmp_path: Path
) -> None:
    url, state = stub
    state.replies = [Reply(text=answer(memory_json(message=5))), Reply(text=answer(memory_json()))]
    with _memory(tmp_path, url) as memory:
        assert len(memory.remember_text(NS, "I work at Corvid Bakery now.").created) == 1
    assert "numbered 0 to 0" in state.requests[1]["messages"][3]["content"]


@pytest.mark.parametrize(
    ("replies", "message"),
    [
        ([Reply(status=500)], "answered 500"),
        ([Reply(text="not json at all"), Reply(text="{still not")], "no valid JSON"),
        ([Reply(text=answer(memory_json()), delay=3.0)], "timed out after 0.5 s"),
        ([Reply(refusal="I can't help with that.")], "refused: I can't help with that."),
        ([Reply(text="", finish_reason="content_filter")], "content filter"),
    ],
    ids=["500", "malformed", "timeout", "refusal", "content-filter"],
)
def test_failures_are_clear_and_write_nothing(
    stub: tuple[str, StubState], tmp_path: Path, replies: list[Reply], message: str
) -> None:
    url, state = stub
    # the first batch succeeds, the second fails: nothing of the first is written either
    state.replies = [Reply(text=answer(memory_json())), *replies]
    with _memory(tmp_path, url, llm_timeout_s=0.5, llm_batch_messages=1) as memory:
        with pytest.raises(ExtractionError, match=message) as caught:
            memory.remember_text(NS, CONVERSATION)
        assert MODEL in str(caught.value)
        assert memory.list_memories(NS) == []
        assert memory.store.list_entities(NS) == []


def test_logprobs_rejected_then_e_from_the_model_table(
    stub: tuple[str, StubState], tmp_path: Path
) -> None:
    url, state = stub
    state.reject_logprobs = True
    state.replies = [Reply(text=answer(memory_json()))]
    with _memory(tmp_path, url) as memory:
        memory.remember_text(NS, "I work at Corvid Bakery now.")
        (stored,) = memory.list_memories(NS)
        unknown = memory.settings.write.extractor_unknown
    # json_schema + logprobs (400), json_object + logprobs (400), json_object alone
    assert [("logprobs" in r, r["response_format"]["type"]) for r in state.requests] == [
        (True, "json_schema"),
        (True, "json_object"),
        (False, "json_object"),
    ]
    assert stored.extractor_confidence == unknown  # "stub-model-7b" is in no table pattern


def test_no_model_configured_stores_each_message_verbatim(tmp_path: Path) -> None:
    # docs/extraction.md: without GRAPHMEM_LLM_MODEL, remember_text says so (a warning)
    # and stores each message as said, its speaker the subject
    settings = Settings(data_dir=tmp_path / "s", neo4j_uri=None, extractor="capitalized")
    with (
        GraphMem(settings, embedder=HashEmbedder()) as memory,
        pytest.warns(UserWarning, match="GRAPHMEM_LLM_MODEL"),
    ):
        report = memory.remember_text(NS, "I moved to Lisbon.", speaker="Ana", session_id="s1")
        stored = memory.get(NS, report.created[0])
    assert report.outcomes == ("created",)
    assert stored.content == "Ana: I moved to Lisbon."
    assert stored.extractor == "verbatim"
    assert stored.session_ids == ("s1",)


def test_bad_messages_name_the_field() -> None:
    with pytest.raises(InvalidInputError, match=r"messages\[1\]\.content"):
        as_messages([{"content": "ok"}, {"content": ""}], observed_at=SENT)
    with pytest.raises(InvalidInputError, match="messages"):
        as_messages([], observed_at=SENT)
    with pytest.raises(InvalidInputError, match="observed_at"):
        as_messages("hi", observed_at=datetime(2024, 1, 1))
    (message,) = as_messages([{"role": "Jo", "content": "hi"}], observed_at=SENT, session_id="s")
    assert (message.speaker, message.session_id, message.turn_id) == ("Jo", "s", "s:t1")


def test_resolve_event_time() -> None:
    ref = datetime(2024, 5, 8, 13, 56, tzinfo=UTC)
    assert resolve_event_time("2024-05-07", ref) == datetime(2024, 5, 7, tzinfo=UTC)
    assert resolve_event_time("2024-05-07T09:30:00Z", ref) == datetime(
        2024, 5, 7, 9, 30, tzinfo=UTC
    )
    yesterday = resolve_event_time("yesterday", ref)
    assert yesterday is not None and yesterday.date() == datetime(2024, 5, 7).date()
    assert resolve_event_time("at some point", ref) is None
    assert resolve_event_time(None, ref) is None


def test_strip_fences_and_span_logprobs() -> None:
    assert strip_fences('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert strip_fences('  {"a": 1} ') == '{"a": 1}'
    text = '{"content": "Nadia \\"N\\" Haddad"}'
    tokens = tuple((t, -0.5 if i == 0 else -0.1) for i, t in enumerate(tokens_of(text)))
    reply = ChatReply(text=text, mode="json_schema", tokens=tokens)
    span = span_logprobs(reply, 'Nadia "N" Haddad')
    # characters 13..31 (the value as JSON writes it) overlap tokens 3..7
    assert span == (-0.1,) * 5
    assert span_logprobs(reply, "absent") is None
    assert span_logprobs(ChatReply(text=text, mode="json_object", tokens=None), "Nadia") is None


def test_llm_judge_verdicts(stub: tuple[str, StubState]) -> None:
    url, state = stub
    state.replies = [
        Reply(text='{"verdict": "same", "reason": "a restatement"}'),
        Reply(text='{"verdict": "supported", "reason": "memory 1 says so", "memory": 1}'),
        Reply(text='{"verdict": "maybe", "reason": "?"}'),
        Reply(text='{"verdict": "maybe", "reason": "?"}'),
    ]
    judge = LLMJudge(ChatClient(MODEL, base_url=url, max_retries=0))
    from graphmem.models import MemoryCandidate
    from tests.contract.builders import make_memory

    stored = make_memory(NS, "Nadia works at Corvid Bakery.")
    assert judge.same(MemoryCandidate(content="Nadia is employed by Corvid Bakery."), stored, 0.9)
    other = make_memory(NS, "Nadia likes rye bread.")
    verdict = judge.judge_claim("Nadia works at a bakery.", [other, stored])
    assert verdict.supported and verdict.memory_id == stored.id
    with pytest.raises(ExtractionError, match="after one retry: verdict must be one of"):
        judge.judge_pair(stored, other, 0.8)
    first = state.requests[0]
    assert first["response_format"]["json_schema"]["name"] == "verdict"
    assert "Corvid Bakery" in first["messages"][1]["content"]


def test_extractor_batches() -> None:
    extractor = LLMExtractor(ChatClient(MODEL), batch_messages=2)
    messages = as_messages([{"content": str(i)} for i in range(5)], observed_at=SENT)
    assert [len(b) for b in extractor.batches(messages)] == [2, 2, 1]


def test_llm_judge_setting_makes_the_model_the_faithfulness_judge(
    stub: tuple[str, StubState], tmp_path: Path
) -> None:
    """GRAPHMEM_LLM_JUDGE=true: the facade's claim judge is the chat model."""
    url, state = stub
    state.replies = [Reply(text=answer(memory_json()))]
    with _memory(tmp_path, url, llm_judge=True) as memory:
        (stored,) = memory.remember_text(NS, "I work at Corvid Bakery now.").created
        state.replies = [
            Reply(
                text='{"verdict": "unsupported", "reason": "no memory says where", "memory": null}'
            )
        ]
        report = memory.faithfulness(NS, "Nadia works in Porto.", [stored])
    assert report.method == f"llm:{MODEL}"
    assert report.supported == 0
    assert report.claims[0].reason == "no memory says where"
    assert "Nadia works in Porto." in state.requests[-1]["messages"][1]["content"]


def test_async_remember_text(stub: tuple[str, StubState], tmp_path: Path) -> None:
    import asyncio

    from graphmem import AsyncGraphMem

    url, state = stub
    state.replies = [Reply(text=answer(memory_json()))]

    async def main() -> list[str]:
        async with AsyncGraphMem(memory=_memory(tmp_path, url)) as memory:
            report = await memory.remember_text(NS, "I work at Corvid Bakery now.", speaker="Nadia")
            return [m.content for m in memory.sync.list_memories(NS)] + list(report.outcomes)

    assert asyncio.run(main()) == ["Nadia works at Corvid Bakery.", "created"]
