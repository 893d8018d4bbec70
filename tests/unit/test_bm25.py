"""BM25 of the embedded store against a hand computation of SPEC §3.

Corpus (tokens): d0 = cat sat mat (3), d1 = cat cat dog (3), d2 = dog ran (2);
N = 3, avgdl = 8/3, k1 = 1.2, b = 0.75 and Lucene's IDF
``ln(1 + (N − n + 0.5) / (n + 0.5))``. Every expected number below is written
out from the formula with these explicit numbers, and pinned to its decimal
value computed independently (``bc -l``).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from graphmem.store._bm25 import BM25Index
from graphmem.store.base import WriteBatch
from graphmem.store.embedded import EmbeddedStore
from graphmem.store.lucene import lucene_idf
from tests.contract.builders import DIM, make_memory

CORPUS = [["cat", "sat", "mat"], ["cat", "cat", "dog"], ["dog", "ran"]]
K1, B = 1.2, 0.75

IDF_DF2 = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # cat, dog: ln 1.6
IDF_DF1 = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))  # ran: ln(8/3)
NORM_LEN3 = 1 - 0.75 + 0.75 * 3 / (8 / 3)  # 1.09375
NORM_LEN2 = 1 - 0.75 + 0.75 * 2 / (8 / 3)  # 0.8125


def tf_part(freq: int, norm: float) -> float:
    return freq * (1.2 + 1) / (freq + 1.2 * norm)


def test_hand_constants() -> None:
    assert math.isclose(IDF_DF2, 0.4700036292, abs_tol=1e-9)
    assert math.isclose(IDF_DF1, 0.9808292530, abs_tol=1e-9)
    assert math.isclose(NORM_LEN3, 1.09375)
    assert math.isclose(NORM_LEN2, 0.8125)
    assert math.isclose(tf_part(1, NORM_LEN3), 2.2 / 2.3125)
    assert math.isclose(tf_part(2, NORM_LEN3), 4.4 / 3.3125)
    assert math.isclose(tf_part(1, NORM_LEN2), 2.2 / 1.975)


def test_idf_is_lucenes() -> None:
    index = BM25Index(CORPUS, k1=K1, b=B)
    assert index.idf("cat") == pytest.approx(IDF_DF2, abs=1e-12)
    assert index.idf("ran") == pytest.approx(IDF_DF1, abs=1e-12)
    assert index.idf("unicorn") == 0.0
    assert lucene_idf(3, 2) == pytest.approx(IDF_DF2, abs=1e-12)
    # rank-bm25's own IDF would be ln((3 - 2 + 0.5) / (2 + 0.5)) < 0 here
    assert math.log(1.5 / 2.5) < 0 < index.idf("cat")


def test_scores_match_the_hand_computation() -> None:
    index = BM25Index(CORPUS, k1=K1, b=B)
    cat = index.scores(["cat"])
    np.testing.assert_allclose(
        cat, [IDF_DF2 * tf_part(1, NORM_LEN3), IDF_DF2 * tf_part(2, NORM_LEN3), 0.0], rtol=1e-12
    )
    np.testing.assert_allclose(cat, [0.4471385878, 0.6243067075, 0.0], rtol=1e-9)
    dog_ran = index.scores(["dog", "ran"])
    np.testing.assert_allclose(
        dog_ran,
        [0.0, IDF_DF2 * tf_part(1, NORM_LEN3), (IDF_DF2 + IDF_DF1) * tf_part(1, NORM_LEN2)],
        rtol=1e-12,
    )
    np.testing.assert_allclose(dog_ran, [0.0, 0.4471385878, 1.6161176410], rtol=1e-9)


def test_tiny_corpus_scores_are_positive() -> None:
    # rank-bm25's BM25Okapi scores 0 here: its idf ln((2 - 1 + 0.5)/(1 + 0.5)) = 0
    index = BM25Index([["alpha"], ["beta"]], k1=K1, b=B)
    scores = index.scores(["alpha"])
    assert scores[0] == pytest.approx(math.log(1 + 1.5 / 1.5) * 2.2 / (1 + 1.2), rel=1e-12)
    assert scores[1] == 0.0


def test_degenerate_inputs() -> None:
    empty = BM25Index([], k1=K1, b=B)
    assert empty.n_docs == 0
    assert empty.scores(["cat"]).shape == (0,)
    blank = BM25Index([[], []], k1=K1, b=B)  # avgdl 0: no division by zero
    np.testing.assert_array_equal(blank.scores(["cat"]), [0.0, 0.0])
    index = BM25Index(CORPUS, k1=K1, b=B)
    np.testing.assert_array_equal(index.scores([]), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(index.scores(["unicorn"]), [0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="k1"):
        BM25Index(CORPUS, k1=0.0, b=B)
    with pytest.raises(ValueError, match="b must"):
        BM25Index(CORPUS, k1=K1, b=1.5)
    with pytest.raises(ValueError, match="doc_freq"):
        lucene_idf(3, 4)


def test_embedded_store_uses_these_scores(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path, dim=DIM, bm25_k1=K1, bm25_b=B)
    store.open()
    try:
        docs = [make_memory("ns", " ".join(tokens)) for tokens in CORPUS]
        store.write("ns", WriteBatch(memories=docs))
        hits = store.text_search("ns", "Dog, ran!", 10)
        assert [h.memory_id for h in hits] == [docs[2].id, docs[1].id]
        assert hits[0].score == pytest.approx(1.6161176410, rel=1e-9)
        assert hits[1].score == pytest.approx(0.4471385878, rel=1e-9)
    finally:
        store.close()
