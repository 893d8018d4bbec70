"""Question reading (graphmem.language.question_type) and the temporal retriever's
'when' mode (issue 15), on a real embedded store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem import GraphMem, Settings
from graphmem.language.question_type import (
    asks_for_several,
    asks_when,
    question_type,
    resolve_question,
    strip_possessives,
)
from graphmem.language.questions import asks_what_to_do
from graphmem.retrieval.retrievers import RetrievalContext
from graphmem.retrieval.retrievers.temporal import TemporalRetriever
from tests.fakes import HashEmbedder


@pytest.mark.parametrize(
    ("question", "cue"),
    [
        ("When did Dana go to the support group?", "when"),
        ("What year did Ari move to Lisbon?", "when"),
        ("How long ago was the wedding?", "when"),
        ("Which month did they adopt the dog?", "when"),
        ("What did Dana paint, and when did she show it?", "when"),
        ("Where did Ari go camping?", "where"),
        ("Who gave Dana the violin?", "who"),
        ("How many children does Ari have?", "how many"),
        ("How often does Dana run?", "how many"),
        ("Why did Ari quit?", "why"),
        ("How did Dana feel about the race?", "how"),
        ("What is Ari's favourite book?", "what"),
        ("Did Dana enjoy the concert?", "yes/no"),
        ("Dana likes tea", None),
    ],
)
def test_question_type(question: str, cue: str | None) -> None:
    assert question_type(question) == cue
    assert asks_when(question) == (cue == "when")


def test_possessives_are_stripped_from_names_only() -> None:
    assert strip_possessives("What is Dana's sister's name?") == "What is Dana sister's name?"
    assert strip_possessives("Where is James' car?") == "Where is James car?"
    assert strip_possessives("it's Ari’s") == "it's Ari"


def test_a_short_name_becomes_the_one_person_it_begins() -> None:
    resolved = resolve_question("What did Mel and her kids paint?", ["Caroline", "Melanie"])
    assert resolved.text == "What did Melanie and her kids paint?"
    assert resolved.resolved == (("Mel", "Melanie"),)
    # a known first name, an ambiguous prefix and a word of no person stay as they are
    same = resolve_question("Did Caro meet Car owners in Paris?", ["Caroline", "Carol"])
    assert same.text == "Did Caro meet Car owners in Paris?" and same.resolved == ()


def test_a_pronoun_is_resolved_only_when_nobody_is_named_and_one_person_is_known() -> None:
    one = resolve_question("When did she move?", ["Dana Reyes"])
    assert one.text == "When did Dana Reyes move?" and one.resolved == (("she", "Dana Reyes"),)
    assert one.type == "when"
    named = resolve_question("When did Dana's sister move her studio?", ["Dana Reyes"])
    assert named.text == "When did Dana's sister move her studio?"  # possessive kept
    two = resolve_question("Where did he go?", ["Ari", "Dana"])
    assert two.text == "Where did he go?" and two.resolved == ()


# ---------------------------------------------------------------- temporal 'when' mode
MAY_8 = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[GraphMem]:
    settings = Settings(data_dir=tmp_path / "s", neo4j_uri=None)
    with GraphMem(settings, embedder=HashEmbedder()) as mem:
        mem.remember(
            "ns",
            [
                {
                    "content": "Dana went to the support group yesterday",
                    "extractor": "verbatim",
                    "observed_at": MAY_8,
                },
                {
                    "content": "Dana says the support group is welcoming",
                    "extractor": "verbatim",
                    "observed_at": MAY_8,
                },
            ],
        )
        yield mem


def _ctx(mem: GraphMem, text: str, **settings: object) -> RetrievalContext:
    return RetrievalContext(
        namespace="ns",
        text=text,
        embedding=HashEmbedder().embed([text])[0],
        links=(),
        window=None,
        k=10,
        include_history=False,
        settings=mem.settings.model_copy(update=settings),
    )


def test_a_when_question_ranks_memories_with_an_event_time(memory: GraphMem) -> None:
    hits = TemporalRetriever().retrieve(
        memory.store, _ctx(memory, "When did Dana go to the support group?")
    )
    (found,) = memory.store.get_memories("ns", [h.memory_id for h in hits])
    assert found.content == "Dana went to the support group yesterday"
    assert found.event_time is not None and found.event_time.date().isoformat() == "2023-05-07"
    assert hits[0].detail == "event time 2023-05-07 (a 'when' question)"


def test_other_questions_and_the_setting_off_abstain(memory: GraphMem) -> None:
    retriever = TemporalRetriever()
    assert retriever.retrieve(memory.store, _ctx(memory, "Where is the support group?")) == []
    off = _ctx(memory, "When did Dana go to the support group?", event_time_ranking=False)
    assert retriever.retrieve(memory.store, off) == []


@pytest.mark.parametrize("resolution", [True, False])
def test_recall_searches_the_resolved_question(tmp_path: Path, resolution: bool) -> None:
    settings = Settings(data_dir=tmp_path / "r", neo4j_uri=None, question_resolution=resolution)
    with GraphMem(settings, embedder=HashEmbedder()) as mem:
        mem.remember(
            "ns",
            [
                {
                    "content": "Melanie painted a sunrise over the lake",
                    "extractor": "verbatim",
                    "entities": [{"name": "Melanie", "kind": "Person"}],
                },
                {
                    "content": "Caroline painted the harbour",
                    "extractor": "verbatim",
                    "entities": [{"name": "Caroline", "kind": "Person"}],
                },
            ],
        )
        result = mem.recall("ns", "What did Mel paint?", record_access=False)
    assert result.query == "What did Mel paint?"  # the question as asked is reported
    assert result.linked_entities == (("Melanie",) if resolution else ())


@pytest.mark.parametrize(
    "question",
    [
        "How many times has John injured his ankle?",
        "What books has Tim read?",
        "Which cities has John been to?",
        "What video games does Nate play?",
        "What are the names of John's children?",
        "Which city have both Jean and John visited?",
        "What transgender-specific events has Caroline attended?",
    ],
)
def test_questions_that_gather_several_memories(question: str) -> None:
    assert asks_for_several(question)


@pytest.mark.parametrize(
    "question",
    [
        "What book did Tim just finish reading?",
        "What is Caroline's identity?",
        "Who is Ari's sister?",
        "When did Dana go to the class?",
        "Where did Caroline move from?",
        "What was grandma's gift to Caroline?",
        "How does Nate feel about it?",
    ],
)
def test_questions_about_one_thing(question: str) -> None:
    assert not asks_for_several(question)


def test_a_question_about_what_to_do_says_so() -> None:
    assert asks_what_to_do("Is it alright if I have a soju with the guys tonight?")
    assert asks_what_to_do("At the meyhane tonight. Which meze should I stay away from?")
    assert asks_what_to_do("Flying to Málaga in February. Which pills must I not forget?")
    assert not asks_what_to_do("What did Caroline do last Saturday?")
    assert not asks_what_to_do("When could Melanie go camping?")
