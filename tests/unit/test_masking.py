"""Name-masked similarity (graphmem.retrieval.masking)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from graphmem import GraphMem, Settings
from graphmem.entities import EntityDictionary, EntityLink
from graphmem.models import Entity, Memory
from graphmem.retrieval.currency import prefer_newer
from graphmem.retrieval.masking import MASK, MaskedEmbeddings, mask_names, masked_people, rescore
from graphmem.retrieval.retrievers import Hit
from graphmem.store.base import Vector
from graphmem.write.compat import Claim
from tests.contract.builders import make_memory


def test_names_are_masked_as_whole_words_keeping_the_possessive() -> None:
    names = ["Ingrid Larsen", "Ingrid"]
    assert mask_names("Where does Ingrid Larsen's brother work?", names) == (
        f"Where does {MASK}'s brother work?"
    )
    assert mask_names("INGRID met Ingridson and ingrid.", ["Ingrid"]) == (
        f"{MASK} met Ingridson and {MASK}."
    )
    assert mask_names("Nothing to mask.", []) == "Nothing to mask."


def test_only_people_are_masked() -> None:
    known = EntityDictionary(
        [
            Entity(id="p", namespace="n", name="Ingrid Larsen", kind="Person", aliases=("Inga",)),
            Entity(id="o", namespace="n", name="Lumen Labs", kind="Organization"),
        ]
    )
    links = [EntityLink("p", "Ingrid", 0.9), EntityLink("o", "Lumen Labs", 1.0)]
    assert masked_people(links, known) == ["Ingrid Larsen", "Ingrid", "Inga"]


class CountingEmbedder:
    """Unit vectors from a fixed table; counts the texts it is asked for."""

    def __init__(self, table: Mapping[str, Sequence[float]]) -> None:
        self.table = table
        self.asked: list[str] = []

    @property
    def dim(self) -> int:
        return 2

    @property
    def name(self) -> str:
        return "table"

    def embed(self, texts: Sequence[str]) -> Vector:
        self.asked.extend(texts)
        rows = np.asarray([self.table[t] for t in texts], dtype=np.float32)
        unit: Vector = rows / np.linalg.norm(rows, axis=1, keepdims=True)
        return unit


def test_the_cache_embeds_each_text_once_and_evicts_the_least_recent() -> None:
    inner = CountingEmbedder({"a": (1, 0), "b": (0, 1), "c": (1, 1)})
    cache = MaskedEmbeddings(inner, size=2)
    first = cache.embed(["a", "b", "a"])
    assert inner.asked == ["a", "b"]
    assert np.allclose(first[0], first[2])
    cache.embed(["a", "c"])  # "b" is the least recently used: evicted
    cache.embed(["a", "b"])
    assert inner.asked == ["a", "b", "c", "b"]


def _memory(mid: str, content: str, vector: Sequence[float]) -> Memory:
    return make_memory("n", content, id=mid, embedding=list(vector))


def test_rescore_orders_by_the_masked_cosine_within_depth_only() -> None:
    # Stored (unmasked) vectors put the phone first; masked, the job matches the question.
    table = {
        f"Where does {MASK} work?": (1.0, 0.0),
        f"{MASK} is a chef at Granite Peak.": (0.9, 0.1),
        f"{MASK}'s phone number is 555-0113.": (0.1, 0.9),
    }
    memories = {
        "phone": _memory("phone", "Ingrid's phone number is 555-0113.", (0.0, 1.0)),
        "job": _memory("job", "Ingrid is a chef at Granite Peak.", (0.2, 0.8)),
        "other": _memory("other", "Cleo works at a bakery.", (0.6, 0.8)),
    }
    question = np.asarray([0.0, 1.0], dtype=np.float32)
    hits = {
        "semantic": [Hit("phone", 0.9), Hit("other", 0.8), Hit("job", 0.7), Hit("tail", 0.1)],
        "entity": [Hit("phone", 1.9), Hit("job", 1.7)],
        "bm25": [Hit("phone", 3.0)],
    }
    out = rescore(
        hits,
        "Where does Ingrid work?",
        question,
        ["Ingrid"],
        memories,
        MaskedEmbeddings(CountingEmbedder(table)),
        depth=3,
    )
    assert [h.memory_id for h in out["semantic"]] == ["job", "other", "phone", "tail"]
    assert out["semantic"][0].detail == "name-masked"
    # the entity score keeps its role part: 1.7 - 0.8 (unmasked) + masked cosine
    job = out["entity"][0]
    assert job.memory_id == "job" and job.score == pytest.approx(
        1.7 - 0.8 + 0.9 / np.hypot(0.9, 0.1)
    )
    assert out["bm25"] == hits["bm25"]
    # a question that names nobody in ``names`` changes nothing
    same = rescore(
        hits,
        "Where is it?",
        question,
        ["Ingrid"],
        memories,
        MaskedEmbeddings(CountingEmbedder(table)),
        depth=3,
    )
    assert same == hits


def test_the_related_test_reads_the_masked_vectors_when_given() -> None:
    old, new = datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 6, 1, tzinfo=UTC)
    claims = {"job": Claim("Tomas works at Cobalt."), "city": Claim("Tomas lives in Denver now.")}
    when = {"job": old, "city": new}
    close = {"job": 0.40, "city": 0.38}
    raw = {"job": np.array([1.0, 0.0]), "city": np.array([0.8, 0.6])}  # 0.8: by the name alone
    masked = {"job": np.array([1.0, 0.0]), "city": np.array([0.0, 1.0])}  # unrelated
    args = (["job", "city"], claims, when, close)
    moved = prefer_newer(*args, margin=0.15, vectors=raw, related=0.3)
    assert moved[0] == ["city", "job"]
    kept = prefer_newer(*args, margin=0.15, vectors=raw, related=0.3, related_vectors=masked)
    assert kept == (["job", "city"], {})


@pytest.mark.model
def test_a_persons_job_is_found_for_where_they_work(tmp_path: Path) -> None:
    """Real model: unmasked, "Ingrid's phone number" and her partner outrank her job for
    "Where does Ingrid work?" (the name dominates the embedding)."""
    facts = [
        "Ingrid's phone number is 555-0113.",
        "Ingrid's new partner is Mia.",
        "Ingrid eats gluten-free.",
        "Ingrid is not allergic to latex after all.",
        "Luca is Ingrid's coworker.",
        "Ingrid is a chef at Granite Peak Outfitters.",
        "Ingrid has a cat named Nimbus.",
    ]
    people = [{"name": "Ingrid", "kind": "Person", "role": "subject"}]
    settings = Settings(data_dir=tmp_path, neo4j_uri=None)
    with GraphMem(settings) as memory:
        memory.remember("n", [{"content": c, "entities": people} for c in facts])
        top = memory.recall("n", "Where does Ingrid work?", k=3, record_access=False).hits
        assert top[0].memory.content == "Ingrid is a chef at Granite Peak Outfitters."
        assert "name-masked" in (top[0].explanation.retrievers["semantic"].detail or "")
