"""The cross-encoder reranker with a fake model (no weights are installable offline here),
its wiring from settings, and the pipeline's rerank depth."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphmem import GraphMem, RecallQuery, Settings
from graphmem.errors import ConfigurationError, EmbeddingError
from graphmem.retrieval.ranking.rerank import (
    CrossEncoderReranker,
    NoopReranker,
    Reranker,
    reranker_from_settings,
)
from tests.fakes import HashEmbedder


class FakeCrossEncoder:
    """Scores a pair by how many times the passage contains the word ``"gold"``."""

    def __init__(self, shape: str = "flat") -> None:
        self.calls: list[tuple[list[tuple[str, str]], dict[str, Any]]] = []
        self._shape = shape

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> Any:
        self.calls.append((list(sentences), kwargs))
        scores = np.array([float(p.split().count("gold")) for _, p in sentences])
        if self._shape == "column":
            return scores.reshape(-1, 1)
        if self._shape == "three labels":
            return np.stack([scores, scores, scores], axis=1)
        return scores


@dataclass(frozen=True)
class _Passage:
    """What a reranker reads of a memory: its id and content."""

    id: str
    content: str


def _memory(mid: str, content: str) -> Any:
    return _Passage(mid, content)


def test_orders_by_the_model_score_and_keeps_the_fused_order_on_ties() -> None:
    model = FakeCrossEncoder()
    reranker = CrossEncoderReranker("fake-model", batch_size=7, loader=lambda name: model)
    memories = [_memory("a", "nothing"), _memory("b", "gold"), _memory("c", "gold gold")]
    memories.append(_memory("d", "also nothing"))
    ranked = reranker.rerank("where is the gold", memories)
    assert ranked == [("c", 2.0), ("b", 1.0), ("a", 0.0), ("d", 0.0)]
    pairs, kwargs = model.calls[0]
    assert pairs[1] == ("where is the gold", "gold")
    assert kwargs == {"batch_size": 7, "show_progress_bar": False}
    assert isinstance(reranker, Reranker) and reranker.name == "cross-encoder fake-model"


def test_a_one_column_output_is_one_score_per_pair_and_several_labels_are_refused() -> None:
    memories = [_memory("a", "x"), _memory("b", "gold")]
    column = CrossEncoderReranker("m", loader=lambda name: FakeCrossEncoder("column"))
    assert [mid for mid, _ in column.rerank("q", memories)] == ["b", "a"]
    labels = CrossEncoderReranker("m", loader=lambda name: FakeCrossEncoder("three labels"))
    with pytest.raises(ConfigurationError, match="one relevance score per pair"):
        labels.rerank("q", memories)


def test_the_model_loads_once_on_first_use_not_in_the_constructor() -> None:
    loads: list[str] = []

    def loader(name: str) -> FakeCrossEncoder:
        loads.append(name)
        return FakeCrossEncoder()

    reranker = CrossEncoderReranker("path/to/model", loader=loader)
    assert loads == [] and reranker.rerank("q", []) == []
    reranker.rerank("q", [_memory("a", "x")])
    reranker.rerank("q", [_memory("a", "x")])
    assert loads == ["path/to/model"]


def test_a_model_that_cannot_be_loaded_is_a_clear_configuration_error() -> None:
    def loader(name: str) -> FakeCrossEncoder:
        raise EmbeddingError(f"cannot load cross-encoder {name!r}: no such directory")

    reranker = CrossEncoderReranker("missing-model", loader=loader)
    with pytest.raises(ConfigurationError, match="GRAPHMEM_RERANKER_MODEL='missing-model'"):
        reranker.rerank("q", [_memory("a", "x")])
    with pytest.raises(ConfigurationError, match="blank"):
        CrossEncoderReranker("  ")


def test_the_real_loader_refuses_a_path_that_holds_no_model(tmp_path: Path) -> None:
    reranker = CrossEncoderReranker(str(tmp_path / "no-model-here"))
    with pytest.raises(ConfigurationError, match="cannot be loaded offline"):
        reranker.rerank("q", [_memory("a", "x")])


def test_settings_configure_the_reranker(monkeypatch: pytest.MonkeyPatch) -> None:
    assert reranker_from_settings(Settings(neo4j_uri=None)) is None
    monkeypatch.setenv("GRAPHMEM_RERANKER_MODEL", "/models/ms-marco")
    configured = reranker_from_settings(Settings(neo4j_uri=None))
    assert isinstance(configured, CrossEncoderReranker)
    assert configured.name == "cross-encoder /models/ms-marco"
    with pytest.raises(ValueError, match="rerank_depth"):
        Settings(neo4j_uri=None, rerank_depth=0)


def test_the_pipeline_reranks_its_depth_and_returns_k(tmp_path: Path) -> None:
    """With rerank_depth 8 and k 3, a memory the fusion ranks below 3 can come back first;
    without a reranker the no-op keeps the order and says so."""
    contents = [f"the harbour note number {i} about boats" for i in range(6)]
    contents.append("gold gold gold kept in a box")
    settings = Settings(data_dir=tmp_path / "s", neo4j_uri=None, rerank_depth=8)
    reranker = CrossEncoderReranker("fake", loader=lambda name: FakeCrossEncoder())
    query = RecallQuery(text="harbour note boats", k=3, rerank=True, record_access=False)
    with GraphMem(settings, embedder=HashEmbedder(), reranker=reranker) as memory:
        memory.remember("ns", [{"content": c, "type": "Fact"} for c in contents])
        plain = memory.recall("ns", query.model_copy(update={"rerank": False}))
        reranked = memory.recall("ns", query)
    gold = next(h for h in reranked.hits if "gold" in h.memory.content)
    assert "gold" not in " ".join(h.memory.content for h in plain.hits)
    assert reranked.hits[0] is gold and len(reranked.hits) == 3
    assert gold.explanation.rerank == "cross-encoder fake (applied)"
    with GraphMem(
        Settings(data_dir=tmp_path / "s", neo4j_uri=None), embedder=HashEmbedder()
    ) as memory:
        noop = memory.recall("ns", query)
    assert [h.memory.id for h in noop.hits] == [h.memory.id for h in plain.hits]
    assert noop.hits[0].explanation.rerank == "none (not applied)"
    assert isinstance(NoopReranker(), Reranker)
