"""LLM extraction on every store (issue 12, SPEC §11): ``remember_text`` through a
local stub chat server on 127.0.0.1 (never a real service) stores the model's memories
with their entities and relations; a failing model writes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from graphmem import GraphMem, Settings
from graphmem.errors import ExtractionError
from graphmem.text import entity_id
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder
from tests.stub_chat_server import Reply, StubState, chat_server

pytest.importorskip("openai", reason="extra graphmem[llm] not installed")

NOW = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)
ANSWER = {
    "memories": [
        {
            "message": 0,
            "content": "Omar's sister Nadia moved to Lisbon.",
            "type": "Event",
            "source_level": "direct",
            "hearsay": False,
            "entities": [
                {"name": "Omar", "kind": "Person", "role": "mention"},
                {"name": "Nadia", "kind": "Person", "role": "subject"},
                {"name": "Lisbon", "kind": "Place", "role": "object"},
            ],
            "relations": [
                {"source": "Omar", "predicate": "SISTER_OF", "target": "Nadia"},
                {"source": "Nadia", "predicate": "lives in", "target": "Lisbon"},
            ],
            "subject": "Nadia",
            "predicate": "moved_to",
            "object": "Lisbon",
            "event_time": "2024-05-27",
        }
    ]
}


@pytest.fixture
def stub() -> Iterator[tuple[str, StubState]]:
    with chat_server() as running:
        yield running


def _memory(store_factory: StoreFactory, url: str) -> GraphMem:
    settings = Settings(
        extractor="capitalized", llm_base_url=url, llm_model="stub-chat", llm_max_retries=0
    )
    return GraphMem(settings, store=store_factory(), embedder=HashEmbedder(), clock=lambda: NOW)


def test_remember_text_stores_memories_entities_and_relations(
    store_factory: StoreFactory, ns: str, stub: tuple[str, StubState]
) -> None:
    url, state = stub
    state.replies = [Reply(text=json.dumps(ANSWER))]
    with _memory(store_factory, url) as memory:
        report = memory.remember_text(
            ns, "My sister Nadia moved to Lisbon last week.", speaker="Omar"
        )
        assert len(report.created) == 1
        (stored,) = memory.list_memories(ns)
        assert stored.content == "Omar's sister Nadia moved to Lisbon."
        assert stored.event_time == datetime(2024, 5, 27, tzinfo=UTC)
        assert stored.extractor == "stub-chat"
        names = {e.id: e.name for e in memory.store.list_entities(ns)}
        assert set(names.values()) == {"Omar", "Nadia", "Lisbon"}
        relations = memory.store.relation_subgraph(ns, [entity_id("Nadia")], 1)
        assert {(names[r.source_id], r.predicate, names[r.target_id]) for r in relations} == {
            ("Omar", "SISTER_OF", "Nadia"),
            ("Nadia", "LIVES_IN", "Lisbon"),
        }
        result = memory.recall(ns, "Where does Omar's sister live?", k=3, record_access=False)
        assert result.linked_entities == ("Omar's sister (Nadia)",)
        assert result.hits[0].memory.id == stored.id


def test_a_refusal_writes_nothing(
    store_factory: StoreFactory, ns: str, stub: tuple[str, StubState]
) -> None:
    url, state = stub
    state.replies = [Reply(refusal="I can't help with that.")]
    with _memory(store_factory, url) as memory:
        with pytest.raises(ExtractionError, match="refused"):
            memory.remember_text(ns, "My sister Nadia moved to Lisbon.", speaker="Omar")
        assert memory.list_memories(ns) == []
        assert memory.store.list_entities(ns) == []
