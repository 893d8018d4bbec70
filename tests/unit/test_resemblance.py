"""Updates by resemblance (docs/updates.md "Updates by resemblance"): the one older
claim a newer claim with a change word clearly resembles most."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

from graphmem.models import Memory
from graphmem.write.resemblance import resembled, shift_cue, vector_cosines
from tests.contract.builders import make_memory

FLOOR, MARGIN = 0.45, 0.2  # the defaults (docs/updates.md)


def _at(degrees: float) -> tuple[float, float]:
    """A unit vector whose cosine with (1, 0) is cos(degrees)."""
    return (math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))


def _memory(mid: str, content: str, vector: Sequence[float]) -> Memory:
    return make_memory("n", content, id=mid, embedding=list(vector))


NEW = _memory(
    "new", "The Kombi finally died and Rafael bought a Strada pickup instead.", (1, 0)
)
#: another claim of the subject, far from everything (cosine 0 with NEW)
FAN = _memory("fan", "Rafael is a die-hard Corinthians fan.", (0, 1))


def test_the_claim_it_clearly_resembles_most_is_the_one_it_updates() -> None:
    car = _memory("car", "Rafael drives an old VW Kombi to the market at 4 a.m.", _at(50))  # 0.64
    job = _memory("job", "Rafael sells vegetables at the Ceagesp market.", _at(70))  # 0.34
    found = resembled(NEW, [job, car], partial(vector_cosines, NEW), FLOOR, MARGIN)
    assert found is not None
    assert found[0].id == "car"
    assert "cosine 0.64, the next 0.34" in found[1]


def test_below_the_floor_without_a_clear_lead_or_alone_it_updates_nothing() -> None:
    far = _memory("far", "Rafael drives an old VW Kombi to the market.", _at(64))  # 0.44
    assert resembled(NEW, [far, FAN], partial(vector_cosines, NEW), FLOOR, MARGIN) is None
    one = _memory("one", "Rafael drives an old VW Kombi to the market.", _at(50))  # 0.64
    two = _memory("two", "Rafael sells tomatoes at the Ceagesp.", _at(62))  # 0.47: 0.17 behind
    assert resembled(NEW, [one, two], partial(vector_cosines, NEW), FLOOR, MARGIN) is None
    assert resembled(NEW, [one, FAN], partial(vector_cosines, NEW), FLOOR, MARGIN) is not None
    assert (
        resembled(NEW, [one], partial(vector_cosines, NEW), FLOOR, MARGIN) is None
    )  # nothing to be nearer than


def test_without_a_change_word_a_new_claim_updates_nothing() -> None:
    plain = _memory("plain", "Rafael has a Fiat Strada pickup for the market.", (1, 0))
    car = _memory("car", "Rafael drives an old VW Kombi to the market.", _at(30))
    assert not shift_cue(plain.content)
    assert resembled(plain, [car, FAN], partial(vector_cosines, plain), FLOOR, MARGIN) is None
    for text in ("Sold the Fit.", "Handed in the taxi licence.", "She's owner and lead guide now."):
        assert shift_cue(text), text
    for text in ("Just a staff nurse for now.", "A gift from Nate.", "Took her kids to a park."):
        assert not shift_cue(text), text


def test_events_and_what_keeps_someone_safe_are_never_updated_by_resemblance() -> None:
    event = _memory("event", "Rafael drove the Kombi to Santos on Saturday.", _at(20))
    allergy = _memory("allergy", "Rafael is allergic to penicillin.", _at(20))
    assert resembled(NEW, [event, FAN], partial(vector_cosines, NEW), FLOOR, MARGIN) is None
    assert resembled(NEW, [allergy, FAN], partial(vector_cosines, NEW), FLOOR, MARGIN) is None
    safe = _memory("safe", "Rafael is vegan now.", (1, 0))
    milk = _memory("milk", "Rafael drinks a glass of milk every morning.", _at(20))
    assert resembled(safe, [milk, FAN], partial(vector_cosines, safe), FLOOR, MARGIN) is None


def test_claims_the_rules_read_as_attributes_on_both_sides_are_left_to_the_rules() -> None:
    new = _memory("new", "Lena works at Acme now.", (1, 0))
    home = _memory("home", "Lena lives in Portland.", _at(20))  # another attribute
    assert resembled(new, [home, FAN], partial(vector_cosines, new), FLOOR, MARGIN) is None
    unnamed = _memory("unnamed", "Lena spends her days at the Globex plant.", _at(20))
    assert resembled(new, [unnamed, FAN], partial(vector_cosines, new), FLOOR, MARGIN) is not None


def test_a_claim_given_as_a_triple_is_left_to_the_triple_rules() -> None:
    car = _memory("car", "Rafael drives an old VW Kombi to the market.", _at(30))
    given = NEW.model_copy(update={"subject": "Rafael", "predicate": "drives", "object": "Fiat"})
    assert resembled(given, [car, FAN], partial(vector_cosines, given), FLOOR, MARGIN) is None
    old = car.model_copy(update={"subject": "Rafael", "predicate": "drives", "object": "Kombi"})
    assert resembled(NEW, [old, FAN], partial(vector_cosines, NEW), FLOOR, MARGIN) is None
