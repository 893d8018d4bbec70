"""Name-masked similarity (graphmem.retrieval.rescoring.masking)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from graphmem import GraphMem, Settings
from graphmem.entities import EntityDictionary, EntityLink
from graphmem.language.claims import Claim
from graphmem.models import Entity, Memory
from graphmem.retrieval.ranking.currency import prefer_newer
from graphmem.retrieval.rescoring.masking import (
    MASK,
    MaskedEmbeddings,
    deep_masked,
    mask_names,
    masked_lists,
    masked_people,
    rescore,
    verbatim_transcript,
)
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.store.base import MaskText, ScoredId, Vector
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
    # two claims the attribute rule reads no attribute in (with "works at" / "lives in"
    # it would keep them apart by itself: tests/unit/test_attributes.py); here only the
    # vectors decide
    claims = {"job": Claim("Tomas met Cobalt."), "city": Claim("Tomas saw Denver now.")}
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


class _TranscriptStore:
    """The two reads :func:`deep_masked` makes: a vector search by the stored vectors
    (cosine, best first) and the memories by id."""

    def __init__(self, memories: Sequence[Memory]) -> None:
        self.memories = {m.id: m for m in memories}
        self.searched: list[int] = []

    def vector_search(
        self,
        namespace: str,
        embeddings: Vector,
        k: int,
        *,
        include_history: bool = False,
        include_cold: bool = False,
    ) -> list[list[ScoredId]]:
        self.searched.append(k)
        q = np.asarray(embeddings[0], dtype=np.float32)
        scored = [
            ScoredId(m.id, float(np.dot(np.asarray(m.embedding, dtype=np.float32), q)))
            for m in self.memories.values()
        ]
        scored.sort(key=lambda s: -s.score)
        return [scored[:k]]

    def get_memories(
        self, namespace: str, ids: Sequence[str], *, with_embeddings: bool = False
    ) -> list[Memory]:
        return [self.memories[i] for i in ids if i in self.memories]

    def mask_texts(self, namespace: str, ids: Sequence[str]) -> list[MaskText]:
        return [MaskText.of(self.memories[i]) for i in ids if i in self.memories]


def _turn(mid: str, content: str, vector: Sequence[float], speaker: str) -> Memory:
    unit = np.asarray(vector, dtype=np.float64) / np.linalg.norm(vector)
    return make_memory(
        "n",
        content,
        id=mid,
        embedding=[float(x) for x in unit],
        extractor="verbatim",
        mentions=[(speaker, "subject")],
    )


def _transcript() -> tuple[list[Memory], dict[str, tuple[float, float]]]:
    # Raw cosine (question (0, 1)): Ingrid's chatty turns first (her label weighs most);
    # masked, the hike turns match the question: hers and Cleo's alike.
    turns = [
        _turn("chat1", "Ingrid: Hey, how are you?", (0.1, 1.0), "p"),
        _turn("chat2", "Ingrid: Thanks, you too!", (0.15, 1.0), "p"),
        _turn("cleo", "Cleo: The Sky Ridge hike was great", (0.9, 0.2), "c"),
        _turn("hike", "Ingrid: The Sky Ridge hike was great", (0.8, 0.3), "p"),
    ]
    table = {
        f"Where did {MASK} hike?": (1.0, 0.0),
        f"{MASK}: Hey, how are you?": (0.0, 1.0),
        f"{MASK}: Thanks, you too!": (0.1, 1.0),
        f"{MASK}: The Sky Ridge hike was great": (0.9, 0.2),
    }
    return turns, table


def _context(k: int) -> RetrievalContext:
    return RetrievalContext(
        namespace="n",
        text="Where did Ingrid hike?",
        embedding=np.asarray([0.0, 1.0], dtype=np.float32),
        links=(EntityLink("p", "Ingrid", 1.0),),
        window=None,
        k=k,
        include_history=True,
        settings=Settings(neo4j_uri=None),
    )


def test_deep_masking_reaches_below_the_window_and_puts_the_persons_turn_first() -> None:
    turns, table = _transcript()
    store = _TranscriptStore(turns)
    vectors = MaskedEmbeddings(CountingEmbedder(table))
    ctx = _context(k=3)
    found = deep_masked(store, ctx, ["Ingrid"], vectors, depth=4, subject_bonus=0.05)  # type: ignore[arg-type]
    # the hike turns were 3rd and 4th by the raw cosine; masked they come first, and of
    # the two equal ones Ingrid's (her subject) before Cleo's; cut to ctx.k
    assert [h.memory_id for h in found] == ["hike", "cleo", "chat2"]
    assert store.searched == [4]
    without_bonus = deep_masked(store, ctx, ["Ingrid"], vectors, depth=4, subject_bonus=0.0)  # type: ignore[arg-type]
    assert [h.memory_id for h in without_bonus][:2] == ["cleo", "hike"]  # id order on a tie
    # a question that names nobody masked: no list
    assert deep_masked(store, _context(3), ["Mia"], vectors, depth=4, subject_bonus=0.05) == []  # type: ignore[arg-type]


def test_only_a_verbatim_transcript_gets_the_deep_semantic_list() -> None:
    turns, table = _transcript()
    store = _TranscriptStore(turns)
    vectors = MaskedEmbeddings(CountingEmbedder(table))
    ctx = _context(k=3)
    hits = {"semantic": [Hit("chat1", 0.99), Hit("chat2", 0.98)], "bm25": [Hit("hike", 2.0)]}
    window = {m.id: m for m in turns[:2]}  # what rescore read: the top of the lists
    settings = Settings(neo4j_uri=None, name_mask_depth=2, verbatim_mask_depth=4)
    out = masked_lists(store, ctx, ["Ingrid"], window, hits, vectors, settings)  # type: ignore[arg-type]
    assert [h.memory_id for h in out["semantic"]] == ["hike", "cleo", "chat2"]
    assert out["bm25"] == hits["bm25"]
    assert verbatim_transcript(window)
    # extracted claims (not verbatim): the window re-ordered only, as rescore does
    claims = {m.id: m.model_copy(update={"extractor": "ner"}) for m in turns[:2]}
    assert not verbatim_transcript(claims)
    # verbatim notes without a speaker label are no transcript either
    notes = {
        m.id: m.model_copy(update={"content": m.content.replace("Ingrid: ", "Ingrid said ")})
        for m in turns[:2]
    }
    assert not verbatim_transcript(notes)
    plain = masked_lists(store, ctx, ["Ingrid"], claims, hits, vectors, settings)  # type: ignore[arg-type]
    assert plain == rescore(hits, ctx.text, ctx.embedding, ["Ingrid"], claims, vectors, 2)
    # the setting at 0 turns it off
    off = settings.model_copy(update={"verbatim_mask_depth": 0})
    assert masked_lists(store, ctx, ["Ingrid"], window, hits, vectors, off) == plain  # type: ignore[arg-type]
