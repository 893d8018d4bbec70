"""Concurrent writers and readers on one facade for a fixed time (issue 6 §5 "load").

WRITERS threads each write their own distinct facts (batches of BATCH, one
session per batch, shared entities and relations between a few people) while
READERS threads recall (default plans and single retrievers), get and count.
Bounded by time (``GRAPHMEM_RELIABILITY_LOAD_S``, default 6 s per store),
loopback only. Afterwards: no thread saw an error, every recall hit was a
memory of the namespace that a writer had announced, and the counts are exact.
The recall latency p50 / p95 is reported (printed and in the figures), not
asserted.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

from graphmem import GraphMem
from graphmem.store.base import MemoryStore
from tests.reliability._checks import PEOPLE, word
from tests.reliability.conftest import T0, record_figure

WRITERS = 4
READERS = 4
BATCH = 3
DURATION_S = float(os.environ.get("GRAPHMEM_RELIABILITY_LOAD_S", "6"))
RETRIEVER_SETS: tuple[tuple[str, ...] | None, ...] = (
    None,  # the planner's choice
    ("semantic",),
    ("bm25",),
    ("entity",),
    ("temporal",),
    ("graph",),
)


def _fact(writer: int, batch: int, item: int) -> str:
    rng = random.Random(f"load:{writer}:{batch}:{item}")
    person = PEOPLE[(writer + batch + item) % len(PEOPLE)]
    return f"{person} {' '.join(word(rng) for _ in range(5))}"


def _candidates(writer: int, batch: int) -> list[dict[str, Any]]:
    session = f"w{writer}-b{batch}"
    out = []
    for item in range(BATCH):
        person = PEOPLE[(writer + batch + item) % len(PEOPLE)]
        other = PEOPLE[(writer + batch + item + 1) % len(PEOPLE)]
        out.append(
            {
                "content": _fact(writer, batch, item),
                "type": "Fact",
                "extractor": "verbatim",
                "session_id": session,
                "turn_id": f"{session}:{item}",
                "observed_at": T0.isoformat(),
                "entities": [{"name": person, "kind": "Person", "role": "subject"}],
                "relations": [{"source": person, "predicate": "knows", "target": other}],
            }
        )
    return out


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def test_concurrent_writers_and_readers(
    memory: GraphMem, store: MemoryStore, ns: str, store_kind: str, tmp_path: Path
) -> None:
    lock = threading.Lock()
    errors: list[str] = []
    announced: set[str] = set()  # contents a writer is about to write (or wrote)
    written: dict[str, str] = {}  # memory id -> content, after remember() returned
    sessions: list[str] = []
    latencies: list[float] = []
    reads = {"recall": 0, "get": 0, "stats": 0}
    start = threading.Barrier(WRITERS + READERS)
    deadline = 0.0

    def fail(where: str, exc: BaseException) -> None:
        with lock:
            errors.append(f"{where}: {type(exc).__name__}: {exc}")

    def writer(w: int) -> None:
        start.wait()
        batch = 0
        while time.monotonic() < deadline:
            cands = _candidates(w, batch)
            with lock:
                announced.update(c["content"] for c in cands)
            try:
                report = memory.remember(ns, cands)
            except Exception as exc:
                fail(f"writer {w} batch {batch}", exc)
                return
            if len(report.created) != BATCH:
                fail(f"writer {w} batch {batch}", AssertionError(f"report {report}"))
            with lock:
                written.update(zip(report.created, (c["content"] for c in cands), strict=True))
                sessions.append(cands[0]["session_id"])
            batch += 1

    def reader(r: int) -> None:
        rng = random.Random(f"reader:{r}")
        start.wait()
        last_count = 0
        i = 0
        while time.monotonic() < deadline:
            i += 1
            try:
                with lock:
                    known = list(written.items())
                if i % 5 == 0 and known:
                    ident, content = rng.choice(known)
                    got = memory.get(ns, ident)
                    assert got.content == content and got.namespace == ns
                    kind = "get"
                elif i % 7 == 0:
                    count = memory.stats(ns)["memories"]
                    assert count >= last_count, f"memories went from {last_count} to {count}"
                    last_count = count
                    kind = "stats"
                else:
                    if known and rng.random() < 0.7:  # words of a stored fact, and its person
                        words = rng.choice(known)[1].split()
                        text = f"what about {rng.choice(words[2:])} and {words[0]}?"
                    else:
                        text = f"what does {rng.choice(PEOPLE)} think of {word(rng)}?"
                    retrievers = RETRIEVER_SETS[i % len(RETRIEVER_SETS)]
                    options = {} if retrievers is None else {"retrievers": retrievers}
                    t0 = time.perf_counter()
                    result = memory.recall(ns, text, **options)
                    elapsed = time.perf_counter() - t0
                    with lock:
                        latencies.append(elapsed)
                        seen = set(announced)
                    for hit in result.hits:
                        assert hit.memory.namespace == ns, hit.memory.namespace
                        assert hit.memory.content in seen, hit.memory.content
                    kind = "recall"
                with lock:
                    reads[kind] += 1
            except Exception as exc:
                fail(f"reader {r} op {i}", exc)
                return

    threads = [threading.Thread(target=writer, args=(w,), name=f"w{w}") for w in range(WRITERS)]
    threads += [threading.Thread(target=reader, args=(r,), name=f"r{r}") for r in range(READERS)]
    deadline = time.monotonic() + DURATION_S + 1.0  # +1 s for every thread to reach the barrier
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=DURATION_S + 300)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert errors == []

    # exact counts: every written fact is one memory, whole, n = 1
    stats = memory.stats(ns)
    expected = len(written)
    pairs = {
        (c["relations"][0]["source"], c["relations"][0]["target"])
        for s in sessions
        for c in _candidates(int(s[1 : s.index("-")]), int(s[s.index("-b") + 2 :]))
    }
    assert expected == BATCH * len(sessions) > 0
    assert stats["memories"] == stats["current"] == expected
    assert stats["sessions"] == len(sessions)
    assert stats["entities"] == len({p for pair in pairs for p in pair})
    assert stats["relations"] == len(pairs)
    stored = store.get_memories(ns, list(written), with_embeddings=True)
    assert {m.id: m.content for m in stored} == written
    assert all(m.n == 1 and len(m.observations) == 1 and m.embedding for m in stored)

    figures = {
        "store": store_kind,
        "writers": WRITERS,
        "readers": READERS,
        "duration_s": DURATION_S,
        "memories_written": expected,
        "write_batches": len(sessions),
        "reads": reads,
        "recall_p50_ms": round(1000 * _p(latencies, 0.50), 1) if latencies else None,
        "recall_p95_ms": round(1000 * _p(latencies, 0.95), 1) if latencies else None,
        "counts_checked": ["memories", "current", "sessions", "entities", "relations", "ids"],
    }
    (tmp_path / "load.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")
    record_figure(f"load.{store_kind}", figures)
    print(json.dumps(figures))
    assert reads["recall"] > 0
