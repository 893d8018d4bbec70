"""The two corpora of LoCoMo (docs/benchmarks.md) as memory candidates, their import, and gold
units.

A *unit* is what the benchmark's gold names: a dia_id ("D3:7") on the turns
corpus, an observation key ("S3:Caroline:2") on the observations corpus.
Dedup may merge several candidates into one memory; that memory stands for
all their units, in the order they were imported. Gold for a question is its
repaired evidence (turns) or the observations whose evidence overlaps it
(observations; questions with none are not scored).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from bench.locomo.dataset import Conversation, QAItem, Session
from graphmem.memory import GraphMem

__all__ = [
    "CORPORA",
    "Corpus",
    "gold_units",
    "import_conversation",
    "namespace_for",
    "observation_candidates",
    "turn_candidates",
    "unit_candidates",
]

Corpus = Literal["turns", "observations"]
CORPORA: tuple[Corpus, ...] = ("turns", "observations")


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


def unit_candidates(conv: Conversation, corpus: Corpus) -> list[tuple[dict[str, Any], str]]:
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
    """MemoryCandidate dicts for every turn (the "turns" corpus, docs/benchmarks.md)."""
    return [c for c, _ in unit_candidates(conv, "turns")]


def observation_candidates(conv: Conversation) -> list[dict[str, Any]]:
    """MemoryCandidate dicts for every observation (the "observations" corpus, docs/benchmarks.md);
    ``turn_id`` is the first evidence id, the full evidence stays with the bench."""
    return [c for c, _ in unit_candidates(conv, "observations")]


def namespace_for(conv: Conversation, corpus: str) -> str:
    """The bench's namespace for one conversation and corpus, e.g. ``locomo-conv-26-turns``."""
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
    pairs = unit_candidates(conv, corpus)
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
