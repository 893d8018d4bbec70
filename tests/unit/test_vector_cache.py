"""Name masking paid once (docs/performance.md "Recall on real input"): the masked texts'
vectors are embedded when memories are written and kept in a persistent cache that
another process finds; a recall embeds at most ``name_mask_budget`` masked texts."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from graphmem import GraphMem, Settings
from graphmem.embedding.cache import VectorCache
from graphmem.retrieval.rescoring.masking import masked_variants
from graphmem.types import Vector
from tests.fakes import HashEmbedder

# A transcript of two people (each turn carries its speaker's label, as LoCoMo's do).
TURNS = [
    "Caroline: I went to a support group yesterday and it was so powerful.",
    "Melanie: That sounds great, Caroline. I painted a sunrise over the lake.",
    "Caroline: I am researching adoption agencies for my family.",
    "Melanie: My kids love the pottery workshop we joined last summer.",
    "Caroline: Melanie, your painting of the lake is beautiful.",
    "Melanie: Thanks! I also started running in the mornings with my kids.",
]
ENTITIES = {"Caroline": "Person", "Melanie": "Person"}
QUESTIONS = [
    "What is Caroline researching?",
    "What did Melanie paint?",
    "What do Melanie's kids love?",
    "What did Caroline say about Melanie's painting?",
]


class CountingEmbedder(HashEmbedder):
    """Counts the texts it embeds (each call's texts are kept)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> Vector:
        self.calls.append(list(texts))
        return np.asarray(super().embed(texts))

    def count(self) -> int:
        return sum(len(c) for c in self.calls)


def _settings(tmp_path: Path, **overrides: object) -> Settings:
    return Settings(data_dir=tmp_path / "store", extractor="capitalized", **overrides)  # type: ignore[arg-type]


def _write(tmp_path: Path, **overrides: object) -> None:
    candidates = [
        {
            "content": turn,
            "extractor": "verbatim",
            "entities": [
                {"name": n, "kind": k, "role": "subject" if turn.startswith(n) else "object"}
                for n, k in ENTITIES.items()
                if n in turn
            ],
        }
        for turn in TURNS
    ]
    with GraphMem(_settings(tmp_path, **overrides), embedder=HashEmbedder()) as memory:
        memory.remember("chat", candidates)


def _ask(tmp_path: Path, embedder: CountingEmbedder, **overrides: object) -> list[list[str]]:
    with GraphMem(_settings(tmp_path, **overrides), embedder=embedder) as memory:
        return [[h.memory.content for h in memory.recall("chat", q, k=6).hits] for q in QUESTIONS]


def test_the_cache_is_shared_by_instances_on_one_file(tmp_path: Path) -> None:
    path = tmp_path / "c" / "vectors.sqlite"
    vectors = np.eye(3, 8, dtype=np.float32)
    VectorCache(path, dim=8).put_many("m", ["a", "b", "c"], vectors)
    other = VectorCache(path, dim=8)
    found = other.get_many("m", ["b", "x", "a"])
    assert set(found) == {"a", "b"}
    assert found["b"].tolist() == vectors[1].tolist()
    assert other.get_many("another-model", ["a"]) == {}
    assert VectorCache(path, dim=4).get_many("m", ["a"]) == {}  # another dimension: a miss


def test_an_unusable_cache_file_turns_the_cache_off(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cache = VectorCache(blocker / "vectors.sqlite", dim=4)
    cache.put_many("m", ["a"], np.ones((1, 4), dtype=np.float32))
    assert cache.get_many("m", ["a"]) == {}


def test_variants_mask_each_person_and_each_pair() -> None:
    text = "Caroline: Melanie, your painting is beautiful."
    assert masked_variants(text, [["Caroline"], ["Melanie"]]) == [
        "someone: Melanie, your painting is beautiful.",
        "Caroline: someone, your painting is beautiful.",
        "someone: someone, your painting is beautiful.",
    ]
    assert masked_variants("No names here.", [["Caroline"]]) == []


def test_a_recall_after_the_write_embeds_only_its_questions(tmp_path: Path) -> None:
    _write(tmp_path)
    embedder = CountingEmbedder()
    _ask(tmp_path, embedder)  # a new process: only the persistent cache is shared
    # per question: its embedding and the masked question; every masked memory text
    # was embedded when the memories were written
    assert embedder.count() <= 2 * len(QUESTIONS), embedder.calls


def test_the_answers_are_those_without_a_cache(tmp_path: Path) -> None:
    """Two copies of the store (recall records accesses, which rank): the same answers
    from the warmed cache as from embedding every masked text at query time."""
    _write(tmp_path / "a")
    _write(tmp_path / "b", vector_cache=False)
    cached = _ask(tmp_path / "a", CountingEmbedder())
    uncached_embedder = CountingEmbedder()
    uncached = _ask(tmp_path / "b", uncached_embedder, vector_cache=False)
    assert cached == uncached
    assert uncached_embedder.count() > 2 * len(QUESTIONS)  # it embedded masked texts


def test_a_recall_embeds_at_most_its_budget_of_masked_texts(tmp_path: Path) -> None:
    _write(tmp_path, vector_cache=False)  # nothing cached
    embedder = CountingEmbedder()
    with GraphMem(
        _settings(tmp_path, vector_cache=False, name_mask_budget=2), embedder=embedder
    ) as memory:
        memory.recall("chat", "What is Caroline researching?", k=6)
    # the masked question, embedded alone (it may be started beside the retrievers), and
    # at most 2 masked memory texts in all (nothing is cached: the budget is spent)
    question = "What is someone researching?"
    assert [c for c in embedder.calls if question in c] == [[question]]
    texts = [t for c in embedder.calls for t in c if "someone" in t and t != question]
    assert len(texts) == 2, texts
