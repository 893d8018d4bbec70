"""Shared data and checks of the reliability suite: a deterministic bulk ingest and a
namespace-independent snapshot of what a namespace holds."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from graphmem.models import Memory
from graphmem.store.base import MemoryStore
from graphmem.text import memory_id
from tests.reliability.conftest import T0

PEOPLE = ("Alice Moreau", "Bob Lindqvist", "Chen Wei", "Dara Okafor")
_CONSONANTS = "bcdfghjklmnpqrstvwxz"
_VOWELS = "aeiou"


def word(rng: random.Random, length: int = 8) -> str:
    """A pronounceable random lower-case word (distinct words → near-orthogonal
    HashEmbedder vectors, so unrelated facts never dedup into each other)."""
    return "".join(rng.choice(_VOWELS if i % 2 else _CONSONANTS) for i in range(length))


def fact_text(j: int, seed: int = 6) -> str:
    """Fact ``j`` of a deterministic pool: a person and five random words."""
    rng = random.Random(f"{seed}:{j}")
    return f"{PEOPLE[j % len(PEOPLE)]} {' '.join(word(rng) for _ in range(5))}"


def ingest_batches(batches: int = 5) -> list[list[dict[str, Any]]]:
    """A bulk ingest: one batch per session (one day apart).

    Batch ``b`` states facts ``2b`` and ``2b + 1`` for the first time, repeats fact
    ``b - 1`` and fact 0 (new independent observations: n grows), and repeats
    fact ``2b`` in another turn of the same session (an observation that does not
    raise n). Fact 0 ends with n = ``batches``. Each fact names its person as an
    entity; odd facts also relate two people.
    """
    out: list[list[dict[str, Any]]] = []
    for b in range(batches):
        session = f"s{b}"
        when = T0 + timedelta(days=b)
        picks = [2 * b, 2 * b + 1, *([b - 1] if b > 1 else []), 0, 2 * b]
        batch: list[dict[str, Any]] = []
        for turn, j in enumerate(picks):
            person = PEOPLE[j % len(PEOPLE)]
            cand: dict[str, Any] = {
                "content": fact_text(j),
                "type": "Fact",
                "extractor": "verbatim",
                "session_id": session,
                "turn_id": f"{session}:{turn}",
                "observed_at": (when + timedelta(minutes=turn)).isoformat(),
                "entities": [{"name": person, "kind": "Person", "role": "subject"}],
            }
            if j % 2:
                other = PEOPLE[(j + 1) % len(PEOPLE)]
                cand["relations"] = [{"source": person, "predicate": "knows", "target": other}]
            batch.append(cand)
        out.append(batch)
    return out


def sessions_of(batches: Iterable[list[dict[str, Any]]]) -> list[str]:
    return sorted({c["session_id"] for batch in batches for c in batch})


def all_memories(store: MemoryStore, ns: str, sessions: Iterable[str]) -> list[Memory]:
    """Every memory observed in ``sessions``, with embeddings, by id."""
    found: dict[str, Memory] = {}
    for session in sessions:
        for m in store.memories_in_session(ns, session):
            found[m.id] = m
    return [found[i] for i in sorted(found)]


def snapshot(store: MemoryStore, ns: str, sessions: Iterable[str]) -> dict[str, Any]:
    """What ``ns`` holds, comparable across namespaces: memories by content hash
    (every field but id and namespace, embeddings included), entities, counts.

    Also checks that every memory id is the one derived from its namespace and
    content hash (so "same ids" holds across namespaces too).
    """
    memories = all_memories(store, ns, sessions)
    by_hash: dict[str, Any] = {}
    for m in memories:
        assert m.id == memory_id(ns, m.content_hash), m.id
        assert m.content_hash not in by_hash, f"two memories with hash {m.content_hash}"
        assert m.embedding is not None, f"memory {m.id} has no embedding"
        by_hash[m.content_hash] = m.model_dump(exclude={"id", "namespace"})
    entities = sorted(
        (e.model_dump(exclude={"namespace"}) for e in store.list_entities(ns)),
        key=lambda e: str(e["id"]),
    )
    return {"memories": by_hash, "entities": entities, "stats": store.stats(ns)}
