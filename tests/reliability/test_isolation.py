"""Namespace isolation (issue 6 §5 "isolation").

For generated pairs of namespaces (including ones that differ only in case, or
where one is a prefix of the other) holding partly the same facts, the same
entity names (entity ids do not depend on the namespace) and the same session
ids, no call in namespace A — remember, recall with every retriever, get,
stats, confirm, correct, forget_session, delete_namespace — returns, counts or
changes anything of namespace B. B is compared field by field (access counts
included) before and after.

One CLI-level check runs ``python -m graphmem.cli.main`` in subprocesses on an
embedded store with two namespaces; the CLI embeds with the real model, so it
is marked ``model``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem, MemoryNotFoundError
from graphmem.store.base import MemoryStore
from graphmem.text import content_hash, memory_id
from tests.reliability._checks import PEOPLE, fact_text, snapshot
from tests.reliability.conftest import T0, add_figure

EXAMPLES = {
    "embedded": int(os.environ.get("GRAPHMEM_RELIABILITY_ISOLATION_EMBEDDED", "30")),
    "neo4j": int(os.environ.get("GRAPHMEM_RELIABILITY_ISOLATION_NEO4J", "8")),
}
EXPLORE = os.environ.get("GRAPHMEM_RELIABILITY_EXPLORE", "") == "1"
SESSIONS = ("s0", "s1")
RETRIEVERS = ("semantic", "bm25", "entity", "temporal", "graph")

namespace_part = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,12}", fullmatch=True)
# facts: indexes into the shared pool; ``shared`` go to both namespaces
fact_ids = st.lists(st.integers(0, 40), min_size=1, max_size=4, unique=True)


def _candidates(facts: list[int], tag: str) -> list[dict[str, Any]]:
    """Candidates for pool facts (the same text in both namespaces) plus one fact
    that only this namespace has; sessions s0 / s1 in both namespaces."""
    texts = [fact_text(j, seed=11) for j in facts] + [f"{PEOPLE[0]} only {tag} knows this"]
    out = []
    for i, text in enumerate(texts):
        session = SESSIONS[i % 2]
        person = PEOPLE[i % len(PEOPLE)]
        out.append(
            {
                "content": f"{text} last week",
                "type": "Fact",
                "extractor": "verbatim",
                "session_id": session,
                "turn_id": f"{session}:{i}",
                "observed_at": (T0 + timedelta(days=i)).isoformat(),
                "entities": [{"name": person, "kind": "Person"}],
                "relations": [{"source": person, "predicate": "knows", "target": PEOPLE[-1]}],
            }
        )
    return out


def _settings(kind: str) -> settings:
    return settings(
        max_examples=EXAMPLES[kind],
        deadline=None,
        derandomize=not EXPLORE,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def test_calls_in_one_namespace_never_touch_another(
    memory: GraphMem, store: MemoryStore, store_kind: str
) -> None:
    tally = {"examples": 0, "calls_in_a": 0}

    @_settings(store_kind)
    @given(
        names=st.tuples(namespace_part, namespace_part).filter(lambda p: p[0] != p[1]),
        shared=fact_ids,
        only_a=fact_ids,
        only_b=fact_ids,
    )
    @example(names=("a", "A"), shared=[1], only_a=[2], only_b=[3])
    @example(names=("x", "x:y"), shared=[1, 2], only_a=[], only_b=[4])
    @example(names=("ns", "ns_"), shared=[5], only_a=[6], only_b=[])
    def check(
        names: tuple[str, str], shared: list[int], only_a: list[int], only_b: list[int]
    ) -> None:
        tally["examples"] += 1
        prefix = f"iso{uuid.uuid4().hex[:8]}-"
        a, b = prefix + names[0], prefix + names[1]
        try:
            _exercise(memory, store, a, b, shared, only_a, only_b, tally)
        finally:
            memory.delete_namespace(a)
            memory.delete_namespace(b)

    check()
    add_figure(f"isolation.{store_kind}.examples", tally["examples"])
    add_figure(f"isolation.{store_kind}.calls_in_a_checked", tally["calls_in_a"])


def _exercise(
    memory: GraphMem,
    store: MemoryStore,
    a: str,
    b: str,
    shared: list[int],
    only_a: list[int],
    only_b: list[int],
    tally: dict[str, int],
) -> None:
    report_a = memory.remember(a, _candidates(shared + only_a, "A"))
    a_before_b = snapshot(store, a, SESSIONS)
    report_b = memory.remember(b, _candidates(shared + only_b, "B"))
    ids_a = {i for i in report_a.memory_ids if i}
    ids_b = {i for i in report_b.memory_ids if i}
    assert ids_a.isdisjoint(ids_b)
    assert snapshot(store, a, SESSIONS) == a_before_b  # writing B changed nothing of A
    b_before = snapshot(store, b, SESSIONS)

    def calls() -> None:
        queries = [f"what does {PEOPLE[0]} know?", fact_text(shared[0], seed=11), "last week"]
        for text in queries:
            for retrievers in (None, *((r,) for r in RETRIEVERS)):
                options = {} if retrievers is None else {"retrievers": retrievers}
                result = memory.recall(a, text, include_history=True, **options)
                tally["calls_in_a"] += 1
                for hit in result.hits:
                    assert hit.memory.namespace == a and hit.memory.id in ids_a, hit.memory.id
        for ident in ids_b:
            with pytest.raises(MemoryNotFoundError):
                memory.get(a, ident)
        assert memory.stats(a) == a_before_b["stats"]
        target = report_a.memory_ids[0]
        assert target is not None
        memory.confirm(a, target, session_id="s1")
        memory.correct(a, target, f"{PEOPLE[1]} corrected this in {a}")
        memory.forget_session(a, "s0")
        memory.forget_session(a, "s1", dry_run=True)
        tally["calls_in_a"] += len(ids_b) + 5

    calls()
    memory.stats(b)  # waits for the access updates recall submitted
    assert snapshot(store, b, SESSIONS) == b_before
    assert memory.delete_namespace(a) >= 1
    tally["calls_in_a"] += 1
    assert store.stats(a)["memories"] == 0
    assert snapshot(store, b, SESSIONS) == b_before
    for ident in ids_b:  # and B's memories are all still reachable through B
        assert memory.get(b, ident).namespace == b


@pytest.mark.model
def test_cli_two_namespaces_stay_apart(tmp_path: Path) -> None:
    """The CLI (real embedding model, embedded store, one process per command):
    ingest into two namespaces at once, recall / stats / show / forget in one; the
    other is untouched. Commands that embed load the model, so they run side by side."""
    data = tmp_path / "store"
    rows = {
        "tenant-a": ["Alice Moreau drinks green tea every morning", "Alice Moreau lives in Lyon"],
        "tenant-b": ["Alice Moreau drinks black coffee", "Bob Lindqvist lives in Oslo"],
    }
    env = {**os.environ, "GRAPHMEM_NEO4J_URI": "", "NO_COLOR": "1"}

    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "graphmem.cli.main", *args, "--data-dir", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        started.append(proc)
        return proc

    def done(proc: subprocess.Popen[str], ok: bool = True) -> str:
        out, err = proc.communicate(timeout=300)
        assert (proc.returncode == 0) == ok, err[-2000:]
        return out

    try:
        ingests = []
        for ns, texts in rows.items():
            path = tmp_path / f"{ns}.jsonl"
            lines = [
                json.dumps({"content": t, "session_id": "shared-session", "turn_id": f"t{i}"})
                for i, t in enumerate(texts)
            ]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            ingests.append(start("ingest", str(path), "--namespace", ns, "--json"))
        for proc in ingests:  # two processes writing one store file at once
            done(proc)

        a_id = memory_id("tenant-a", content_hash("Fact", None, None, rows["tenant-a"][0]))
        recall = start("recall", "what does Alice drink?", "-n", "tenant-a", "--json")
        show = start("show", a_id, "-n", "tenant-b")
        stats_b = start("stats", "-n", "tenant-b", "--json")
        recalled = json.loads(done(recall))
        contents = [h["memory"]["content"] for h in recalled["hits"]]
        assert contents and set(contents) <= set(rows["tenant-a"]), contents
        assert a_id in {h["memory"]["id"] for h in recalled["hits"]}
        done(show, ok=False)  # A's memory does not exist in B
        b_stats = json.loads(done(stats_b))
        assert b_stats["memories"] == 2

        done(start("forget", "--session", "shared-session", "-n", "tenant-a", "--json"))
        stats_a, stats_b = (
            start("stats", "-n", "tenant-a", "--json"),
            start("stats", "-n", "tenant-b", "--json"),
        )
        assert json.loads(done(stats_a))["memories"] == 0
        assert json.loads(done(stats_b)) == b_stats
    finally:  # a failed step leaves no process running into the next test
        for proc in started:
            if proc.poll() is None:
                proc.kill()
            proc.communicate()
