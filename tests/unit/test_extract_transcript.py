"""Format detection of ``graphmem ingest`` and verbatim turns (docs/extraction.md
"Formats accepted")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.errors import InvalidInputError
from graphmem.extract.messages import as_messages
from graphmem.extract.transcript import TranscriptExtractor, read_input

CHAT = """\
# a comment
# session s1 2026-05-08T18:30+02:00
Noor: Hi Tomas! I started at Kestrel Analytics on Monday.
Tomas: Congrats!
  It was about time.

# session s2 2026-05-15T10:00+02:00
Noor: My sister Maren is getting married in June!
"""


def test_a_chat_with_sessions_and_a_continued_turn() -> None:
    kind, records = read_input(CHAT)
    assert kind == "chat"
    assert records == [
        {
            "speaker": "Noor",
            "content": "Hi Tomas! I started at Kestrel Analytics on Monday.",
            "session_id": "s1",
            "observed_at": "2026-05-08T18:30+02:00",
        },
        {
            "speaker": "Tomas",
            "content": "Congrats! It was about time.",
            "session_id": "s1",
            "observed_at": "2026-05-08T18:30+02:00",
        },
        {
            "speaker": "Noor",
            "content": "My sister Maren is getting married in June!",
            "session_id": "s2",
            "observed_at": "2026-05-15T10:00+02:00",
        },
    ]


def test_messages_as_jsonl_or_a_json_array_and_candidates_apart() -> None:
    jsonl = (
        '{"speaker": "A", "content": "x"}\n\n{"speaker": "B", "content": "y", "session_id": "s"}\n'
    )
    assert read_input(jsonl) == (
        "messages",
        [{"speaker": "A", "content": "x"}, {"speaker": "B", "content": "y", "session_id": "s"}],
    )
    array = '[{"speaker": "A", "content": "x"}]'
    assert read_input(array) == ("messages", [{"speaker": "A", "content": "x"}])
    wrapped = '{"messages": [{"speaker": "A", "content": "x"}]}'
    assert read_input(wrapped) == ("messages", [{"speaker": "A", "content": "x"}])
    candidates = '{"content": "Ana lives in Lisbon.", "type": "Fact"}\n'
    assert read_input(candidates) == (
        "candidates",
        [{"content": "Ana lives in Lisbon.", "type": "Fact"}],
    )


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("The quick brown fox.\nJumps.", "line 1"),
        ("", "path"),
        ('{"speaker": "A", "content": "x"}\n{"content": "y", "type": "Fact"}', "line 2"),
        ("# session s1 yesterday\nA: hi", "line 1"),
        ("# session s1 2026-05-08T18:30\nA: hi", "line 1"),
        ('[{"content": "no speaker"}]', "path"),
    ],
)
def test_a_file_in_no_format_names_the_formats(text: str, where: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        read_input(text)
    assert caught.value.field == where
    if where == "line 1" and "session" not in text:
        assert "accepted formats" in str(caught.value)
        assert '"Name: text"' in str(caught.value)


def test_turns_are_verbatim_records_of_their_speaker() -> None:
    _, records = read_input(CHAT)
    messages = as_messages(records, observed_at=datetime(2026, 1, 1, tzinfo=UTC))
    turns = TranscriptExtractor().extract(messages)
    assert [t.content for t in turns] == [
        "Noor: Hi Tomas! I started at Kestrel Analytics on Monday.",
        "Tomas: Congrats! It was about time.",
        "Noor: My sister Maren is getting married in June!",
    ]
    assert {t.extractor for t in turns} == {"verbatim"}
    assert [(e.name, e.kind, e.role) for e in turns[1].entities] == [("Tomas", "Person", "subject")]
    assert [t.session_id for t in turns] == ["s1", "s1", "s2"]
    assert turns[2].observed_at == datetime.fromisoformat("2026-05-15T10:00+02:00")
