"""The user-path benchmark (docs/benchmarks.md "User path").

Hand-written people (FORMAT.md) are told to graphmem one statement at a time
through a door — the Python API or the MCP server over stdio with the official
client — in the user's own words (``plain``) or with their triple (``triples``),
each person in their own namespace with the namespace's user named. Then their
probes are asked in four phases:

- ``fresh``: an hour after the last session;
- ``after use``: after ``--uses`` everyday recalls per person (probe questions,
  seeded, access recording on), spread over the next 12 hours;
- ``consolidated +1d`` / ``+120d``: after ``consolidate`` one day / 120 days on.

Metrics per phase, shares in [0, 1] (docs/benchmarks.md):

- ``current@1`` / ``current@3``: 1-hop probes with an answering memory first / in the top 3;
- ``stale_outranks``: probes with stale statements where a stale memory ranks above
  every answering one (or comes back while none does);
- ``confuser_outranks``: the same for distractors about people close to the user;
- ``lost``: answering statements whose memory none of their probes returns in the top 10;
- ``All@5``: 2-hop probes with every answering memory in the top 5;
- ``stale_merged`` (counts, write time): updates, negations and corrections stored as the
  very memory of the statement they make stale; ``restatement_corroborated``: the share of
  restatements merged into the memory they restate.

    python -m bench.user_path.run --half tune --door api --mode plain
    python -m bench.user_path.run --half test --door mcp --store neo4j --neo4j-uri bolt://...
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

from bench.user_path.data import Person, Probe, load, load_file

PHASES = ("fresh", "after use", "consolidated +1d", "consolidated +120d")
STALE_MAKERS = {"update", "negation", "correction"}


class Door(Protocol):
    name: str

    def set_user(self, ns: str, name: str) -> None: ...
    def remember(self, ns: str, item: dict[str, Any], at: Any) -> str | None: ...
    def correct(self, ns: str, memory_id: str, text: str, at: Any) -> str: ...
    def recall(self, ns: str, question: str, at: Any, record: bool) -> list[str]: ...
    def consolidate_all(self, plan: list[tuple[str, Any]]) -> None: ...
    def close(self) -> None: ...


@dataclass
class Written:
    """One person's statements as stored: statement id → memory id."""

    person: Person
    ns: str
    ids: dict[str, str | None] = field(default_factory=dict)
    corrected_chain: list[str] = field(default_factory=list)


def _item(statement: Any, mode: str) -> dict[str, Any]:
    item: dict[str, Any] = {
        "content": statement.text,
        "type": statement.type,
        "session_id": statement.session,
        "event_time": statement.event_time,
    }
    if mode == "triples" and statement.triple:
        item.update(statement.triple)
    return item


def write_person(door: Door, person: Person, ns: str, mode: str) -> Written:
    """Tell the person's statements in order, one call each; corrections through
    ``correct`` on the memory the statement names (``correct_target`` first)."""
    door.set_user(ns, person.user)
    out = Written(person, ns)
    for statement in person.statements:
        at = person.sessions[statement.session]
        if statement.kind == "correction":
            target = statement.correct_target or statement.replaces
            memory_id = out.ids.get(target or "")
            if memory_id is not None:
                out.ids[statement.id] = door.correct(ns, memory_id, statement.text, at)
                continue
        out.ids[statement.id] = door.remember(ns, _item(statement, mode), at)
    return out


def _memories(written: Written, statements: Sequence[str]) -> set[str]:
    return {m for s in statements if (m := written.ids.get(s)) is not None}


@dataclass
class Tally:
    """Per-phase counts."""

    first: int = 0
    top3: int = 0
    one_hop: int = 0
    stale_probes: int = 0
    stale_out: int = 0
    confuser_probes: int = 0
    confuser_out: int = 0
    two_hop: int = 0
    all5: int = 0
    answers: dict[tuple[str, str], bool] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)

    def score(self, written: Written, probe: Probe, ranked: list[str]) -> None:
        answer = _memories(written, probe.answer)
        stale = _memories(written, probe.stale) - answer
        confusers = _memories(written, probe.confusers) - answer
        rank = {m: i for i, m in enumerate(ranked)}
        best = min((rank[m] for m in answer if m in rank), default=None)
        for statement in probe.answer:
            memory = written.ids.get(statement)
            key = (written.ns, statement)
            self.answers[key] = self.answers.get(key, False) or (memory in rank)
        if probe.hops == 2:
            self.two_hop += 1
            self.all5 += all(rank.get(m, 99) < 5 for m in answer)
            return
        self.one_hop += 1
        self.first += best == 0
        self.top3 += best is not None and best < 3
        outranked = False
        if stale:
            self.stale_probes += 1
            hit = any(rank.get(m, 99) < (best if best is not None else 99) for m in stale)
            self.stale_out += hit
            outranked |= hit
        if confusers:
            self.confuser_probes += 1
            hit = any(rank.get(m, 99) < (best if best is not None else 99) for m in confusers)
            self.confuser_out += hit
            outranked |= hit
        if best != 0 or outranked:
            said = {}
            for st in written.person.statements:
                if (m := written.ids.get(st.id)) is not None:
                    said.setdefault(m, f"{st.id} {st.kind}: {st.text}")
            self.failures.append(
                {"ns": written.ns, "question": probe.question, "answer": probe.answer,
                 "best_rank": best, "top": [said.get(m, m) for m in ranked[:3]]}
            )  # fmt: skip

    def metrics(self) -> dict[str, float | None]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        lost = sum(not found for found in self.answers.values())
        return {
            "current@1": share(self.first, self.one_hop),
            "current@3": share(self.top3, self.one_hop),
            "stale_outranks": share(self.stale_out, self.stale_probes),
            "confuser_outranks": share(self.confuser_out, self.confuser_probes),
            "lost": share(lost, len(self.answers)),
            "All@5": share(self.all5, self.two_hop),
            "probes": self.one_hop + self.two_hop,
        }


def write_metrics(all_written: list[Written]) -> dict[str, Any]:
    merged_stale = 0
    restated = corroborated = 0
    for w in all_written:
        for s in w.person.statements:
            mine = w.ids.get(s.id)
            if s.kind in STALE_MAKERS and s.replaces and mine is not None:
                merged_stale += mine == w.ids.get(s.replaces)
            if s.kind == "restatement" and s.restates:
                restated += 1
                corroborated += mine is not None and mine == w.ids.get(s.restates)
    return {
        "stale_merged": merged_stale,
        "restatement_corroborated": round(corroborated / restated, 4) if restated else None,
    }


def ask_all(door: Door, written: list[Written], when: dict[str, Any], tally: Tally) -> None:
    for w in written:
        for probe in w.person.probes:
            tally.score(w, probe, door.recall(w.ns, probe.question, when[w.ns], False))


def run(door: Door, people: list[Person], mode: str, uses: int, prefix: str) -> dict[str, Any]:
    started = time.perf_counter()
    written = [write_person(door, p, f"{prefix}-{p.id}", mode) for p in people]
    results: dict[str, Any] = {"write": write_metrics(written)}
    last = {w.ns: w.person.last for w in written}
    tally = Tally()
    ask_all(door, written, {ns: t + timedelta(hours=1) for ns, t in last.items()}, tally)
    results["fresh"] = tally
    rng = random.Random(7)
    for w in written:
        questions = [p.question for p in w.person.probes]
        for i in range(uses):
            at = last[w.ns] + timedelta(hours=1, minutes=i * 720 // max(uses, 1))
            door.recall(w.ns, rng.choice(questions), at, True)
    tally = Tally()
    ask_all(door, written, {ns: t + timedelta(hours=13) for ns, t in last.items()}, tally)
    results["after use"] = tally
    for phase, days in (("consolidated +1d", 1), ("consolidated +120d", 120)):
        door.consolidate_all([(w.ns, last[w.ns] + timedelta(days=days)) for w in written])
        tally = Tally()
        ask_all(door, written, {ns: t + timedelta(days=days, hours=1) for ns, t in last.items()}, tally)
        results[phase] = tally
    results["seconds"] = round(time.perf_counter() - started, 1)
    return results


def _door(name: str, data_dir: Path, neo4j_uri: str | None) -> Door:
    from bench.user_path.doors import ApiDoor, McpDoor

    return ApiDoor(data_dir, neo4j_uri) if name == "api" else McpDoor(data_dir, neo4j_uri)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "test"), required=True)
    parser.add_argument("--door", choices=("api", "mcp"), default="api")
    parser.add_argument("--mode", choices=("plain", "triples"), default="plain")
    parser.add_argument("--store", choices=("embedded", "neo4j"), default="embedded")
    parser.add_argument("--neo4j-uri", default=None)
    parser.add_argument("--uses", type=int, default=200, help="everyday recalls per person")
    parser.add_argument("--people", type=int, default=0, help="only the first N people")
    parser.add_argument(
        "--file",
        type=Path,
        action="append",
        default=None,
        help="read the people of these files instead of the half's (repeatable; --half still"
        " names the namespaces)",
    )
    parser.add_argument("--json-out", type=Path, default=None)
    parser.add_argument("--failures", action="store_true", help="print the failed probes")
    args = parser.parse_args(argv)
    if args.store == "neo4j" and not args.neo4j_uri:
        parser.error("--store neo4j needs --neo4j-uri")
    loaded = [p for f in args.file for p in load_file(f)] if args.file else load(args.half)
    people = loaded[: args.people or None]
    with tempfile.TemporaryDirectory(prefix="graphmem-user-path-") as tmp:
        uri = args.neo4j_uri if args.store == "neo4j" else None
        prefix = f"up-{args.half}-{args.door}-{args.mode}"
        if uri is not None:  # a shared server may hold an earlier run's namespaces
            _clear(Path(tmp), uri, [f"{prefix}-{p.id}" for p in people])
        door = _door(args.door, Path(tmp), uri)
        try:
            results = run(door, people, args.mode, args.uses, prefix)
        finally:
            door.close()
    config = {k: str(v) for k, v in vars(args).items() if k not in ("json_out", "failures")}
    report: dict[str, Any] = {"config": config, "people": len(people), **results}
    print(json.dumps(config))
    print(f"{'phase':20} " + " ".join(f"{k:>17}" for k in Tally().metrics()))
    for phase in PHASES:
        metrics = results[phase].metrics()
        print(f"{phase:20} " + " ".join(f"{v if v is not None else '-':>17}" for v in metrics.values()))
        report[phase] = {**metrics, "failures": results[phase].failures}
        if args.failures and phase == "fresh":
            for f in results[phase].failures:
                print("  FAIL", json.dumps(f))
    print("write:", json.dumps(results["write"]), f"({results['seconds']} s)")
    if args.json_out:
        args.json_out.write_text(json.dumps(report, indent=1, default=str))
    return 0


def _clear(data_dir: Path, uri: str, namespaces: list[str]) -> None:
    """Delete this run's namespaces from the server before writing: an earlier run
    (or one cut short) left its memories there, and the people would be told twice."""
    from bench.user_path.doors import settings_for
    from graphmem import GraphMem

    with GraphMem(settings_for(data_dir, uri)) as memory:
        for namespace in set(namespaces) & set(memory.namespaces()):
            memory.delete_namespace(namespace)


if __name__ == "__main__":
    sys.exit(main())
