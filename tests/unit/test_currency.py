"""A newer claim outranks the older claim it contradicts (graphmem.retrieval.currency)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.retrieval.currency import prefer_newer
from graphmem.write.compat import Claim

OLD = datetime(2025, 1, 1, tzinfo=UTC)
NEW = datetime(2025, 6, 1, tzinfo=UTC)

CLAIMS = {
    "oslo": Claim("Nia lives in Oslo"),
    "seats": Claim("Nia prefers window seats"),
    "bergen": Claim("Nia lives in Bergen now"),
    "tea": Claim("Nia likes green tea"),
}
WHEN = {"oslo": OLD, "seats": OLD, "bergen": NEW, "tea": OLD}


def test_the_newer_contradicting_claim_moves_directly_above_the_older() -> None:
    close = {"oslo": 0.70, "seats": 0.40, "bergen": 0.66, "tea": 0.30}
    order, moved = prefer_newer(
        ["oslo", "seats", "bergen", "tea"], CLAIMS, WHEN, close, margin=0.05
    )
    assert order == ["bergen", "oslo", "seats", "tea"]
    assert moved == {"bergen": "oslo"}


def test_a_newer_claim_that_answers_the_question_worse_stays_below() -> None:
    close = {"oslo": 0.70, "seats": 0.68, "bergen": 0.60}  # bergen 0.10 below oslo
    order, moved = prefer_newer(["oslo", "seats", "bergen"], CLAIMS, WHEN, close, margin=0.05)
    assert order == ["oslo", "seats", "bergen"] and moved == {}


def test_an_older_claim_never_moves_up() -> None:
    when = {"oslo": NEW, "bergen": OLD}
    close = {"oslo": 0.60, "bergen": 0.70}
    order, moved = prefer_newer(["oslo", "bergen"], CLAIMS, when, close, margin=0.5)
    assert order == ["oslo", "bergen"] and moved == {}


def test_a_restatement_is_not_a_contradiction() -> None:
    claims = {"oslo": Claim("Nia lives in Oslo"), "again": Claim("Nia lives in Oslo.")}
    when = {"oslo": OLD, "again": NEW}
    order, moved = prefer_newer(
        ["oslo", "again"], claims, when, {"oslo": 0.7, "again": 0.7}, margin=0.5
    )
    assert order == ["oslo", "again"] and moved == {}


def test_another_subject_is_not_a_contradiction() -> None:
    claims = {"nia": Claim("Nia lives in Oslo"), "ove": Claim("Ove lives in Bergen")}
    when = {"nia": OLD, "ove": NEW}
    order, moved = prefer_newer(["nia", "ove"], claims, when, {"nia": 0.7, "ove": 0.7}, margin=0.1)
    assert order == ["nia", "ove"] and moved == {}


def test_memories_without_a_claim_neither_move_nor_are_moved_past() -> None:
    # verbatim source text (a dialogue turn) is not one claim: the pipeline leaves it out
    close = {"oslo": 0.70, "bergen": 0.70}
    claims = {"bergen": CLAIMS["bergen"]}
    order, moved = prefer_newer(["oslo", "bergen"], claims, WHEN, close, margin=0.05)
    assert order == ["oslo", "bergen"] and moved == {}
