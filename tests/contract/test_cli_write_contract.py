"""The facade and CLI fixes of issue 10 on every store, run in-process (typer's runner)
with the test embedder: ``graphmem list`` and its filters, id prefixes, an unknown
namespace, ingest counts and ``-`` as stdin, ``remember_many`` writing eagerly, reopening
a facade, and ``graphmem doctor`` on a healthy and an unhealthy store."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInputError, Settings
from graphmem.cli import common
from graphmem.cli import main as cli
from graphmem.store.base import LifecycleUpdate, MemoryFilter, MemoryStore, WriteBatch
from graphmem.text import entity_id
from tests.contract.builders import T0, make_entity, make_memory
from tests.contract.conftest import StoreFactory
from tests.fakes import HashEmbedder

NOW = T0 + timedelta(days=10)
Run = Callable[..., tuple[int, str]]


@pytest.fixture
def run(store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Runs ``graphmem ARGS`` against this test's store; returns (exit code, output)."""

    def open_memory(*_: Any, **__: Any) -> GraphMem:
        return GraphMem(Settings(), store=store_factory(), embedder=HashEmbedder(), clock=clock)

    def clock() -> Any:
        return NOW

    monkeypatch.setattr(common, "open_memory", open_memory)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
        result = runner.invoke(cli.app, list(args), input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.output

    return invoke


def facade(store: MemoryStore) -> GraphMem:
    return GraphMem(
        Settings(), store=store, embedder=HashEmbedder(), clock=lambda: NOW, owns_store=False
    )


def cand(content: str, turn: str, session: str = "s1", **extra: Any) -> dict[str, Any]:
    return {
        "content": content,
        "extractor": "verbatim",
        "session_id": session,
        "turn_id": turn,
        "observed_at": T0.isoformat(),
        **extra,
    }


# -- graphmem list ----------------------------------------------------------------------------


def _listed(run: Run, ns: str, *options: str) -> list[str]:
    code, out = run("list", "-n", ns, "--json", *options)
    assert code == 0, out
    return [m["content"] for m in json.loads(out)["memories"]]


def test_list_shows_every_memory_and_filters(run: Run, store: MemoryStore, ns: str) -> None:
    gm = facade(store)
    report = gm.remember(
        ns,
        [
            cand("Hana keeps bees on the roof", "t1", entities=[{"name": "Hana"}]),
            cand("Hana prefers green tea", "t2", type="Preference", entities=[{"name": "Hana"}]),
            cand("The roof leaks in spring", "t3"),
            cand("Hana's birthday is in May", "t4", entities=[{"name": "Hana"}]),
        ],
    )
    bees, tea, roof, birthday = report.memory_ids
    assert bees and tea and roof and birthday
    gm.correct(ns, birthday, "Hana's birthday is in June")
    (stored_roof,) = store.get_memories(ns, [roof])
    store.set_lifecycle(
        ns, [LifecycleUpdate(roof, False, "cold", stored_roof.access_count, stored_roof.version)]
    )
    gm.close()

    everything = _listed(run, ns)
    assert sorted(everything) == sorted(
        [
            "Hana keeps bees on the roof",
            "Hana prefers green tea",
            "The roof leaks in spring",
            "Hana's birthday is in May",
            "Hana's birthday is in June",
        ]
    )
    assert _listed(run, ns, "--cold") == ["The roof leaks in spring"]
    assert _listed(run, ns, "--unretrievable") == ["The roof leaks in spring"]
    assert _listed(run, ns, "--superseded") == ["Hana's birthday is in May"]
    assert _listed(run, ns, "--type", "preference") == ["Hana prefers green tea"]
    assert sorted(_listed(run, ns, "--entity", "Hana", "--current")) == sorted(
        ["Hana keeps bees on the roof", "Hana prefers green tea", "Hana's birthday is in June"]
    )
    code, out = run("list", "-n", ns)
    assert code == 0
    assert "cold" in out and "unretrievable" in out and "superseded" in out
    assert "5 shown of 5" in out
    with pytest.raises(InvalidInputError, match="no entity named 'Nobody'"):
        run("list", "-n", ns, "--entity", "Nobody")
    with pytest.raises(InvalidInputError, match="unknown type 'Opinion'"):
        run("list", "-n", ns, "--type", "Opinion")


def test_store_list_memories_pages_by_id(store: MemoryStore, ns: str) -> None:
    memories = [make_memory(ns, f"memory number {i}") for i in range(5)]
    store.write(ns, WriteBatch(memories=memories))
    ids = sorted(m.id for m in memories)
    first = store.list_memories(ns, MemoryFilter(), None, 3)
    assert [m.id for m in first] == ids[:3]
    rest = store.list_memories(ns, MemoryFilter(), first[-1].id, 3)
    assert [m.id for m in rest] == ids[3:]
    assert store.list_memories(ns, MemoryFilter(superseded=True), None, 10) == []
    assert len(store.list_memories(ns, MemoryFilter(superseded=False), None, 10)) == 5
    assert store.list_memories(ns, MemoryFilter(types=("Event",)), None, 10) == []
    assert store.list_memories(ns, MemoryFilter(cold=False), None, 10)[0].embedding is None
    with pytest.raises(InvalidInputError, match="limit"):
        store.list_memories(ns, MemoryFilter(), None, 0)


# -- ids, namespaces ----------------------------------------------------------------------


def test_short_id_prefixes_are_accepted_when_unique(run: Run, store: MemoryStore, ns: str) -> None:
    store.write(
        ns,
        WriteBatch(
            memories=[
                make_memory(ns, "Hana keeps bees", id="abcd1111-0000-5000-8000-000000000000"),
                make_memory(ns, "Hana brews mead", id="abcd2222-0000-5000-8000-000000000000"),
            ],
            entities=[make_entity(ns, "Hana")],
        ),
    )
    code, out = run("show", "abcd1111", "-n", ns, "--json")
    assert code == 0
    assert [m["content"] for m in json.loads(out)] == ["Hana keeps bees"]
    code, out = run("confirm", "abcd2222", "-n", ns)
    assert code == 0 and "abcd2222" in out
    code, out = run("correct", "abcd1111", "Hana keeps wasps", "-n", ns)
    assert code == 0 and "superseded by" in out
    with pytest.raises(InvalidInputError, match="several memory ids") as info:
        run("show", "abcd", "-n", ns)
    assert "abcd1111-0000" in str(info.value) and "abcd2222-0000" in str(info.value)
    with pytest.raises(InvalidInputError, match="too short"):
        run("show", "abc", "-n", ns)


def test_recall_in_an_unknown_namespace_names_the_existing_ones(
    run: Run, store: MemoryStore, ns: str
) -> None:
    facade(store).remember(ns, [cand("Hana keeps bees", "t1")])
    code, out = run("recall", "what does Hana keep?", "-n", ns + "-typo")
    assert code == 1
    assert f"{ns}-typo" in out and "does not exist" in out and ns in out.replace(f"{ns}-typo", "")
    code, _ = run("recall", "what does Hana keep?", "-n", ns)
    assert code == 0


# -- ingest -------------------------------------------------------------------------------


def test_ingest_from_stdin_counts_add_up(run: Run, ns: str) -> None:
    later = (T0 + timedelta(days=30)).isoformat()
    birthday = "On the family calendar at home Hana's birthday is on {day} August as every year"
    lines = [
        cand("Hana keeps bees on the roof of the old mill", "t1"),
        cand("Hana keeps bees on the roof of the old mill", "t2", session="s2"),  # merged
        cand(birthday.format(day=14), "t3"),
        cand(birthday.format(day=15), "t4", session="s3", observed_at=later),  # replaces t3
        cand(
            "Hana lives in Kyoto",
            "t5",
            subject="Hana",
            predicate="lives_in",
            object="Kyoto",
        ),
        cand(  # loses against the direct claim above: stored superseded
            "Hana lives in Osaka",
            "t6",
            session="s4",
            observed_at=later,
            subject="Hana",
            predicate="lives_in",
            object="Osaka",
            source_level="speculation",
            extractor="some-small-model",
        ),
        cand("Hana is a dragon", "t7", grounding="unsupported"),  # rejected
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    code, out = run("ingest", "-", "-n", ns, "--json", "--batch-size", "3", input=text)
    assert code == 0, out
    totals = json.loads(out)
    counts = {k: totals[k] for k in ("created", "merged", "superseded", "rejected")}
    # t1, t3, t4, t5 new; t2 merged; t6 superseded; t7 rejected
    assert counts == {"created": 4, "merged": 1, "superseded": 1, "rejected": 1}
    assert sum(counts.values()) == totals["candidates"] == len(lines)
    assert totals["replaced"] == 1
    code, out = run("ingest", "-", "-n", ns, input=text)
    assert code == 0 and "7 candidates" in out


def test_ingest_of_a_missing_file_is_a_clear_error(run: Run, ns: str) -> None:
    with pytest.raises(InvalidInputError, match="no such file"):
        run("ingest", "/nonexistent/file.jsonl", "-n", ns)


# -- facade -------------------------------------------------------------------------------


def test_remember_many_writes_without_being_iterated(store: MemoryStore, ns: str) -> None:
    gm = facade(store)
    seen: list[int] = []
    reports = gm.remember_many(
        ns,
        [cand(f"Hana planted tree number {i}", f"t{i}") for i in range(5)],
        batch_size=2,
        on_batch=lambda _report, done: seen.append(done),
    )
    assert isinstance(reports, list) and len(reports) == 3
    assert seen == [2, 4, 5]
    assert gm.stats(ns)["memories"] == 5
    gm.close()


def test_a_facade_can_be_closed_and_reopened(store_factory: StoreFactory, ns: str) -> None:
    gm = GraphMem(Settings(), store=store_factory(), embedder=HashEmbedder(), clock=lambda: NOW)
    with gm:
        gm.remember(ns, [cand("Hana keeps bees", "t1")])
    assert gm.closed
    with gm:  # raised "cannot schedule new futures after shutdown" before
        assert not gm.closed
        hits = gm.recall(ns, "what does Hana keep?").hits
        assert [h.memory.content for h in hits] == ["Hana keeps bees"]
        gm.remember_many(ns, [cand("Hana brews mead", "t2")])
    with gm:
        assert gm.stats(ns)["memories"] == 2
        gm.delete_namespace(ns)


# -- doctor -------------------------------------------------------------------------------


def test_doctor_on_a_healthy_store_exits_0(run: Run, store: MemoryStore, ns: str) -> None:
    facade(store).remember(ns, [cand("Hana keeps bees", "t1")])
    code, out = run("doctor")
    assert code == 0, out
    assert "✓ ok" in out and "problems" not in out
    if store.name == "neo4j":
        assert "ONLINE" in out and "index" in out


@pytest.mark.neo4j
def test_doctor_on_an_unhealthy_neo4j_exits_1(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    from graphmem.store.neo4j import Neo4jStore

    server = request.getfixturevalue("neo4j_server")
    stores = {
        # nothing listens there
        "unreachable": lambda: Neo4jStore("bolt://127.0.0.1:9", dim=8, allow_no_auth=True),
        # the real server, but it has authentication disabled and that is not allowed
        "no auth refused": lambda: Neo4jStore(
            server.uri, user="neo4j", password=None, database=server.database, dim=8
        ),
    }
    for name, make in stores.items():
        monkeypatch.setattr(
            common,
            "open_memory",
            lambda *_a, make=make, **_k: GraphMem(
                Settings(embedding_dim=8), store=make(), embedder=HashEmbedder(8)
            ),
        )
        result = CliRunner().invoke(cli.app, ["doctor"])
        assert result.exit_code == 1, (name, result.output)
        assert "cannot open the store" in result.output and "✓ ok" not in result.output


def test_entity_filter_uses_the_entity_id(store: MemoryStore, ns: str) -> None:
    store.write(
        ns,
        WriteBatch(
            memories=[
                make_memory(ns, "Hana keeps bees", mentions=[(entity_id("Hana"), "subject")]),
                make_memory(ns, "Ode keeps goats", mentions=[(entity_id("Ode"), "subject")]),
            ],
            entities=[make_entity(ns, "Hana"), make_entity(ns, "Ode")],
        ),
    )
    where = MemoryFilter(entity_ids=(entity_id("Ode"),))
    assert [m.content for m in store.list_memories(ns, where, None, 10)] == ["Ode keeps goats"]


def test_doctor_reports_one_namespace_and_names_a_mistyped_one(
    run: Run, store: MemoryStore, ns: str
) -> None:
    facade(store).remember(ns, [cand("Hana keeps bees", "t1")])
    code, out = run("doctor", "-n", ns)
    assert code == 0, out
    reported = [line for line in out.splitlines() if line.strip().startswith("namespace ")]
    assert len(reported) == 1 and ns in reported[0]
    code, out = run("doctor", "-n", ns + "-typo")
    assert code == 1
    assert "does not exist" in out and ns in out


def test_recall_explain_says_why_a_question_rule_moved_a_memory(
    run: Run, store: MemoryStore, ns: str
) -> None:
    memory = facade(store)
    memory.set_user(ns, "Haruka Mori")
    memory.remember(
        ns,
        [
            cand("I'm allergic to fish, even a little dashi.", "t1"),
            cand("I live in Osaka, near Tenma station.", "t2"),
        ],
    )
    code, out = run("recall", "Where do I live?", "-n", ns, "--explain")
    assert code == 0, out
    flat = " ".join(out.split())  # the console may wrap the line
    assert "moved up: the question asks for where the subject lives, which it states" in flat
