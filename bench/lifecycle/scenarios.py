"""The lifecycle benchmark's people, statements and probes (docs/benchmarks.md "Memory over time").

``scenarios.json`` beside this module is the project's own data, generated
once by ``bench/make_lifecycle_scenarios.py`` (seeded; rerunning it rewrites
the file byte for byte) and read here into frozen dataclasses.

Each :class:`Person` has 3-6 sessions over about a year (timezone-aware),
12-25 :class:`Statement` s worded as an extractor would store them, each
tagged with its ``kind``:

    base         a fact stated for the first time
    update       the fact changed (``replaces`` names the statement made stale)
    negation     the fact no longer holds (``replaces`` as above)
    correction   a mistake fixed through ``GraphMem.correct`` (``replaces``)
    restatement  the same fact in other words (``restates``): must corroborate
    distractor   a similar fact about another person (a sibling, a coworker)

and 6-10 :class:`Probe` questions, each with the statements that answer it
now (two for a 2-hop question, all needed) and the stale ones that must not
outrank them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, Literal

Kind = Literal["base", "update", "negation", "correction", "restatement", "distractor"]
STALE_MAKERS: frozenset[str] = frozenset({"update", "negation", "correction"})

__all__ = ["STALE_MAKERS", "Kind", "Person", "Probe", "Session", "Statement", "load_people"]


@dataclass(frozen=True)
class Session:
    """One conversation with the person, at a timezone-aware time."""

    id: str
    at: datetime


@dataclass(frozen=True)
class Statement:
    """One claim as an extractor would store it.

    ``entities``: ``{"name", "kind", "role"}`` dicts (plain and triples mode);
    ``triple``: ``{"subject", "predicate", "object"}`` (triples mode only);
    ``question``: a question that targets this statement directly (for ``lost``).
    """

    id: str
    session: str
    kind: Kind
    slot: str
    about: str
    content: str
    type: str
    entities: tuple[dict[str, str], ...]
    triple: dict[str, str]
    event_time: datetime | None
    question: str
    replaces: str | None
    restates: str | None


@dataclass(frozen=True)
class Probe:
    """A question, the statements that answer it now, and the stale ones."""

    question: str
    answer: tuple[str, ...]
    stale: tuple[str, ...]
    hops: int


@dataclass(frozen=True)
class Person:
    """One person's timeline: sessions in order, statements, probes, everyday queries."""

    id: str
    name: str
    first_name: str
    timezone: str
    sessions: tuple[Session, ...]
    statements: tuple[Statement, ...]
    probes: tuple[Probe, ...]
    everyday: tuple[str, ...]

    def statement(self, statement_id: str) -> Statement:
        """The statement with this id (KeyError when there is none)."""
        for s in self.statements:
            if s.id == statement_id:
                return s
        raise KeyError(statement_id)

    def stale_ids(self) -> set[str]:
        """Statements some update, negation or correction made stale."""
        return {s.replaces for s in self.statements if s.kind in STALE_MAKERS and s.replaces}


def _person(raw: dict[str, Any]) -> Person:
    statements = tuple(
        Statement(
            id=s["id"],
            session=s["session"],
            kind=s["kind"],
            slot=s["slot"],
            about=s["about"],
            content=s["content"],
            type=s["type"],
            entities=tuple(s["entities"]),
            triple=dict(s["triple"]),
            event_time=datetime.fromisoformat(s["event_time"]) if s["event_time"] else None,
            question=s["question"],
            replaces=s["replaces"],
            restates=s["restates"],
        )
        for s in raw["statements"]
    )
    return Person(
        id=raw["id"],
        name=raw["name"],
        first_name=raw["first_name"],
        timezone=raw["timezone"],
        sessions=tuple(Session(s["id"], datetime.fromisoformat(s["at"])) for s in raw["sessions"]),
        statements=statements,
        probes=tuple(
            Probe(q["question"], tuple(q["answer"]), tuple(q["stale"]), int(q["hops"]))
            for q in raw["probes"]
        ),
        everyday=tuple(raw["everyday"]),
    )


def load_people(path: Path | None = None, *, limit: int | None = None) -> list[Person]:
    """The scenarios (the packaged ``scenarios.json`` unless ``path`` is given).

    ``limit``: only the first N people (CI and smoke runs).
    """
    if path is None:
        text = (
            resources.files("bench.lifecycle")
            .joinpath("scenarios.json")
            .read_text(encoding="utf-8")
        )
    else:
        text = path.read_text(encoding="utf-8")
    people = [_person(p) for p in json.loads(text)["people"]]
    return people[:limit]
