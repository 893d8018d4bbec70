"""Advice brings the person's safety claims forward by relevance, and only those near the
question (graphmem.retrieval.ranking.attribute_rank; docs/updates.md "At recall"). The
cosines are set by hand: the rule's inputs, not a model's output."""

from datetime import UTC, datetime, timedelta

from graphmem.entities import EntityDictionary
from graphmem.models import Entity, Memory, Mention
from graphmem.retrieval.ranking.attribute_rank import question_first
from graphmem.settings import Settings

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
KNOWN = EntityDictionary([Entity(id="e-kofi", namespace="n", name="Kofi Mensah", kind="Person")])
QUESTION = "Should I bring a jug of palm wine to Kofi's birthday?"


def _claim(ident: str, text: str, day: int) -> Memory:
    when = T0 + timedelta(days=day)
    return Memory(id=ident, namespace="n", type="Fact", content=text, source_level="direct",
                  source_strength=0.95, extractor="verbatim", extractor_confidence=1.0,
                  type_prior=0.8, n=1, confidence=0.8, created_at=when, last_observed_at=when,
                  content_hash=ident, mentions=(Mention(entity_id="e-kofi", role="subject"),))  # fmt: skip


PILL = _claim("pill", "Kofi is on allopurinol for his gout; no organ meats for him.", 60)
WINE = _claim("wine", "Kofi has stopped drinking palm wine since a bad gout flare in May.", 30)
JOB = _claim("job", "Kofi works as a tailor in Kumasi.", 0)
COSINES = {"wine": 0.41, "job": 0.15, "pill": 0.10}  # the semantic list's order


def _first(settings: Settings) -> tuple[list[str], dict[str, str]]:
    order, why = question_first(
        [PILL, JOB, WINE], QUESTION, KNOWN, window=30, cut=10, settings=settings, cosines=COSINES
    )
    return [m.id for m in order], why


def test_with_the_guard_on_a_safety_claim_far_from_the_question_does_not_move() -> None:
    order, why = _first(Settings(attribute_similarity_margin=0.3))
    assert order[0] == "wine"
    assert "pill" not in why  # 0.10 is more than the margin (0.3) below 0.41
    assert order == ["wine", "pill", "job"]  # the rest keep the fused order


def test_by_default_both_move_and_the_nearer_comes_first() -> None:
    order, why = _first(Settings())  # the guard is off by default (2.0)
    assert {"pill", "wine"} <= set(why)
    assert order[:2] == ["wine", "pill"]  # by cosine, not by the fused order (pill was first)
