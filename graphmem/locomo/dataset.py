"""LoCoMo: load the benchmark, import it as memories, score recall (BENCHMARKS.md §1).

The protocol, in short: one namespace per conversation and corpus; two
corpora — **turns** (every dialog turn a verbatim memory) and
**observations** (every gpt-3.5-turbo observation a strong-inference
memory); "now" is the conversation's last session; categories 1–4 are the
headline, category 5 (adversarial) is reported apart.

Units and gold. A *unit* is what the benchmark's gold names: a dia_id
("D3:7") on the turns corpus, an observation key ("S3:Caroline:2") on the
observations corpus. Dedup may merge several candidates into one memory; that
memory stands for all their units, in the order they were imported. Gold for a
question is its repaired evidence (turns) or the observations whose evidence
overlaps it (observations; questions with none are not scored).

Metrics (:func:`score_ranking`), per question, over the top 10 memories:
``R@5`` / ``R@10`` the fraction of gold units that the first 5 / 10 memories
stand for; ``MRR`` 1 / rank of the first memory standing for a gold unit;
``All@10`` 1 when every gold unit is in the top 10; ``nDCG@10`` with binary
gains over the *unit ranking*: the top 10 memories expanded into their units
in order, duplicates dropped, position ``p`` discounted by ``1/log2(p + 1)``;
the ideal ranking puts ``min(|gold|, max(10, len(unit ranking)))`` gold units
first. Without merges this is the usual nDCG@10.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import numpy as np

from graphmem.errors import InvalidInputError
from graphmem.memory import GraphMem
from graphmem.models import RecallQuery
from graphmem.settings import RETRIEVERS
from graphmem.store._bm25 import okapi_baseline_scores
from graphmem.store.base import Vector

__all__ = [
    "CATEGORIES",
    "Conversation",
    "ImportReport",
    "import_conversation",
    "load_locomo",
    "observation_candidates",
    "repair_evidence",
    "run_bench",
    "score_ranking",
    "turn_candidates",
]

Corpus = Literal["turns", "observations"]
CORPORA: tuple[Corpus, ...] = ("turns", "observations")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
HEADLINE = (1, 2, 3, 4)
METRICS = ("R@5", "R@10", "nDCG@10", "MRR", "All@10")
BASELINE_RRF_K = 60
Progress = Callable[[str, int, int], None]  # (phase, advance, phase total)

_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_SESSION = re.compile(r"session_(\d+)")
_OBSERVATION = re.compile(r"session_(\d+)_observation")
_TIME_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y")
_WORD = re.compile(r"\w+")


# ---------------------------------------------------------------- the data
@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    blip_caption: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
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
        self.repaired += other.repaired
        self.dropped += other.dropped
        self.no_evidence += other.no_evidence
        self.details.extend(other.details)

    def as_dict(self) -> dict[str, int]:
        return {"repaired": self.repaired, "dropped": self.dropped, "no_evidence": self.no_evidence}


@dataclass(frozen=True, slots=True)
class Conversation:
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


# ---------------------------------------------------------------- candidates
def _candidate(
    content: str, speaker: str, session: Session, turn_id: str | None, *, turn: bool
) -> dict[str, Any]:
    return {
        "content": content,
        "type": "Fact",
        "source_level": "direct" if turn else "strong_inference",
        "extractor": "verbatim" if turn else "gpt-3.5-turbo",
        "entities": [{"name": speaker, "kind": "Person", "role": "subject"}],
        "session_id": f"session_{session.number}",
        "turn_id": turn_id,
        "observed_at": session.date_time,
    }


def _units(conv: Conversation, corpus: Corpus) -> list[tuple[dict[str, Any], str]]:
    """(candidate, the unit it stands for), in import order."""
    out: list[tuple[dict[str, Any], str]] = []
    if corpus == "turns":
        for s in conv.sessions:
            for t in s.turns:
                content = f"{t.speaker}: {t.text}"
                if t.blip_caption:
                    content += f" [shared image: {t.blip_caption}]"
                out.append((_candidate(content, t.speaker, s, t.dia_id, turn=True), t.dia_id))
        return out
    by_number = {s.number: s for s in conv.sessions}
    for o in conv.observations:
        first = o.evidence[0] if o.evidence else None
        out.append((_candidate(o.fact, o.speaker, by_number[o.session], first, turn=False), o.key))
    return out


def turn_candidates(conv: Conversation) -> list[dict[str, Any]]:
    """MemoryCandidate dicts for every turn (BENCHMARKS.md §1 "turns")."""
    return [c for c, _ in _units(conv, "turns")]


def observation_candidates(conv: Conversation) -> list[dict[str, Any]]:
    """MemoryCandidate dicts for every observation (BENCHMARKS.md §1 "observations");
    ``turn_id`` is the first evidence id, the full evidence stays with the bench."""
    return [c for c, _ in _units(conv, "observations")]


def namespace_for(conv: Conversation, corpus: str) -> str:
    return f"locomo-{conv.sample_id}-{corpus}"


def import_conversation(
    memory: GraphMem,
    conv: Conversation,
    corpus: Corpus,
    *,
    batch_size: int = 256,
    progress: Callable[[int], None] | None = None,
    replace: bool = True,
) -> tuple[str, dict[str, tuple[str, ...]], int]:
    """Remember a conversation's corpus in its own namespace (emptied first when ``replace``).

    Returns
    -------
    (namespace, stands_for, merged)
        ``stands_for`` maps memory id → the units it stands for, in import order
        (a tuple, so nDCG is deterministic); ``merged`` counts memories that
        stand for more than one unit.
    """
    namespace = namespace_for(conv, corpus)
    if replace:
        memory.delete_namespace(namespace)
    pairs = _units(conv, corpus)
    stands_for: dict[str, dict[str, None]] = {}
    for start in range(0, len(pairs), batch_size):
        chunk = pairs[start : start + batch_size]
        written = memory.remember(namespace, [c for c, _ in chunk])
        for (_, unit), mid in zip(chunk, written.memory_ids, strict=True):
            if mid is not None:
                stands_for.setdefault(mid, {})[unit] = None
        if progress is not None:
            progress(len(chunk))
    out = {mid: tuple(units) for mid, units in stands_for.items()}
    return namespace, out, sum(len(units) > 1 for units in out.values())


def gold_units(conv: Conversation, qa: QAItem, corpus: Corpus) -> set[str]:
    """The units a question's answer is in (see the module docstring)."""
    if corpus == "turns":
        return set(qa.evidence)
    evidence = set(qa.evidence)
    return {o.key for o in conv.observations if evidence.intersection(o.evidence)}


# ---------------------------------------------------------------- metrics
def score_ranking(retrieved: Sequence[Sequence[str]], gold: Collection[str]) -> dict[str, float]:
    """R@5, R@10, nDCG@10, MRR, All@10 of one ranking (module docstring).

    Parameters
    ----------
    retrieved : sequence of sequence of str
        For each retrieved memory, best first, the units it stands for in
        import order; only the first 10 memories count.
    gold : collection of str
        The gold units, non-empty.

    Raises
    ------
    ValueError
        If ``gold`` is empty.

    Examples
    --------
    >>> score_ranking([["x"], ["a", "b"]], {"a", "b"})["MRR"]
    0.5
    """
    target = set(gold)
    if not target:
        raise ValueError("gold must not be empty")
    top = [tuple(units) for units in retrieved[:10]]

    def recall(n: int) -> float:
        return len(target.intersection(u for units in top[:n] for u in units)) / len(target)

    first = next((i for i, units in enumerate(top) if target.intersection(units)), None)
    ranking = list(dict.fromkeys(u for units in top for u in units))
    dcg = sum(1.0 / math.log2(p + 2) for p, u in enumerate(ranking) if u in target)
    ideal = sum(1.0 / math.log2(p + 2) for p in range(min(len(target), max(10, len(ranking)))))
    r10 = recall(10)
    return {
        "R@5": recall(5),
        "R@10": r10,
        "nDCG@10": dcg / ideal,
        "MRR": 0.0 if first is None else 1.0 / (first + 1),
        "All@10": 1.0 if r10 == 1.0 else 0.0,
    }


Row = tuple[int, dict[str, float]]  # (category, scores)


def summarize(rows: Sequence[Row], categories: Collection[int]) -> dict[str, Any]:
    """Mean of each metric over the rows in ``categories``; ``None`` when there are none."""
    chosen = [scores for category, scores in rows if category in categories]
    out: dict[str, Any] = {"questions": len(chosen)}
    for name in METRICS:
        out[name] = sum(s[name] for s in chosen) / len(chosen) if chosen else None
    return out


def _with_categories(rows: Sequence[Row]) -> dict[str, Any]:
    out = summarize(rows, HEADLINE)
    out["by_category"] = {str(c): summarize(rows, (c,)) for c in CATEGORIES}
    return out


# ---------------------------------------------------------------- baselines
def baseline_tokens(text: str) -> list[str]:
    """The baselines' tokeniser: lower-cased ``\\w+`` (BENCHMARKS.md §1)."""
    return _WORD.findall(text.lower())


def _rrf(*rankings: Sequence[int], k: int = BASELINE_RRF_K) -> list[int]:
    scores: dict[int, float] = defaultdict(float)
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] += 1.0 / (k + rank)
    return sorted(scores, key=lambda d: (-scores[d], d))


def baseline_rankings(
    contents: Sequence[str], doc_vectors: Vector, questions: Sequence[str], query_vectors: Vector
) -> dict[str, list[list[int]]]:
    """Per question, document indexes best first for stock BM25Okapi (documents
    with a positive score), all-MiniLM cosine (all documents) and unweighted RRF
    (k = 60) of the two. Ties go to the lower index."""
    bm25 = okapi_baseline_scores(
        [baseline_tokens(c) for c in contents], [baseline_tokens(q) for q in questions]
    )
    cosine = (
        np.asarray(query_vectors, dtype=np.float64) @ np.asarray(doc_vectors, dtype=np.float64).T
    )
    out: dict[str, list[list[int]]] = {"bm25": [], "dense": [], "rrf": []}
    for row in range(len(questions)):
        lexical = [int(d) for d in np.argsort(-bm25[row], kind="stable") if bm25[row, d] > 0]
        dense = [int(d) for d in np.argsort(-cosine[row], kind="stable")]
        out["bm25"].append(lexical)
        out["dense"].append(dense)
        out["rrf"].append(_rrf(lexical, dense))
    return out


# ---------------------------------------------------------------- the bench
def run_bench(
    memory: GraphMem,
    conversations: Sequence[Conversation],
    corpus: Corpus,
    *,
    k: int = 10,
    retrievers: Sequence[str] = RETRIEVERS,
    progress: Progress | None = None,
    baseline: bool = False,
    batch_size: int = 256,
) -> dict[str, Any]:
    """Import ``conversations`` (each into a fresh namespace) and score recall.

    Every question is asked of the full pipeline and of each retriever alone
    (``retrievers=(name,)``), with ``k``, ``reference_time`` = the
    conversation's last session and ``record_access=False`` (the bench changes
    nothing it reads). With ``baseline``, BENCHMARKS.md's baselines are scored
    on the same memories. Returns the report described in the module docstring
    of :mod:`graphmem.cli.locomo_cmds`.

    Raises
    ------
    InvalidInputError
        For an unknown corpus or ``k < 10``.
    """
    if corpus not in CORPORA:
        raise InvalidInputError(f"corpus must be one of {CORPORA}, got {corpus!r}", field="corpus")
    if k < 10:
        raise InvalidInputError("k must be >= 10 (metrics are at 5 and 10)", field="k")

    def tick(phase: str, total: int) -> Callable[[int], None]:
        return lambda n: progress(phase, n, total) if progress is not None else None

    started = time.perf_counter()
    n_units = sum(len(_units(c, corpus)) for c in conversations)
    imported = [
        import_conversation(
            memory, c, corpus, batch_size=batch_size, progress=tick(f"import {corpus}", n_units)
        )
        for c in conversations
    ]
    import_s = time.perf_counter() - started
    asked = [
        [(qa, gold) for qa in conv.qa if (gold := gold_units(conv, qa, corpus))]
        for conv in conversations
    ]
    advance = tick(f"recall {corpus}", sum(map(len, asked)))
    rows: dict[str, list[Row]] = defaultdict(list)
    plans: dict[str, Counter[str]] = defaultdict(Counter)
    for conv, (namespace, stands_for, _), questions in zip(
        conversations, imported, asked, strict=True
    ):
        for qa, gold in questions:
            base = RecallQuery(text=qa.question, k=k, reference_time=conv.now, record_access=False)
            result = memory.recall(namespace, base)
            plans[str(qa.category)][result.plan] += 1
            for name in ("pipeline", *retrievers):
                if name != "pipeline":
                    result = memory.recall(
                        namespace, base.model_copy(update={"retrievers": (name,)})
                    )
                units = [stands_for.get(h.memory.id, ()) for h in result.hits]
                rows[name].append((qa.category, score_ranking(units, gold)))
            advance(1)
    query_s = time.perf_counter() - started - import_s
    report: dict[str, Any] = {
        "corpus": corpus,
        "store": str(getattr(memory.store, "name", type(memory.store).__name__)),
        "model": memory.embedder.name,
        "conversations": len(conversations),
        "candidates": n_units,
        "memories": sum(len(sf) for _, sf, _ in imported),
        "merged": sum(m for _, _, m in imported),
        "overall": summarize(rows["pipeline"], HEADLINE),
        "by_category": {str(c): summarize(rows["pipeline"], (c,)) for c in CATEGORIES},
        "retrievers": {name: _with_categories(rows[name]) for name in retrievers},
        "plans": {c: dict(sorted(counts.items())) for c, counts in sorted(plans.items())},
        "import": total_report(conversations).as_dict(),
        "namespaces": [ns for ns, _, _ in imported],
        "seconds": {"import": round(import_s, 2), "recall": round(query_s, 2)},
    }
    if baseline:
        started = time.perf_counter()
        report["baselines"] = _baselines(memory, imported, asked)
        report["seconds"]["baselines"] = round(time.perf_counter() - started, 2)
    return report


def _baselines(
    memory: GraphMem,
    imported: Sequence[tuple[str, dict[str, tuple[str, ...]], int]],
    asked: Sequence[Sequence[tuple[QAItem, set[str]]]],
) -> dict[str, Any]:
    rows: dict[str, list[Row]] = defaultdict(list)
    for (namespace, stands_for, _), questions in zip(imported, asked, strict=True):
        if not questions:
            continue
        stored = sorted(memory.store.get_memories(namespace, list(stands_for)), key=lambda m: m.id)
        contents = [m.content for m in stored]
        texts = [qa.question for qa, _ in questions]
        ranked = baseline_rankings(
            contents, memory.embedder.embed(contents), texts, memory.embedder.embed(texts)
        )
        for name, per_question in ranked.items():
            for (qa, gold), docs in zip(questions, per_question, strict=True):
                units = [stands_for[stored[d].id] for d in docs[:10]]
                rows[name].append((qa.category, score_ranking(units, gold)))
    return {name: _with_categories(rows[name]) for name in ("bm25", "dense", "rrf")}
