"""The attribute read from labeled examples where the word patterns read none
(docs/updates.md "Nearest examples")."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib import resources

import numpy as np
import pytest

from graphmem.embedding import DEFAULT_MODEL, make_embedder
from graphmem.retrieval.ranking import attribute_examples
from graphmem.retrieval.ranking.attribute_examples import AttributeExamples
from graphmem.settings import Settings


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _examples(
    monkeypatch: pytest.MonkeyPatch, rows: list[tuple[str, np.ndarray]], **kw: float
) -> AttributeExamples:
    texts = [f"example {i}" for i in range(len(rows))]
    vectors = {t: v for t, (_, v) in zip(texts, rows, strict=True)}
    labels = [label for label, _ in rows]
    monkeypatch.setattr(attribute_examples, "_read", lambda: (texts, labels, "x"))
    monkeypatch.setattr(attribute_examples, "_shipped", lambda model, digest: None)

    def embed(batch: Sequence[str]) -> list[np.ndarray]:
        return [vectors[t] for t in batch]

    return AttributeExamples(
        embed, "fake", k=int(kw.get("k", 3)), min_share=kw.get("min_share", 0.6),
        min_cosine=kw.get("min_cosine", 0.4),
    )  # fmt: skip


def test_the_nearest_examples_vote_with_their_cosine(monkeypatch: pytest.MonkeyPatch) -> None:
    ex = _examples(
        monkeypatch,
        [("residence", _unit(1, 0, 0)), ("residence", _unit(1, 0.2, 0)),
         ("partner", _unit(0.9, 0.5, 0)), ("pet", _unit(0, 0, 1))],
    )  # fmt: skip
    vote = ex.claim(_unit(1, 0.1, 0))
    # cosines 0.9950, 0.9952, 0.9180 (pet: 0): residence holds 1.990 / 2.908 = 0.684
    assert vote.key == "residence"
    assert vote.share == pytest.approx(0.684, abs=0.002)
    assert vote.example == "example 1" and vote.cosine == pytest.approx(0.9952, abs=1e-3)


def test_a_split_vote_far_examples_and_none_give_no_attribute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = [("residence", _unit(1, 0, 0)), ("partner", _unit(1, 0.05, 0)), ("none", _unit(0, 1, 0))]
    ex = _examples(monkeypatch, rows)
    split = ex.claim(_unit(1, 0.02, 0))  # residence and partner about 0.5 each
    assert split.key is None and split.share < 0.6
    far = _examples(monkeypatch, rows, k=1).claim(_unit(0.3, 0, 1))  # nearest cosine 0.29
    assert far.key is None
    assert _examples(monkeypatch, rows, k=1).claim(_unit(0, 1, 0.1)).key is None  # "none" wins
    assert ex.claim(None).key is None


def test_votes_read_each_memory_as_its_own_vote_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch of a recall's memories gives each the attribute claim() gives it alone;
    a memory without an embedding, or whose examples split, is left out."""
    from tests.contract.builders import make_memory

    rows = [("residence", _unit(1, 0, 0)), ("residence", _unit(1, 0.2, 0)),
            ("partner", _unit(0.9, 0.5, 0)), ("pet", _unit(0, 0, 1)), ("pet", _unit(0.1, 0, 1))]
    ex = _examples(monkeypatch, rows)
    home = make_memory("n", "home", id="home", embedding=[float(x) for x in _unit(1, 0.1, 0)])
    pet = make_memory("n", "pet", id="pet", embedding=[float(x) for x in _unit(0, 0.1, 1)])
    bare = make_memory("n", "bare", id="bare", embedding=None)
    assert ex.votes([home, pet, bare]) == {"home": "residence", "pet": "pet"}
    assert ex.claim(_unit(1, 0.1, 0)).key == "residence"


def test_the_shipped_vectors_are_the_examples_embedded_by_the_default_model() -> None:
    """Editing an example file without ``python -m
    graphmem.retrieval.ranking.attribute_examples`` would leave stale vectors: they would
    not be used (the digest differs) and every process would embed the examples again."""
    package = resources.files("graphmem.language")
    with package.joinpath("attribute_examples.npz").open("rb") as handle, np.load(handle) as npz:
        assert str(npz["model"]) == DEFAULT_MODEL
        for name in ("attribute_claims.jsonl",):
            raw = package.joinpath(name).read_bytes()
            assert str(npz[f"{name}:sha256"]) == hashlib.sha256(raw).hexdigest()
            lines = [line for line in raw.decode("utf-8").splitlines() if line.strip()]
            assert npz[name].shape == (len(lines), 384)


@pytest.mark.parametrize(
    ("kind", "text", "key"),
    [
        ("claim", "We've packed up and we're in Sheffield now, a terrace off Abbeydale Road.", "residence"),
        ("claim", "Update on the dating front: I've been seeing Kasia Wrona for a month.", "partner"),
        ("claim", "Ran the Warsaw half marathon on Sunday in 1:52.", None),
    ],
)
def test_the_default_model_reads_everyday_wordings(kind: str, text: str, key: str | None) -> None:
    embedder = make_embedder(Settings())
    cfg = Settings().read.rescoring
    ex = AttributeExamples(
        embedder.embed, embedder.name, k=cfg.attribute_examples_k,
        min_share=cfg.attribute_examples_min_share, min_cosine=cfg.attribute_examples_min_cosine,
    )  # fmt: skip
    vector = embedder.embed([text])[0]
    vote = ex.claim(vector)
    assert vote.key == key, vote
