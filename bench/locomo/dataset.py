"""LoCoMo's file format: conversations, sessions, observations, questions, evidence repair.

:func:`load_locomo` reads a file in LoCoMo's format (a JSON list of samples)
into :class:`Conversation` objects; evidence ids are repaired as
``data/README.md`` says (:func:`repair_evidence`) and what was repaired is
counted in each conversation's :class:`ImportReport`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidInputError

__all__ = [
    "Conversation",
    "ImportReport",
    "ObservationFact",
    "QAItem",
    "Session",
    "Turn",
    "load_locomo",
    "parse_session_time",
    "repair_evidence",
    "total_report",
]

_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_SESSION = re.compile(r"session_(\d+)")
_OBSERVATION = re.compile(r"session_(\d+)_observation")
_TIME_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y")


# ---------------------------------------------------------------- the data
@dataclass(frozen=True, slots=True)
class Turn:
    """One dialogue turn: ``dia_id`` ("D<session>:<n>"), its speaker, text, and the
    caption LoCoMo gives a shared image (``None`` without one)."""

    dia_id: str
    speaker: str
    text: str
    blip_caption: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
    """A numbered session with its date time (aware, UTC) and its turns in order."""

    number: int
    date_time: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True, slots=True)
class ObservationFact:
    """One LoCoMo ``observation``: a fact about a speaker with its evidence turns."""

    key: str
    fact: str
    speaker: str
    session: int
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QAItem:
    """A benchmark question: answer (or the adversarial one), gold evidence dia_ids and
    LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial)."""

    question: str
    answer: str | None
    adversarial_answer: str | None
    evidence: tuple[str, ...]
    category: int


@dataclass(slots=True)
class ImportReport:
    """What the loader repaired: evidence entries rewritten to valid dia_ids,
    ids dropped (unparseable or naming no turn), questions left with no evidence."""

    repaired: int = 0
    dropped: int = 0
    no_evidence: int = 0
    details: list[str] = field(default_factory=list)

    def add(self, other: ImportReport) -> None:
        """Add ``other``'s counts and details to this report (totals over conversations)."""
        self.repaired += other.repaired
        self.dropped += other.dropped
        self.no_evidence += other.no_evidence
        self.details.extend(other.details)

    def as_dict(self) -> dict[str, int]:
        """The three counts, as the bench's JSON reports them."""
        return {"repaired": self.repaired, "dropped": self.dropped, "no_evidence": self.no_evidence}


@dataclass(frozen=True, slots=True)
class Conversation:
    """One LoCoMo sample: its two speakers, sessions, observation facts and questions."""

    sample_id: str
    speakers: tuple[str, str]
    sessions: tuple[Session, ...]
    observations: tuple[ObservationFact, ...]
    qa: tuple[QAItem, ...]
    report: ImportReport

    @property
    def now(self) -> datetime:
        """ "Now" for ranking: the last session's date time (sessions with turns only)."""
        return self.sessions[-1].date_time


# ---------------------------------------------------------------- loading
def parse_session_time(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` → 2023-05-08 13:56 UTC (dateparser as fallback).

    Raises
    ------
    InvalidInputError
        When neither strptime nor dateparser reads it.
    """
    cleaned = " ".join(text.split())
    for fmt in _TIME_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    import dateparser

    parsed = dateparser.parse(
        cleaned.replace(" on ", " "), settings={"TIMEZONE": "UTC", "RETURN_AS_TIMEZONE_AWARE": True}
    )
    if parsed is None:
        raise InvalidInputError(
            f"cannot read session date time {text!r}", field="session_date_time"
        )
    return parsed.astimezone(UTC)


def repair_evidence(
    raw: Iterable[object], turn_ids: Collection[str]
) -> tuple[tuple[str, ...], int, int]:
    """Repair evidence ids per data/README.md: ``"D8:6; D9:17"`` → two ids,
    ``"D:11:26"`` → ``D11:26``, ``"D30:05"`` → ``D30:5``; ids naming no turn dropped.

    Returns
    -------
    (ids, repaired, dropped)
        The valid ids (order kept, duplicates removed), the number of entries
        rewritten into at least one valid id, and the number of ids dropped.
    """
    out: list[str] = []
    repaired = dropped = 0
    for entry in raw:
        text = str(entry).strip()
        found = [f"D{int(a)}:{int(b)}" for a, b in _EVIDENCE.findall(text)]
        if not found:
            dropped += 1
            continue
        kept = [ident for ident in found if ident in turn_ids]
        dropped += len(found) - len(kept)
        repaired += bool(kept) and (len(found) > 1 or found[0] != text)
        out.extend(kept)
    return tuple(dict.fromkeys(out)), repaired, dropped


def _parse_sample(sample: Mapping[str, Any]) -> Conversation:
    sid = str(sample["sample_id"])
    conv = sample["conversation"]
    sessions: list[Session] = []
    for key, value in conv.items():
        match = _SESSION.fullmatch(key)
        if match is None or not isinstance(value, list) or not value:
            continue
        stamp = conv.get(f"{key}_date_time")
        if not stamp:
            raise InvalidInputError("a session without a date time", field=f"{sid}.{key}_date_time")
        turns = tuple(
            Turn(str(t["dia_id"]), str(t["speaker"]), str(t["text"]), t.get("blip_caption") or None)
            for t in value
        )
        sessions.append(Session(int(match.group(1)), parse_session_time(str(stamp)), turns))
    if not sessions:
        raise InvalidInputError("a conversation with no sessions", field=f"{sid}.conversation")
    sessions.sort(key=lambda s: s.number)
    turn_ids = {t.dia_id for s in sessions for t in s.turns}
    report = ImportReport()

    def repaired(raw: Iterable[object], where: str) -> tuple[str, ...]:
        raw = list(raw)
        ids, fixed, dropped = repair_evidence(raw, turn_ids)
        if fixed or dropped:
            report.repaired += fixed
            report.dropped += dropped
            report.details.append(f"{sid} {where}: {raw} -> {list(ids)}")
        return ids

    known = {s.number for s in sessions}
    observations: list[ObservationFact] = []
    for key, per_speaker in (sample.get("observation") or {}).items():
        match = _OBSERVATION.fullmatch(key)
        if match is None or int(match.group(1)) not in known:
            continue
        number = int(match.group(1))
        for speaker, facts in per_speaker.items():
            for j, (fact, evidence) in enumerate(facts):
                ev = evidence if isinstance(evidence, list) else [evidence]
                obs_key = f"S{number}:{speaker}:{j}"
                ids = repaired(ev, f"observation {obs_key}")
                observations.append(ObservationFact(obs_key, str(fact), str(speaker), number, ids))
    observations.sort(key=lambda o: o.session)
    qa: list[QAItem] = []
    for i, item in enumerate(sample.get("qa") or []):
        ids = repaired(item.get("evidence") or [], f"qa[{i}]")
        report.no_evidence += not ids
        answer, adversarial = item.get("answer"), item.get("adversarial_answer")
        qa.append(
            QAItem(
                question=str(item["question"]),
                answer=None if answer is None else str(answer),
                adversarial_answer=None if adversarial is None else str(adversarial),
                evidence=ids,
                category=int(item["category"]),
            )
        )
    speakers = (str(conv["speaker_a"]), str(conv["speaker_b"]))
    return Conversation(sid, speakers, tuple(sessions), tuple(observations), tuple(qa), report)


def load_locomo(path: str | Path) -> list[Conversation]:
    """Read a file in LoCoMo's format (a JSON list of samples); see the module docstring.

    Raises
    ------
    InvalidInputError
        Naming the sample, when the file is not LoCoMo's format.
    """
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(raw, list):
        raise InvalidInputError("expected a JSON list of LoCoMo samples", field="locomo")
    out: list[Conversation] = []
    for i, sample in enumerate(raw):
        try:
            out.append(_parse_sample(sample))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, InvalidInputError):
                raise
            raise InvalidInputError(f"not LoCoMo's format: {exc!r}", field=f"samples[{i}]") from exc
    return out


def total_report(conversations: Iterable[Conversation]) -> ImportReport:
    """The repairs of several conversations, summed."""
    total = ImportReport()
    for conv in conversations:
        total.add(conv.report)
    return total
