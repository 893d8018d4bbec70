"""Settings: partial mapping overrides merge over the SPEC defaults (issue 10: the
docstring's own example ``GRAPHMEM_HALF_LIFE_DAYS='{"Event": 14}'`` replaced the
whole dict and recall died with ``KeyError: 'Preference'``); settings grouped by concern
keep their flat names as keywords, copies and environment variables, and a mistyped name
is an error naming the closest setting (docs/configuration.md)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from graphmem import Settings
from graphmem.settings import LEAF_PATHS, field_info
from graphmem.settings.sources import walk

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
    merged = Settings().lookup(field)
    assert merged[key] == value
    for other, spec_value in spec_rest.items():
        assert merged[other] == spec_value
    # the same from a keyword argument
    assert Settings(**{field: given}).lookup(field)[key] == value
    assert set(Settings(**{field: given}).lookup(field)) == set(Settings().lookup(field))


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
    assert Settings().write.update_margin == 0.15
    assert Settings(update_margin=0.5).write.update_margin == 0.5
    for bad in (-0.01, 0.51):
        with pytest.raises(ValidationError, match="update_margin"):
            Settings(update_margin=bad)


# --- settings by concern ------------------------------------------------------------


def test_flat_keyword_and_nested_form_set_the_same_field() -> None:
    flat = Settings(rrf_k=80, dedup_duplicate=0.9)
    nested = Settings(read={"fusion": {"rrf_k": 80}}, write={"dedup_duplicate": 0.9})
    assert flat == nested
    assert flat.read.fusion.rrf_k == 80
    assert flat.write.dedup_duplicate == 0.9
    # the other fields of the touched concern keep their defaults
    assert flat.read.fusion.top_k == 10
    assert flat.read.fusion.retriever_weights["bm25"] == 1.5


def test_flat_environment_names_keep_working(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_RRF_K", "80")
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", "bolt://example:7687")
    monkeypatch.setenv("GRAPHMEM_RETRIEVER_WEIGHTS", '{"bm25": 2.0}')
    monkeypatch.setenv("graphmem_drift_min_memories", "7")  # case-insensitive, as before
    got = Settings()
    assert got.read.fusion.rrf_k == 80
    assert got.store.neo4j_uri == "bolt://example:7687"
    assert got.read.fusion.retriever_weights == {
        "semantic": 0.0,
        "bm25": 2.0,
        "entity": 0.0,
        "temporal": 0.0,
        "graph": 0.0,
    }
    assert got.guards.drift_min_memories == 7
    # a keyword wins over the environment, flat or nested
    assert Settings(rrf_k=20).read.fusion.rrf_k == 20
    assert Settings(read={"fusion": {"rrf_k": 30}}).read.fusion.rrf_k == 30
    assert Settings(read={"fusion": {"top_k": 3}}).read.fusion.rrf_k == 80


def test_bad_json_in_the_environment_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_HOP_SCORES", "1, 0.5")
    with pytest.raises(ValueError, match="GRAPHMEM_HOP_SCORES"):
        Settings()


@pytest.mark.parametrize(
    ("make", "closest"),
    [
        (lambda: Settings(rrf=80), "rrf_k"),
        (lambda: Settings(read={"fusion": {"rff_k": 80}}), "rrf_k"),
        (lambda: Settings(reed={"fusion": {"rrf_k": 80}}), "read"),
        (lambda: Settings().model_copy(update={"half_life_day": {"Event": 3.0}}), "half_life_days"),
    ],
)
def test_an_unknown_name_is_an_error_naming_the_closest(make: Any, closest: str) -> None:
    with pytest.raises(ValidationError, match=f"did you mean '{closest}'"):
        make()


def test_model_copy_routes_flat_names_and_validates() -> None:
    base = Settings(top_k=7)
    copy = base.model_copy(update={"rrf_k": 80, "graph_concepts": False})
    assert copy.read.fusion.rrf_k == 80
    assert copy.read.graph.graph_concepts is False
    assert copy.read.fusion.top_k == 7  # what the copy does not update stays
    assert base.read.fusion.rrf_k == 10  # the original is unchanged
    nested = base.model_copy(update={"read": {"fusion": {"rrf_k": 80}}})
    assert nested.read.fusion.rrf_k == 80
    assert nested.read.fusion.top_k == 7
    with pytest.raises(ValidationError, match="rrf_k"):
        base.model_copy(update={"rrf_k": 5})  # below docs/spec.md §8's 10-200


def test_settings_and_their_concerns_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(ValidationError):
        settings.read.fusion.rrf_k = 80  # type: ignore[misc]
    with pytest.raises(ValidationError):
        settings.read = settings.read  # type: ignore[misc]


def test_every_setting_has_a_unique_flat_name_and_a_description() -> None:
    paths = [path for path, _ in walk(Settings)]
    assert len(paths) == len({path[-1] for path in paths}) == len(LEAF_PATHS)
    assert len(paths) >= 137  # every constant of the flat class it replaced
    assert LEAF_PATHS["rrf_k"] == ("read", "fusion", "rrf_k")
    assert LEAF_PATHS["neo4j_uri"] == ("store", "neo4j_uri")
    assert LEAF_PATHS["drift_distance"] == ("guards", "drift_distance")
    missing = [path for path, info in walk(Settings) if not (info.description or "").strip()]
    assert not missing
    with pytest.raises(ValueError, match="did you mean 'rrf_k'"):
        field_info("rrf")


def test_presets_name_the_variants_the_defaults_replaced() -> None:
    spec = Settings.preset("spec")
    assert spec.read.fusion.rrf_k == 60  # docs/spec.md §3 "Fusion"
    assert spec.read.fusion.retriever_weights["graph"] == 0.8
    assert spec.read.planning.entity_centric_weight == 2.0
    assert spec.read.ranking.freshness_mode == "weight"
    assert spec.read.ranking.access_mode == "weight"
    assert spec.read.graph.graph_traversal == "classic"
    assert Settings.preset("spec", rrf_k=20).read.fusion.rrf_k == 20
    assert Settings.preset("session_support_mass").read.fusion.session_support_mode == "mass"
    seeds = Settings.preset("concept_seeds_nearest").read.graph.graph_concept_seed_source
    assert seeds == "nearest"
    with pytest.raises(ValueError, match="did you mean 'spec'"):
        Settings.preset("spek")
