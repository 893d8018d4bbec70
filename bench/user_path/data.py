"""The user-path scenarios (FORMAT.md beside this file): hand-written people, split
into a *tune* half (rules may be studied on it) and a *test* half (written by a
helper who had not read the ranking code; run only to report)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
HALVES = ("tune", "test")


@dataclass(frozen=True)
class Statement:
    id: str
    session: str
    kind: str
    text: str
    type: str
    triple: dict[str, str]
    replaces: str | None
    restates: str | None
    correct_target: str | None
    event_time: datetime | None


@dataclass(frozen=True)
class Probe:
    question: str
    answer: tuple[str, ...]
    stale: tuple[str, ...]
    confusers: tuple[str, ...]
    hops: int


@dataclass(frozen=True)
class Person:
    id: str
    user: str
    voice: str
    sessions: dict[str, datetime]
    statements: tuple[Statement, ...]
    probes: tuple[Probe, ...]

    @property
    def last(self) -> datetime:
        return max(self.sessions.values())


def _statement(raw: dict[str, Any]) -> Statement:
    when = raw.get("event_time")
    return Statement(
        id=raw["id"],
        session=raw["session"],
        kind=raw["kind"],
        text=raw["text"],
        type=raw.get("type") or "Fact",
        triple=dict(raw.get("triple") or {}),
        replaces=raw.get("replaces"),
        restates=raw.get("restates"),
        correct_target=raw.get("correct_target"),
        event_time=datetime.fromisoformat(when) if when else None,
    )


def _person(raw: dict[str, Any]) -> Person:
    return Person(
        id=raw["id"],
        user=raw["user"],
        voice=raw["voice"],
        sessions={s["id"]: datetime.fromisoformat(s["at"]) for s in raw["sessions"]},
        statements=tuple(_statement(s) for s in raw["statements"]),
        probes=tuple(
            Probe(
                question=p["question"],
                answer=tuple(p.get("answer", ())),
                stale=tuple(p.get("stale", ())),
                confusers=tuple(p.get("confusers", ())),
                hops=int(p.get("hops", 1)),
            )
            for p in raw["probes"]
        ),
    )


def load_file(path: Path) -> list[Person]:
    """Every person of one scenario file."""
    return [_person(p) for p in json.loads(path.read_text("utf-8"))["people"]]


def load(half: str, folder: Path = HERE) -> list[Person]:
    """Every person of ``half`` ("tune" or "test"), from ``people_<half>*.json``."""
    if half not in HALVES:
        raise ValueError(f"half must be one of {HALVES}, not {half!r}")
    files = sorted(folder.glob(f"people_{half}*.json"))
    if not files:
        raise FileNotFoundError(f"no people_{half}*.json in {folder}")
    people: list[Person] = []
    for path in files:
        people.extend(load_file(path))
    return people
