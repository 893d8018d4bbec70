"""Forgetting leaves no masked vector of the forgotten text in the persistent vector
cache (SPEC §9.16; docs/forgetting.md): the name-masked variants written for recall
(docs/performance.md) go with the memory, those of the memories kept stay."""

from __future__ import annotations

from pathlib import Path

from graphmem import GraphMem
from graphmem.retrieval.rescoring.masking import masked_texts
from tests.fakes import HashEmbedder
from tests.unit.test_vector_cache import TURNS, _settings, _write


def test_forgetting_a_memory_removes_its_masked_vectors(tmp_path: Path) -> None:
    _write(tmp_path)
    with GraphMem(_settings(tmp_path), embedder=HashEmbedder()) as memory:
        memories = {m.content: m for m in memory.list_memories("chat", limit=100)}
        gone, kept = memories[TURNS[2]], memories[TURNS[1]]
        known = memory._dictionary("chat")
        gone_texts = masked_texts([gone], known)
        kept_texts = masked_texts([kept], known)
        cache = memory._reader.masked_vectors.persistent
        assert cache is not None and gone_texts and kept_texts
        model = memory.embedder.name
        assert set(cache.get_many(model, gone_texts)) == set(gone_texts)  # warmed on write
        memory.forget_memory("chat", gone.id)
        assert cache.get_many(model, gone_texts) == {}
        assert set(cache.get_many(model, kept_texts)) == set(kept_texts)
