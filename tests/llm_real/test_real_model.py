"""The LLM path against a real model (SPEC §11, docs/llm.md): Qwen2.5-Coder-1.5B-Instruct
Q4_K_M served locally by tests/llm_real/llama_server.py, reached through the official
``openai`` client. Run by ``scripts/llm-real.sh`` (it sets GRAPHMEM_TEST_LLM_URL);
skipped otherwise, and not run in CI.

What is checked is what the pipeline must do with whatever the model answers — valid
candidates written with the message's session, turn and time, event times taken from
the answer and resolved, ``e`` from the logprobs of each memory's span, a malformed
answer retried once, nothing written when the retry fails — not how good the small
model's claims are (docs/llm.md records those)."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.errors import ExtractionError
from tests.llm_real.conftest import MODEL, NOW, URL, Shim

pytestmark = [
    pytest.mark.llm_real,
    pytest.mark.skipif(not URL, reason="GRAPHMEM_TEST_LLM_URL is not set (scripts/llm-real.sh)"),
]
pytest.importorskip("openai", reason="extra graphmem[llm] not installed")

KINDS = {"Person", "Organization", "Place", "Event", "Work", "Product", "Group", "Thing"}
SENT = NOW - timedelta(hours=1)
CHAT = [
    {
        "speaker": "Priya",
        "content": "I started a new job as a robotics engineer at Brightline Robotics"
        " on 11 May 2026.",
        "observed_at": SENT,
        "session_id": "trial",
    },
    {
        "speaker": "Marcus",
        "content": "Congratulations! My sister Elena is getting married in Lisbon on 20 June 2026.",
        "observed_at": SENT + timedelta(minutes=1),
        "session_id": "trial",
    },
]
MOVED = {
    "speaker": "Priya",
    "content": "I moved to Lisbon on 3 May 2026.",
    "observed_at": SENT,
    "session_id": "trial",
}


def _answer(last: dict[str, Any]) -> dict[str, Any]:
    text = last["answer"].strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1].rsplit("```", 1)[0]
    return dict(json.loads(text))


def _span_e(last: dict[str, Any], content: str, start: int) -> tuple[float, int]:
    """exp(mean logprob) of the answer's tokens that overlap ``content`` as JSON writes
    it, found from character ``start`` on (SPEC §2.2); and where it ends."""
    needle = json.dumps(content, ensure_ascii=False)[1:-1]
    begin = last["answer"].index(needle, start)
    end = begin + len(needle)
    values, offset = [], 0
    for token, logprob in last["tokens"]:
        if offset < end and offset + len(token) > begin:
            values.append(min(logprob, 0.0))
        offset += len(token)
    return math.exp(sum(values) / len(values)), end


def _check_stored(
    memory: GraphMem, ns: str, last: dict[str, Any], chat: list[dict[str, Any]] = CHAT
) -> int:
    """Every memory of the answer is stored as the pipeline must store it; how many."""
    stored = {m.content: m for m in memory.list_memories(ns)}
    answered = _answer(last)["memories"]
    assert answered and len(stored) == len({m["content"] for m in answered})
    cursor = 0
    for item in answered:
        kept = stored[item["content"]]
        message = chat[item["message"]]
        assert kept.extractor == MODEL
        assert kept.content.strip()
        (seen,) = kept.observations
        assert (seen.session_id, seen.turn_id) == ("trial", f"trial:t{item['message'] + 1}")
        assert seen.observed_at == message["observed_at"]
        # e from the logprobs of the memory's span in the answer (SPEC §2.2)
        expected, cursor = _span_e(last, item["content"], cursor)
        assert kept.extractor_confidence == pytest.approx(expected, rel=1e-6)
        when = item.get("event_time")
        if isinstance(when, str) and when[:4].isdigit():
            parsed = datetime.fromisoformat(when.replace("Z", "+00:00"))
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=message["observed_at"].tzinfo)
            assert kept.event_time == parsed
    kinds = {e.kind for e in memory.store.list_entities(ns)}
    assert kinds <= KINDS
    return len(answered)


def test_structured_output_writes_valid_candidates(memory: GraphMem, shim: Shim) -> None:
    """Structured output (the server enforces the schema, as llama.cpp's does)."""
    report = memory.remember_text("real", CHAT)
    last = shim.last()
    assert last["finish_reason"] == "stop"
    assert len(report.created) == _check_stored(memory, "real", last)


@pytest.mark.parametrize(
    ("mode", "note"),
    [
        ("reject", "Answer with one JSON object and nothing else"),  # 400, then JSON mode
        ("ignore", "The answer is one JSON object of this shape"),  # accepted, not enforced
    ],
)
def test_json_mode_when_the_server_has_no_structured_output(
    memory: GraphMem, shim: Shim, mode: str, note: str
) -> None:
    """A server without structured output (400 on json_schema: JSON mode) or one that
    drops it silently: the shape in the prompt, the model's own formatting; the event
    time it gives is stored resolved."""
    shim.json_schema(mode)
    report = memory.remember_text("real", [MOVED])
    last = shim.last()
    assert note in last["messages"][0]["content"]
    assert len(report.created) == _check_stored(memory, "real", last, [MOVED])
    (moved,) = memory.list_memories("real")
    assert moved.event_time == datetime(2026, 5, 3, tzinfo=UTC)


def test_a_malformed_answer_is_retried_once(memory: GraphMem, shim: Shim) -> None:
    shim.truncate_next(1)  # the model's first answer is cut in half: no valid JSON
    report = memory.remember_text("real", [CHAT[0]])
    last = shim.last()
    first, retry = shim.stats()[-2:]
    assert first["truncated"] and not retry["truncated"]
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "user"]
    assert "stopped at the server's length limit" in last["messages"][3]["content"]
    assert len(report.created) == _check_stored(memory, "real", last)


def test_nothing_is_written_when_the_retry_fails_too(memory: GraphMem, shim: Shim) -> None:
    shim.truncate_next(2)
    with pytest.raises(ExtractionError, match="after one retry"):
        memory.remember_text("real", [CHAT[0]])
    assert memory.list_memories("real") == []
    assert list(memory.store.list_entities("real")) == []


@pytest.mark.parametrize("mode", ["reject", "guided"])
def test_the_llm_judge_answers_on_the_real_model(memory: GraphMem, shim: Shim, mode: str) -> None:
    shim.json_schema(mode)
    from graphmem.extract.judge import LLMJudge
    from graphmem.models import MemoryCandidate

    judge = LLMJudge.from_settings(memory.settings)
    memory.remember("real", [MemoryCandidate(content="Priya works at Brightline Robotics.")])
    (stored,) = memory.list_memories("real")
    restated = MemoryCandidate(content="Priya is employed by Brightline Robotics.")
    different = MemoryCandidate(content="Priya's sister lives in Lisbon.")
    assert judge.same(restated, stored, 0.9) is True
    assert judge.same(different, stored, 0.6) is False
