"""The learned order (graphmem.retrieval.ranking.learned): its features, the reorder, the
shipped weights."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import numpy as np
import pytest

from graphmem import GraphMem, Settings
from graphmem.models import Explanation, Memory, RecallHit, RetrieverScore
from graphmem.retrieval.ranking.learned import (
    FEATURES,
    LearnedOrder,
    Question,
    Reading,
    features,
    learned_order,
)

T0 = datetime(2025, 3, 1, tzinfo=UTC)
NOW_ASKED = Question(present=True, asked=frozenset({"residence"}))


def hit(
    ident: str,
    content: str,
    *,
    days: float = 0.0,
    semantic: tuple[int, float] | None = None,
    weight: float = 0.1,
    reordered: str | None = None,
    extractor: str = "verbatim",
    newer_than: str | None = None,
    triple: tuple[str, str, str] | None = None,
) -> RecallHit:
    said = dict(zip(("subject", "predicate", "object"), triple, strict=True)) if triple else {}
    memory = Memory.model_validate(
        {
            **said,
            "id": ident, "namespace": "ns", "type": "Fact", "content": content,
            "source_level": "direct", "source_strength": 0.95, "extractor": extractor,
            "extractor_confidence": 1.0, "type_prior": 0.8, "n": 1, "confidence": 0.9,
            "created_at": T0, "last_observed_at": T0 + timedelta(days=days),
            "content_hash": ident,
        }
    )  # fmt: skip
    retrievers = {"semantic": RetrieverScore(rank=semantic[0], score=semantic[1])} if semantic else {}
    explanation = Explanation(
        plan="hybrid", retrievers=retrievers, rrf=weight, freshness=1.0, access_boost=0.0,
        confidence=0.9, weight=weight, rerank="", renderable=True, reordered=reordered,
        newer_than=newer_than,
    )  # fmt: skip
    return RecallHit(memory=memory, weight=weight, explanation=explanation)


def mems(hits: list[RecallHit]) -> list[Memory]:
    return [h.memory for h in hits]


def column(rows: np.ndarray, name: str) -> list[float]:
    return [float(v) for v in rows[:, FEATURES.index(name)]]


HITS = [
    hit("old", "Mariam lives in Beirut.", semantic=(1, 0.6), weight=0.2),
    hit(
        "new", "Mariam has moved to Montreal now.", days=365.0, semantic=(4, 0.4), weight=0.1,
        reordered="moved up: the question asks for where the subject lives, which it states",
    ),
    hit("far", "In 2019 Mariam worked in Paris.", days=100.0, weight=0.05),
]


def test_features_read_position_cosine_rank_weight_rule_and_age() -> None:
    read = {
        "new": Reading("residence", "residence", about_asked=True),
        "far": Reading(None, "employer", about_other=True),
    }
    rows = features(HITS, NOW_ASKED, read)
    assert rows.shape == (3, len(FEATURES))
    assert column(rows, "first") == [1.0, 0.0, 0.0]
    assert column(rows, "log_position") == pytest.approx([0.0, math.log(2), math.log(3)])
    assert column(rows, "cosine") == pytest.approx([0.6, 0.4, -1.0])
    assert column(rows, "cosine_best") == [1.0, 0.0, 0.0]
    assert column(rows, "rank_semantic") == pytest.approx([1.0, 0.25, 0.0])
    assert column(rows, "weight_share") == pytest.approx([1.0, 0.5, 0.25])
    assert column(rows, "attribute_up") == [0.0, 1.0, 0.0]
    # ages in years before the newest of the list (365 days: one year)
    assert column(rows, "age_years") == pytest.approx([-1.0, 0.0, -265 / 365])
    assert column(rows, "newest") == [0.0, 1.0, 0.0]
    assert column(rows, "present_x_newest") == [0.0, 1.0, 0.0]
    assert column(rows, "vote_asked") == [0.0, 1.0, 0.0]
    assert column(rows, "lean_vote_other") == [0.0, 0.0, 1.0]
    assert column(rows, "about_asked_person") == [0.0, 1.0, 0.0]
    assert column(rows, "about_someone_else") == [0.0, 0.0, 1.0]
    assert column(rows, "change_cue") == [0.0, 1.0, 0.0]
    assert column(rows, "past") == [0.0, 0.0, 1.0]


def test_no_question_about_the_present_zeroes_the_present_interactions() -> None:
    rows = features(HITS, Question(present=False, asked=frozenset()), {})
    assert column(rows, "present_x_newest") == [0.0, 0.0, 0.0]
    assert column(rows, "vote_other") == [0.0, 0.0, 0.0]


def model_preferring(name: str, sign: float = 1.0) -> LearnedOrder:
    weights = np.zeros(len(FEATURES))
    weights[FEATURES.index(name)] = sign
    return LearnedOrder(weights, "test")


def test_reorders_the_first_depth_hits_by_score_and_explains_the_moves() -> None:
    out = learned_order(HITS, mems(HITS), NOW_ASKED, (None, model_preferring("newest")), depth=3)
    assert [h.memory.id for h in out] == ["new", "old", "far"]
    assert out[0].explanation.learned == "learned order: score 1.00, rule order 2"
    assert out[2].explanation.learned is None  # it kept its place


def test_only_the_first_depth_hits_move() -> None:
    out = learned_order(HITS, mems(HITS), NOW_ASKED, (None, model_preferring("cosine", -1.0)), depth=2)
    assert [h.memory.id for h in out] == ["new", "old", "far"]


@pytest.mark.parametrize("depth", [0, 1])
def test_depth_below_two_is_off(depth: int) -> None:
    out = learned_order(HITS, mems(HITS), NOW_ASKED, (None, model_preferring("newest")), depth=depth)
    assert [h.memory.id for h in out] == ["old", "new", "far"]


def test_no_model_and_transcripts_keep_the_rules_order() -> None:
    assert [h.memory.id for h in learned_order(HITS, mems(HITS), NOW_ASKED, (None, None), 10)] == [
        "old", "new", "far",
    ]  # fmt: skip
    turns = [hit("t1", "Caroline: I went to a support group."), *HITS]
    out = learned_order(turns, mems(turns), NOW_ASKED, (None, model_preferring("newest")), depth=10)
    assert [h.memory.id for h in out] == ["t1", "old", "new", "far"]


def test_ties_keep_the_rules_order() -> None:
    out = learned_order(HITS, mems(HITS), NOW_ASKED, (None, LearnedOrder(np.zeros(len(FEATURES)), "x")), 10)
    assert [h.memory.id for h in out] == ["old", "new", "far"]


def test_the_shipped_weights_cover_every_feature() -> None:
    shipped = LearnedOrder.shipped()
    assert shipped is not None, "learned_order.json missing or fitted on another feature list"
    assert shipped.weights.shape == (len(FEATURES),)
    assert np.all(np.isfinite(shipped.weights))
    assert "tune half" in shipped.trained_on


class _Clock:
    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> datetime:
        return self.at


def _recall(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, **settings: Any) -> list[RecallHit]:
    """Three claims told a month apart, then one question, with a model that wants the
    oldest first (the rules would never put it there)."""
    monkeypatch.setattr(LearnedOrder, "shipped", classmethod(lambda cls: model_preferring("age_years", -1.0)))
    clock = _Clock()
    memory = GraphMem(Settings(data_dir=tmp_path, neo4j_uri=None, **settings), clock=clock)
    try:
        for month, text in enumerate(["Ines plays the cello.", "Ines took up rowing.", "Ines now runs marathons."]):
            clock.at = T0 + timedelta(days=30 * month)
            memory.remember("ns", [{"content": text, "type": "Fact"}])
        clock.at = T0 + timedelta(days=100)
        return list(memory.recall("ns", "What does Ines do for sport?", k=10, record_access=False).hits)
    finally:
        memory.close()


def test_recall_applies_the_learned_order(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    hits = _recall(tmp_path, monkeypatch, learned_order_depth=10)
    assert hits[0].memory.content == "Ines plays the cello."
    assert [h.memory.last_observed_at for h in hits] == sorted(h.memory.last_observed_at for h in hits)
    assert any(h.explanation.learned for h in hits)


def test_on_by_default_and_depth_zero_turns_it_off(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _recall(tmp_path, monkeypatch)[0].memory.content == "Ines plays the cello."
    hits = _recall(tmp_path / "off", monkeypatch, learned_order_depth=0)
    assert all(h.explanation.learned is None for h in hits)
    assert hits[0].memory.content != "Ines plays the cello."


# What the learned order keeps (learned.kept_above): a model that wants the reverse of the
# rules' order (the oldest first, or the lowest cosine) meets each kind of certain evidence.
UP = "moved up: the question asks for the subject's partner, which it states"
PARTNER = frozenset({"partner"})


def _order(hits: list[RecallHit], question: Question, model: LearnedOrder) -> list[str]:
    return [h.memory.id for h in learned_order(hits, mems(hits), question, (None, model), 10)]


def test_a_newer_contradicting_claim_stays_above_the_older_unless_the_present_is_asked() -> None:
    pair = [
        hit("fjordlys", "Nia goes to Cafe Fjordlys every morning now", days=90, semantic=(2, 0.5),
            newer_than="solberg"),
        hit("solberg", "Nia goes to Cafe Solberg every morning", semantic=(1, 0.9)),
    ]  # fmt: skip
    by_cosine = model_preferring("cosine")
    assert _order(pair, Question(False, frozenset()), by_cosine) == ["fjordlys", "solberg"]
    held = learned_order(pair, mems(pair), Question(False, frozenset()), (None, by_cosine), 10)
    assert held[0].explanation.learned is None  # neither moved nor held
    assert held[1].explanation.learned == "learned order: score 0.90, rule order 2; kept below rule order 1"
    # for the present the rule may have moved on the question alone: the model weighs it
    assert _order(pair, Question(True, frozenset()), by_cosine) == ["solberg", "fjordlys"]


def test_a_triple_whose_predicate_is_the_asked_attribute_stays_above_the_rest() -> None:
    hits = [
        hit("lab", "Hakata Design Lab from Monday!", triple=("Haruka Mori", "works_at", "Hakata Design Lab")),
        hit("lunch", "Where I work, lunch is at noon sharp these days.", days=5),
        hit("late", "I work late on Thursdays.", days=3),
    ]  # fmt: skip
    newest = model_preferring("age_years")
    employer = Question(True, frozenset({"employer"}))
    assert _order(hits, employer, newest) == ["lab", "lunch", "late"]
    assert _order(hits, Question(True, frozenset({"residence"})), newest) == ["lunch", "late", "lab"]


def test_a_claim_the_attribute_rule_moved_up_stays_above_what_nothing_reads() -> None:
    hits = [
        hit("partner", "Nils has a new partner, Ingrid.", reordered=UP),
        hit("email", "Nils now uses a new email address instead of his work one.", days=300),
        hit("single", "Nils was single for years.", days=200),
    ]
    newest = model_preferring("age_years")
    assert _order(hits, Question(True, PARTNER), newest) == ["partner", "email", "single"]
    # a claim the nearest examples read as the asked attribute is weighed, not held below
    read = {"single": Reading("partner", "partner")}
    out = learned_order(hits, mems(hits), Question(True, PARTNER), (cast(Any, _Voting(read)), newest), 10)
    assert [h.memory.id for h in out] == ["single", "partner", "email"]


def test_for_the_present_the_newer_of_two_moved_up_values_stays_first() -> None:
    hits = [
        hit("seeing", "Update: I'm seeing someone! Kasia.", days=40, reordered=UP),
        hit("single", "I'm single at the moment.", reordered=UP, semantic=(1, 0.8)),
    ]
    by_cosine = model_preferring("cosine")
    assert _order(hits, Question(True, PARTNER), by_cosine) == ["seeing", "single"]
    assert _order(hits, Question(False, PARTNER), by_cosine) == ["single", "seeing"]


class _Voting:
    """Nearest-examples votes given per memory id (AttributeExamples' ``votes``)."""

    def __init__(self, read: dict[str, Reading]) -> None:
        self.read = read

    def votes(self, memories: list[Memory], lean: bool = False) -> dict[str, str]:
        got = {m.id: self.read[m.id] for m in memories if m.id in self.read}
        return {i: v for i, r in got.items() if (v := r.lean_vote if lean else r.vote)}
