"""Settings: partial mapping overrides merge over the SPEC defaults (issue 10: the
docstring's own example ``GRAPHMEM_HALF_LIFE_DAYS='{"Event": 14}'`` replaced the
whole dict and recall died with ``KeyError: 'Preference'``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphmem import Settings

SPEC_HALF_LIVES = {"Entity": 365.0, "Fact": 180.0, "Relation": 180.0, "Preference": 90.0}


@pytest.mark.parametrize(
    ("env", "field", "given", "spec_rest"),
    [
        ("GRAPHMEM_HALF_LIFE_DAYS", "half_life_days", {"Event": 14.0}, SPEC_HALF_LIVES),
        (
            "GRAPHMEM_SOURCE_LEVELS",
            "source_levels",
            {"direct": 0.9},
            {"confirmed": 0.80, "strong_inference": 0.70, "speculation": 0.30},
        ),
        (
            "GRAPHMEM_TYPE_PRIORS",
            "type_priors",
            {"Relation": 0.6},
            {"Entity": 0.90, "Event": 0.85, "Fact": 0.80, "Preference": 0.75},
        ),
        (
            "GRAPHMEM_SALIENCE_DECAY",
            "salience_decay",
            {"Event": 0.2},
            {"Fact": 0.01, "Preference": 0.05, "Entity": 0.01, "Relation": 0.01},
        ),
    ],
)
def test_partial_mapping_from_env_merges_over_defaults(
    monkeypatch: pytest.MonkeyPatch,
    env: str,
    field: str,
    given: dict[str, float],
    spec_rest: dict[str, float],
) -> None:
    key, value = next(iter(given.items()))
    monkeypatch.setenv(env, f'{{"{key}": {value}}}')
    merged = getattr(Settings(), field)
    assert merged[key] == value
    for other, spec_value in spec_rest.items():
        assert merged[other] == spec_value
    # the same from a keyword argument
    assert getattr(Settings(**{field: given}), field)[key] == value
    assert set(getattr(Settings(**{field: given}), field)) == set(getattr(Settings(), field))


def test_unknown_key_names_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_HALF_LIFE_DAYS", '{"Evnt": 14}')
    with pytest.raises(ValidationError) as info:
        Settings()
    message = str(info.value)
    assert "half_life_days" in message
    assert "Evnt" in message
    assert "Event" in message  # the known keys are listed


def test_a_bad_value_in_a_partial_mapping_is_still_rejected() -> None:
    with pytest.raises(ValidationError, match="Event must be >= 0"):
        Settings(half_life_days={"Event": -1.0})


def test_update_margin_range() -> None:
    assert Settings().update_margin == 0.15
    assert Settings(update_margin=0.5).update_margin == 0.5
    for bad in (-0.01, 0.51):
        with pytest.raises(ValidationError, match="update_margin"):
            Settings(update_margin=bad)
