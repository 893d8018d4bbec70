"""Run the lifecycle benchmark (docs/benchmarks.md "Memory over time") on one facade.

Per person, in its own namespace ``lifecycle-<mode>-<person id>``:

1. **ingest** session by session, the clock at the session's time: one
   ``remember`` per session (every statement but the corrections), then each
   correction through ``GraphMem.correct`` on the memory of the statement it
   fixes (a correction ``correct`` refuses as "the same content" counts as
   merged into the stale memory);
2. **fresh**: every probe and every current statement's direct question,
   asked with access recording off, an hour after the last session;
3. **after use**: ``uses`` everyday recalls (seeded choice among the person's
   everyday queries and direct questions, access recording on, the default),
   spread over the 12 hours after the last session; then asked again (off);
4. **consolidated +1d** and **consolidated +120d**: ``consolidate`` one day and
   120 days after the last session, each followed by the questions (off).

Metrics per phase (shares in [0, 1]; ``None`` when nothing is counted):

- ``current@1`` / ``current@3``: 1-hop probes whose current memory is at rank 1 / in the top 3;
- ``stale_outranks``: probes with a stale statement where a stale memory ranks
  above the current one, or comes back (top k = 10) without it;
- ``stale_merged``: updates, negations and corrections whose memory is the
  memory of the statement they make stale (the same in every phase);
- ``lost``: current facts whose memory is not in the top 3 for their direct question;
- ``All@5``: 2-hop probes with every answering memory in the top 5;
- ``distractor_outranks``: 1-hop probes where a distractor about another
  person in the same slot ranks above the current memory (reported, no target).

A memory counts as *current* for a statement when it is the memory of that
statement or of one restating it (or restated by it), and not also the memory
of a stale statement (an update merged into the fact it replaces leaves the
old text: the current fact is then not found).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from bench.lifecycle.scenarios import STALE_MAKERS, Person, Statement
from graphmem.errors import InvalidMemoryError
from graphmem.memory import GraphMem

Mode = Literal["plain", "triples"]
MODES: tuple[Mode, ...] = ("plain", "triples")
PHASES = ("fresh", "after use", "consolidated +1d", "consolidated +120d")
EXTRACTOR = "gpt-4o-mini"  # as if a good extractor wrote the candidates (SPEC §2.2 table)
K = 10
Progress = Callable[[str, int, int], None]

__all__ = ["MODES", "PHASES", "SettableClock", "namespace_for", "run_lifecycle"]


class SettableClock:
    """The facade's clock, set by the bench to each session's and phase's time."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def namespace_for(mode: Mode, person: Person) -> str:
    """The person's namespace in one mode."""
    return f"lifecycle-{mode}-{person.id}"


def candidate(statement: Statement, mode: Mode, session_id: str, at: datetime) -> dict[str, Any]:
    """The memory candidate of a statement: entities always, the triple in triples mode."""
    out: dict[str, Any] = {
        "content": statement.content,
        "type": statement.type,
        "source_level": "direct",
        "extractor": EXTRACTOR,
        "entities": [dict(e) for e in statement.entities],
        "session_id": session_id,
        "observed_at": at,
    }
    if statement.event_time is not None:
        out["event_time"] = statement.event_time
    if mode == "triples":
        out.update(statement.triple)
    return out


@dataclass
class _Counts:
    """Numerators and denominators of one phase's metrics."""

    n: dict[str, int] = field(default_factory=dict)
    d: dict[str, int] = field(default_factory=dict)

    def add(self, metric: str, hit: bool) -> None:
        self.n[metric] = self.n.get(metric, 0) + int(hit)
        self.d[metric] = self.d.get(metric, 0) + 1

    def merge(self, other: _Counts) -> None:
        for key, value in other.d.items():
            self.d[key] = self.d.get(key, 0) + value
            self.n[key] = self.n.get(key, 0) + other.n.get(key, 0)

    def shares(self) -> dict[str, Any]:
        names = ("current@1", "current@3", "stale_outranks", "stale_merged", "lost", "All@5")
        out: dict[str, Any] = {
            m: (round(self.n[m] / self.d[m], 4) if self.d.get(m) else None)
            for m in (*names, "distractor_outranks")
        }
        out["counts"] = {m: [self.n.get(m, 0), self.d.get(m, 0)] for m in sorted(self.d)}
        return out


class PersonRun:
    """One person's namespace: ingest, then the questions of each phase."""

    def __init__(self, memory: GraphMem, clock: SettableClock, person: Person, mode: Mode) -> None:
        self.memory = memory
        self.clock = clock
        self.person = person
        self.mode = mode
        self.ns = namespace_for(mode, person)
        self.memory_of: dict[str, str | None] = {}
        self.ingest = {"created": 0, "merged": 0, "superseded": 0, "rejected": 0}

    # ------------------------------------------------------------ ingest
    def run_ingest(self) -> None:
        person = self.person
        self.memory.delete_namespace(self.ns)
        for session in person.sessions:
            self.clock.now = session.at
            said = [s for s in person.statements if s.session == session.id]
            plain = [s for s in said if s.kind != "correction"]
            if plain:
                report = self.memory.remember(
                    self.ns, [candidate(s, self.mode, session.id, session.at) for s in plain]
                )
                for s, mid in zip(plain, report.memory_ids, strict=True):
                    self.memory_of[s.id] = mid
                for key in self.ingest:
                    self.ingest[key] += len(getattr(report, key))
            for s in said:
                if s.kind == "correction" and s.replaces is not None:
                    self.memory_of[s.id] = self._correct(s.replaces, s.content, session.id)

    def _correct(self, replaces: str, content: str, session_id: str) -> str | None:
        target = self.memory_of.get(replaces)
        if target is None:
            return None
        try:
            _, new = self.memory.correct(self.ns, target, content, session_id=session_id)
        except InvalidMemoryError:  # "the correction has the same content": merged
            return target
        return new.id

    # ------------------------------------------------------------ facts
    def _fact_of(self, statement_id: str) -> set[str]:
        """The statement and those restating it (or it restates), transitively."""
        group = {statement_id}
        changed = True
        while changed:
            changed = False
            for s in self.person.statements:
                if s.restates and (s.id in group) != (s.restates in group):
                    group.update((s.id, s.restates))
                    changed = True
        return group

    def stale_memories(self) -> set[str]:
        return {m for sid in self.person.stale_ids() if (m := self.memory_of.get(sid))}

    def current_memories(self, statement_id: str) -> set[str]:
        ids = {self.memory_of.get(s) for s in self._fact_of(statement_id)}
        return {m for m in ids if m} - self.stale_memories()

    def ingest_counts(self) -> _Counts:
        counts = _Counts()
        for s in self.person.statements:
            if s.kind in STALE_MAKERS and s.replaces:
                mine, old = self.memory_of.get(s.id), self.memory_of.get(s.replaces)
                counts.add("stale_merged", mine is not None and mine == old)
            if s.kind == "restatement" and s.restates:
                mine, old = self.memory_of.get(s.id), self.memory_of.get(s.restates)
                counts.add("restatement_corroborated", mine is not None and mine == old)
        return counts

    # ------------------------------------------------------------ questions
    def questions(self) -> list[str]:
        asked = [q.question for q in self.person.probes]
        asked += [s.question for s in self.direct_facts()]
        return list(dict.fromkeys(asked))

    def direct_facts(self) -> list[Statement]:
        """One statement per current fact (restatements fold into what they restate)."""
        stale = self.person.stale_ids()
        return [s for s in self.person.statements if s.id not in stale and s.kind != "restatement"]

    def ask(self, question: str, *, record: bool) -> list[str]:
        result = self.memory.recall(self.ns, question, k=K, record_access=record)
        return [h.memory.id for h in result.hits]

    def score(self, phase: str, failures: list[dict[str, Any]]) -> _Counts:
        counts = _Counts()
        answers = {q: self.ask(q, record=False) for q in self.questions()}
        stale_all = self.stale_memories()
        for probe in self.person.probes:
            ranking = answers[probe.question]
            position = {m: i for i, m in enumerate(ranking)}
            if probe.hops > 1:
                needed = [self.current_memories(a) for a in probe.answer]
                found = all(any(position.get(m, K) < 5 for m in ms) for ms in needed)
                counts.add("All@5", found)
                continue
            current = self.current_memories(probe.answer[0])
            r_cur = min((position[m] for m in current if m in position), default=None)
            counts.add("current@1", r_cur == 0)
            counts.add("current@3", r_cur is not None and r_cur < 3)
            if probe.stale:
                stale = {m for s in probe.stale if (m := self.memory_of.get(s))} - current
                r_stale = min((position[m] for m in stale if m in position), default=None)
                outranks = r_stale is not None and (r_cur is None or r_stale < r_cur)
                counts.add("stale_outranks", outranks)
            slot = self.person.statement(probe.answer[0]).slot
            distractors = {
                m
                for s in self.person.statements
                if s.kind == "distractor" and s.slot == slot
                if (m := self.memory_of.get(s.id))
            } - current
            if distractors:
                r_d = min((position[m] for m in distractors if m in position), default=None)
                counts.add(
                    "distractor_outranks",
                    r_d is not None and (r_cur is None or r_d < r_cur),
                )
            if r_cur is None or r_cur > 0:
                failures.append(self._failure(phase, probe.question, ranking, current, stale_all))
        for s in self.direct_facts():
            current = self.current_memories(s.id)
            top = answers[s.question][:3]
            lost = not any(m in current for m in top)
            counts.add("lost", lost)
            if lost:
                failures.append(
                    self._failure(phase, s.question, answers[s.question], current, stale_all)
                    | {"lost": s.content}
                )
        return counts

    def _failure(
        self, phase: str, question: str, ranking: list[str], current: set[str], stale: set[str]
    ) -> dict[str, Any]:
        text = {m.id: m.content for m in self.memory.store.get_memories(self.ns, ranking[:3])}
        return {
            "person": self.person.id,
            "phase": phase,
            "question": question,
            "top3": [
                ("current " if m in current else "stale " if m in stale else "") + text.get(m, m)
                for m in ranking[:3]
            ],
        }

    # ------------------------------------------------------------ use
    def use(self, uses: int, seed: int, start: datetime) -> None:
        rng = random.Random(f"{seed}:{self.person.id}")
        pool = list(self.person.everyday) + [s.question for s in self.direct_facts()]
        step = timedelta(hours=12) / max(1, uses)
        for i in range(uses):
            self.clock.now = start + step * (i + 1)
            self.ask(rng.choice(pool), record=True)


def run_lifecycle(
    memory: GraphMem,
    clock: SettableClock,
    people: Iterable[Person],
    mode: Mode,
    *,
    uses: int = 200,
    seed: int = 0,
    progress: Progress | None = None,
    keep: bool = False,
) -> dict[str, Any]:
    """Run the benchmark for one mode; see the module docstring.

    Parameters
    ----------
    memory : GraphMem
        A facade built with ``clock=clock`` (the bench moves time).
    people : iterable of Person
        From :func:`~bench.lifecycle.scenarios.load_people`.
    uses : int
        Everyday recalls per person in the "after use" phase, ``>= 0``.
    keep : bool
        Leave the namespaces in the store (default: deleted at the end).

    Returns
    -------
    dict
        ``{"mode", "people", "statements", "probes", "ingest": {...},
        "phases": {phase: {metric: share | None, "counts": {...}}},
        "failures": [{"person", "phase", "question", "top3"}, ...]}``.
    """
    people = list(people)
    report = _Counts()
    phases = {phase: _Counts() for phase in PHASES}
    failures: list[dict[str, Any]] = []
    ingest = {"created": 0, "merged": 0, "superseded": 0, "rejected": 0}
    tick = progress or (lambda _phase, _n, _total: None)
    for person in people:
        run = PersonRun(memory, clock, person, mode)
        run.run_ingest()
        for key, value in run.ingest.items():
            ingest[key] += value
        merged = run.ingest_counts()
        report.merge(merged)
        last = person.sessions[-1].at
        clock.now = last + timedelta(hours=1)
        phases["fresh"].merge(run.score("fresh", failures))
        run.use(uses, seed, clock.now)
        clock.now = last + timedelta(hours=13)
        phases["after use"].merge(run.score("after use", failures))
        for phase, days in (("consolidated +1d", 1), ("consolidated +120d", 120)):
            clock.now = last + timedelta(days=days)
            memory.consolidate(run.ns, now=clock.now)
            phases[phase].merge(run.score(phase, failures))
        for counts in phases.values():
            counts.merge(merged)
        if not keep:
            memory.delete_namespace(run.ns)
        tick(f"lifecycle {mode}", 1, len(people))
    shares = report.shares()
    return {
        "mode": mode,
        "people": len(people),
        "statements": sum(len(p.statements) for p in people),
        "probes": sum(len(p.probes) for p in people),
        "uses_per_person": uses,
        "ingest": ingest
        | {
            "stale_merged": shares["stale_merged"],
            "restatements_corroborated": (
                round(
                    report.n["restatement_corroborated"] / report.d["restatement_corroborated"], 4
                )
                if report.d.get("restatement_corroborated")
                else None
            ),
        },
        "phases": {phase: counts.shares() for phase, counts in phases.items()},
        "failures": failures,
    }
