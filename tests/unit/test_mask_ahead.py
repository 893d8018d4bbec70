"""A recall's name-masking work started beside the retrievers (graphmem.retrieval.rescoring.mask_ahead,
docs/performance.md "Recall on real input"): fewer store calls one after the other, the same
answers."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from graphmem import GraphMem, Settings
from graphmem.models import RecallQuery
from graphmem.retrieval.rescoring.mask_ahead import MaskTexts
from graphmem.store.base import MaskText
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
    "Caroline: The adoption agency called me back this morning.",
    "Melanie: We camped by the river with the kids last weekend.",
]
QUESTION = "What is Caroline researching?"


class ThreadEmbedder(HashEmbedder):
    """Keeps each embedded text with the name of the thread that embedded it."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: dict[str, str] = {}

    def embed(self, texts: Sequence[str]) -> Vector:
        for text in texts:
            self.threads[text] = threading.current_thread().name
        return np.asarray(super().embed(texts))


def _memory(tmp_path: Path, embedder: HashEmbedder) -> GraphMem:
    # name masking re-orders the lists' top 2 only, so the deep list (the 8 nearest turns)
    # holds memories the masking step's first read does not
    settings = Settings(
        data_dir=tmp_path / "store",
        extractor="capitalized",
        name_mask_depth=2,
        verbatim_mask_depth=8,
        vector_cache=False,  # every masked text is embedded here, none read from a file
    )
    return GraphMem(settings, embedder=embedder)


def _write(memory: GraphMem) -> None:
    memory.remember(
        "chat",
        [
            {
                "content": turn,
                "extractor": "verbatim",
                "entities": [
                    {
                        "name": n,
                        "kind": "Person",
                        "role": "subject" if turn.startswith(n) else "object",
                    }
                    for n in ("Caroline", "Melanie")
                    if n in turn
                ],
            }
            for turn in TURNS
        ],
    )


def _masking_reads(memory: GraphMem) -> list[int]:
    """Counts the store's mask_texts calls (what name masking reads; into the list returned)."""
    counted: list[int] = [0]
    store: Any = memory.store
    original = store.mask_texts

    def counting(namespace: str, ids: Sequence[str]) -> Any:
        counted[0] += 1
        return original(namespace, ids)

    store.mask_texts = counting
    return counted


def test_a_transcripts_later_recall_reads_the_deep_list_with_the_candidates(
    tmp_path: Path,
) -> None:
    with _memory(tmp_path, HashEmbedder()) as memory:
        _write(memory)
        counted = _masking_reads(memory)
        query = RecallQuery(text=QUESTION, k=6, record_access=False)
        first = memory.recall("chat", query)
        first_reads, counted[0] = counted[0], 0
        second = memory.recall("chat", query)
    # the first recall learns the namespace is a transcript: it reads the candidates, then
    # the deep list's other memories; the second reads the deep list's memories beside the
    # retrievers, and the candidates are among them
    assert counted[0] == first_reads - 1, (first_reads, counted[0])
    assert [h.memory.id for h in second.hits] == [h.memory.id for h in first.hits]
    assert [h.weight for h in second.hits] == [h.weight for h in first.hits]


def test_what_masking_read_is_kept_until_the_namespace_is_written(tmp_path: Path) -> None:
    # the ~200 turns of each transcript question were read from the store per question
    with _memory(tmp_path, HashEmbedder()) as memory:
        _write(memory)
        counted = _masking_reads(memory)
        query = RecallQuery(text=QUESTION, k=6, record_access=False)
        memory.recall("chat", query)
        memory.recall("chat", query)
        counted[0] = 0
        other = RecallQuery(text="Where did Melanie camp with her kids?", k=6, record_access=False)
        memory.recall("chat", other)
        assert counted[0] == 0  # every turn it masks was read before
        memory.remember("chat", [{"content": "Melanie: We camped again.", "extractor": "verbatim"}])
        memory.recall("chat", other)
        assert counted[0] >= 1  # the write dropped what was kept


def test_the_question_and_its_masked_form_are_embedded_off_the_callers_thread(
    tmp_path: Path,
) -> None:
    embedder = ThreadEmbedder()
    with _memory(tmp_path, embedder) as memory:
        _write(memory)
        memory.recall("chat", RecallQuery(text=QUESTION, k=6, record_access=False))
    # the question while the plan's reads run; the masked question beside the retrievers
    assert embedder.threads[QUESTION].startswith("ahead"), embedder.threads[QUESTION]
    masked = "What is someone researching?"
    assert embedder.threads[masked].startswith("retriever"), embedder.threads[masked]


def test_the_term_counts_are_read_while_the_question_is_linked(tmp_path: Path) -> None:
    with _memory(tmp_path, HashEmbedder()) as memory:
        _write(memory)
        store: Any = memory.store
        original, threads = store.term_stats, []

        def recording(namespace: str, terms: Sequence[str]) -> Any:
            threads.append(threading.current_thread().name)
            return original(namespace, terms)

        store.term_stats = recording
        memory.recall("chat", RecallQuery(text=QUESTION, k=6, record_access=False))
    # the plan's read of the question's term counts runs beside its entity linking
    assert threads and all(t.startswith("ahead") for t in threads), threads


class _Store:
    """mask_texts from a dict; ``during`` runs inside the call (a write meanwhile)."""

    def __init__(self, texts: dict[str, MaskText]) -> None:
        self.texts = texts
        self.calls = 0
        self.asked: list[str] = []
        self.during: Any = None

    def mask_texts(self, namespace: str, ids: Sequence[str]) -> list[MaskText]:
        self.calls += 1
        self.asked = list(ids)
        if self.during is not None:
            self.during()
        return [self.texts[i] for i in ids if i in self.texts]


def _text(ident: str) -> MaskText:
    return MaskText(ident, f"Ana: turn {ident}", "verbatim", [1.0, 0.0], frozenset())


def test_a_mask_text_read_while_its_namespace_was_dropped_is_not_kept() -> None:
    # a recall that read a memory's text while the memory was being forgotten kept it
    store = _Store({"a": _text("a"), "b": _text("b")})
    texts = MaskTexts(size=10)
    store.during = lambda: texts.forget("ns")
    first = texts.read(cast(Any, store), "ns", ["a", "b"])
    assert [m.memory_id for m in first] == ["a", "b"]  # answered, not kept
    store.during = None
    texts.read(cast(Any, store), "ns", ["a", "b"])
    assert store.calls == 2
    kept = texts.read(cast(Any, store), "ns", ["b", "a", "zz"])  # "zz" is no memory
    assert store.asked == ["zz"] and [m.memory_id for m in kept] == ["b", "a"]
    assert len(texts.read(cast(Any, store), "other", ["a"])) == 1 and store.asked == ["a"]
