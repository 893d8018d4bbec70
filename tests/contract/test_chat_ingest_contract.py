"""Raw conversation in, a clean graph out (docs/extraction.md), on every store:
``graphmem ingest chat.txt`` offline on a 15-turn, two-speaker chat over two
sessions, written for this test (names, jobs, family, a move, a birthplace, a
wedding "in June" said in May), then the same chat as JSONL messages.

Expected values are read off the chat by hand: who works where, whose sister
and brother, who moved and was born where, and the wedding's month.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInputError, Settings
from graphmem.cli import common, data_cmds
from graphmem.cli import main as cli
from graphmem.language.nlp import nlp_available
from graphmem.store.base import MemoryFilter, MemoryStore
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder

pytestmark = pytest.mark.skipif(not nlp_available(), reason="needs the nlp extra (spaCy)")

CHAT = """\
# session s1 2026-05-08T18:30+02:00
Noor: Hi Tomas! Guess what, I started working at Kestrel Analytics on Monday.
Tomas: Congrats Noor! Is Ingrid Holm your manager there?
Noor: Yes, Ingrid is my manager. She moved to Tallinn from Riga last year.
Tomas: How is your brother Emil doing?
Noor: Emil moved to Montreal in March. He works as a paramedic at Lakeshore General Hospital.
Tomas: Montreal winters, brave man. I was born in Cordoba, so I would freeze.
Noor: Ha! I did not join Vireo Labs after all, the commute was awful.
Tomas: My cat Pixel says hello, by the way.
# session s2 2026-05-15T10:00+02:00
Noor: Big news from the family: my sister Maren is getting married in June!
Tomas: Wonderful! So I guess you'll be climbing with Lucia at Granite Loft before the wedding?
Noor: Lucia Ferreira is my best friend, yes. We are flying to Lisbon on Friday.
Tomas: Thanks for the update. My wife Sanne says hi.
Noor: Say hi to Sanne! Does she still teach at Westbrook College?
Tomas: Yes, and she lives in Utrecht with me now.
Noor: Lovely. Talk soon!
"""
KINDS = {"Person", "Organization", "Place", "Product", "Work", "Animal", "Event"}
JUNK = {"congrats", "hi", "ha", "monday", "march", "june", "friday", "thanks", "lovely"}
Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch) -> Run:
    """``graphmem ARGS`` against this test's store, the ner extractor, no chat model."""
    monkeypatch.delenv("GRAPHMEM_LLM_MODEL", raising=False)

    def open_memory(*_: Any, **__: Any) -> GraphMem:
        settings = Settings(extractor="ner", llm_model=None)
        return GraphMem(settings, store=store_factory(), embedder=HashEmbedder())

    monkeypatch.setattr(common, "open_memory", open_memory)
    monkeypatch.setattr(data_cmds, "open_memory", open_memory)  # export imports it by name
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(cli.app, list(args))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.output

    return invoke


def _graph(store: MemoryStore, ns: str) -> tuple[dict[str, str], set[tuple[str, str, str]]]:
    entities = {e.id: e for e in store.list_entities(ns)}
    relations = {
        (entities[r.source_id].name, r.predicate, entities[r.target_id].name)
        for r in store.relation_subgraph(ns, list(entities), 1)
    }
    return {e.name: e.kind for e in entities.values()}, relations


def _check(store: MemoryStore, ns: str) -> None:
    kinds, relations = _graph(store, ns)
    # no junk entity: every kind a real one, no greeting, month or weekday
    assert set(kinds.values()) <= KINDS, kinds
    assert not {name.casefold() for name in kinds} & JUNK, kinds
    assert kinds["Kestrel Analytics"] == "Organization"
    assert kinds["Lakeshore General Hospital"] == "Organization"
    assert kinds["Pixel"] == "Animal"
    assert kinds["Cordoba"] == "Place"
    typed = {r for r in relations if r[1] != "CO_OCCURS_WITH"}
    # "your brother Emil" said by Tomas: Noor's brother; "I was born" said by Tomas
    assert ("Noor", "BROTHER_OF", "Emil") in typed
    assert ("Tomas", "BORN_IN", "Cordoba") in typed
    assert not any(r[0] == "Tomas" and r[1] == "BROTHER_OF" for r in typed)
    # job, family (owner first: Noor's sister is Maren), move
    assert ("Noor", "WORKS_AT", "Kestrel Analytics") in typed
    assert ("Emil", "WORKS_AT", "Lakeshore General Hospital") in typed
    assert ("Noor", "SISTER_OF", "Maren") in typed
    assert ("Tomas", "MARRIED_TO", "Sanne") in typed
    assert ("Emil", "MOVED_TO", "Montreal") in typed
    assert ("Tomas", "OWNS", "Pixel") in typed
    # "I did not join Vireo Labs": no relation, not even a co-occurrence
    assert not any("Vireo Labs" in (r[0], r[2]) for r in relations)
    # "Does she still teach at Westbrook College?", asked by Noor: a question relates
    # nobody to the asker (docs/extraction.md "Co-occurrence")
    assert not any({"Noor", "Sanne"} == {r[0], r[2]} for r in relations)
    assert not any({"Noor", "Westbrook College"} == {r[0], r[2]} for r in relations)
    # the wedding "in June", said on 15 May 2026: June 2026, not 2025
    memories = store.list_memories(ns, MemoryFilter(), None, 100)
    wedding = next(m for m in memories if "getting married" in m.content)
    assert wedding.event_time is not None
    assert (wedding.event_time.year, wedding.event_time.month) == (2026, 6)
    assert wedding.content.startswith("Noor: ")
    assert wedding.extractor == "verbatim"
    assert len(memories) == 15


def test_a_plain_chat_ingests_offline_into_a_clean_graph(
    run: Run, store: MemoryStore, ns: str, tmp_path: Path
) -> None:
    path = tmp_path / "chat.txt"
    path.write_text(CHAT, encoding="utf-8")
    code, out = run("ingest", str(path), "-n", ns)
    assert code == 0, out
    assert "15 chat turns" in out
    _check(store, ns)
    code, out = run("doctor", "-n", ns)  # this namespace: others on a shared server differ
    assert code == 0, out
    assert f"namespace {ns}" in out
    assert "drift" not in out  # one sense of each name over one week


def test_the_same_chat_as_jsonl_messages(
    run: Run, store: MemoryStore, ns: str, tmp_path: Path
) -> None:
    lines = []
    session, when = "s1", ""
    for line in CHAT.splitlines():
        if line.startswith("# session"):
            _, _, session, when = line.split()
            continue
        speaker, content = line.split(": ", 1)
        observed = datetime.fromisoformat(when).isoformat()
        lines.append(
            {"speaker": speaker, "content": content, "observed_at": observed, "session_id": session}
        )
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in lines) + "\n", encoding="utf-8")
    code, out = run("ingest", str(path), "-n", ns)
    assert code == 0, out
    assert "15 messages" in out
    _check(store, ns)


def test_a_relation_keeps_its_wording_in_show_and_export(
    run: Run, store: MemoryStore, ns: str, tmp_path: Path
) -> None:
    """The type is normalised, the words it was read from are kept beside it
    (docs/extraction.md "Vocabulary"): "I started working at Kestrel Analytics" is
    WORKS_AT from "work at", "your brother Emil" BROTHER_OF from "brother"; both
    show in ``graphmem show`` and in ``graphmem export``."""
    path = tmp_path / "chat.txt"
    path.write_text(CHAT, encoding="utf-8")
    assert run("ingest", str(path), "-n", ns)[0] == 0
    memories = store.list_memories(ns, MemoryFilter(), None, 100)
    job = next(m for m in memories if "Kestrel Analytics" in m.content)
    code, out = run("show", job.id, "-n", ns)
    assert code == 0, out
    assert "Noor —WORKS_AT→ Kestrel Analytics" in out and "(from 'work at')" in out
    code, out = run("show", job.id, "-n", ns, "--json")
    shown = json.loads(out)[0]["relations"]
    assert {(r["predicate"], r["target"], r["lemma"]) for r in shown} == {
        ("WORKS_AT", "Kestrel Analytics", "work at")
    }
    dump = tmp_path / "export.jsonl"
    code, out = run("export", "-n", ns, "-o", str(dump))
    assert code == 0, out
    records = [json.loads(line) for line in dump.read_text(encoding="utf-8").splitlines()]
    lemmas = {r["predicate"]: r.get("lemma") for r in records if r.get("record") == "relation"}
    assert lemmas["WORKS_AT"] == "work at"
    assert lemmas["BROTHER_OF"] == "brother"
    assert lemmas["MOVED_TO"] == "move to"


GROUP_CHAT = """\
# session g1 2026-06-02T19:00+01:00
Marcus: How is your brother Ravi?
Priya: He is fine. I went climbing with Sofia at Boulder Barn on Saturday.
Lena: I did not join Northwind in the end.
Marcus: Tessa and Jonas went hiking last weekend.
"""


def test_co_occurrence_links_only_names_a_sentence_relates(
    run: Run, store: MemoryStore, ns: str, tmp_path: Path
) -> None:
    """A three-person chat, so "your" has no one addressee: "How is your brother
    Ravi?", asked by Marcus, says nothing of Marcus and Ravi together; a negated
    clause relates nobody; "I went climbing with Sofia" relates Priya and Sofia,
    though no relation type fits."""
    path = tmp_path / "group.txt"
    path.write_text(GROUP_CHAT, encoding="utf-8")
    code, out = run("ingest", str(path), "-n", ns)
    assert code == 0, out
    _, relations = _graph(store, ns)
    linked = {frozenset((a, b)) for a, p, b in relations if p == "CO_OCCURS_WITH"}
    assert frozenset(("Marcus", "Ravi")) not in linked
    assert not any("Northwind" in pair for pair in linked)
    assert frozenset(("Priya", "Sofia")) in linked
    assert frozenset(("Priya", "Boulder Barn")) in linked
    assert not any("Marcus" in pair for pair in linked)  # he asked, he told: he did not go


def test_a_file_in_no_format_lists_the_formats(run: Run, ns: str, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Just some prose about my week.\nNothing else.\n", encoding="utf-8")
    with pytest.raises(InvalidInputError) as caught:
        run("ingest", str(path), "-n", ns)
    message = str(caught.value)
    assert caught.value.field == "line 1"
    assert "accepted formats" in message and '"Name: text"' in message and "JSONL" in message
