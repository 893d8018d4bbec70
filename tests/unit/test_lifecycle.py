"""The consolidation pass's decisions as pure functions (SPEC §3 freshness, §4, §9.5),
against hand-computed values and properties."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem import Memory, Settings
from graphmem.scoring import freshness, is_retrievable, unretrievable_after_days
from graphmem.write.consolidation import lifecycle_state
from tests.contract.builders import make_memory

T0 = datetime(2024, 1, 1, tzinfo=UTC)
SETTINGS = Settings()


def test_unretrievable_after_days_by_hand() -> None:
    # θ(0.85) = 0.225: 2^(-age/90) < 0.225 after 90·log2(1/0.225) = 193.68 days
    assert unretrievable_after_days(90, 0.0, 0.85, floor=0.1, factor=1.5) == pytest.approx(
        193.6803, abs=1e-4
    )
    # stability 0.5 stretches τ to 135 days: 290.52
    assert unretrievable_after_days(90, 0.5, 0.85, floor=0.1, factor=1.5) == pytest.approx(
        290.5204, abs=1e-4
    )
    # conf 0.2: θ = min(1, 1.2) = 1, unretrievable as soon as it ages
    assert unretrievable_after_days(90, 0.0, 0.2, floor=0.1, factor=1.5) == 0.0
    # conf 0.95: θ = 0.075 below the freshness floor 0.1, never
    assert unretrievable_after_days(90, 0.0, 0.95, floor=0.1, factor=1.5) == math.inf


@given(
    half_life=st.floats(1.0, 1000.0),
    stability=st.floats(0.0, 1.0),
    conf=st.floats(0.0, 1.0),
)
def test_unretrievable_after_days_agrees_with_is_retrievable(
    half_life: float, stability: float, conf: float
) -> None:
    after = unretrievable_after_days(half_life, stability, conf, floor=0.1, factor=1.5)
    if math.isinf(after):
        fresh = freshness(1e6, half_life, stability, floor=0.1)
        assert is_retrievable(fresh, conf, factor=1.5)
        return
    for age, expected in ((after * 0.99 - 1e-6, True), (after * 1.01 + 1e-6, False)):
        if age < 0:
            continue
        fresh = freshness(age, half_life, stability, floor=0.1)
        assert is_retrievable(fresh, conf, factor=1.5) is expected


def pref(conf: float, **fields: Any) -> Memory:
    return make_memory(
        "ns", "Ro prefers window seats", type="Preference", confidence=conf, **fields
    )


@pytest.mark.parametrize(
    ("days", "fields", "expected"),
    [
        (90, {}, (True, "hot")),  # SPEC §9.5: conf 0.85 still retrievable after 90 days
        (200, {}, (False, "hot")),  # unretrievable since 193.68 days: 6.3 days
        (283, {}, (False, "hot")),  # 89.32 days: not more than 90
        (284, {}, (False, "cold")),  # 90.32 days
        (284, {"last_accessed_at": T0 + timedelta(days=250)}, (False, "hot")),  # 34 days
        (341, {"last_accessed_at": T0 + timedelta(days=250)}, (False, "cold")),  # 91 days
        (100, {"tier": "cold", "retrievable": False}, (True, "hot")),  # retrievable again
        (200, {"tier": "cold", "retrievable": False}, (False, "cold")),  # stays cold
    ],
)
def test_lifecycle_state_by_hand(
    days: int, fields: dict[str, Any], expected: tuple[bool, str]
) -> None:
    memory = pref(0.85, observed_at=T0, **fields)
    assert lifecycle_state(memory, T0 + timedelta(days=days), SETTINGS) == expected


def test_lifecycle_state_at_seed_002_low_confidence() -> None:
    # SPEC §9.5: a Preference at conf 0.45 is not retrievable at 45 days (0.707 < 0.825)
    memory = pref(0.45, observed_at=T0)
    assert lifecycle_state(memory, T0 + timedelta(days=45), SETTINGS) == (False, "hot")


@pytest.mark.parametrize(
    "content",
    [
        "Ro is allergic to peanuts.",
        "Ro takes warfarin every morning.",
        "Asthma since I was a kid. The blue inhaler comes everywhere with me.",
    ],
)
def test_a_claim_that_keeps_its_subject_safe_stays_retrievable_unused(content: str) -> None:
    # docs/spec.md §9.5: an allergy, a medication or a health condition stays hot however
    # long it goes unused; the window-seat preference beside it went cold at day 284
    memory = make_memory("ns", content, type="Preference", confidence=0.85, observed_at=T0)
    assert lifecycle_state(memory, T0 + timedelta(days=400), SETTINGS) == (True, "hot")
    superseded = memory.model_copy(update={"superseded_by": "newer"})
    assert lifecycle_state(superseded, T0 + timedelta(days=400), SETTINGS) == (False, "cold")
    assert lifecycle_state(pref(0.85, observed_at=T0), T0 + timedelta(days=400), SETTINGS) == (
        False,
        "cold",
    )
