"""Concept drift per entity (SPEC §10: distance > 0.4 AND relation overlap < 0.5).

Embeddings are hand-set 3-d vectors; every distance and overlap is worked out in the
comments.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graphmem.guards.drift import DriftPoint, entity_drift, relation_keys
from graphmem.models import Entity, Memory, Mention, Relation

T0 = datetime(2024, 1, 1, tzinfo=UTC)
DISTANCE, OVERLAP = 0.4, 0.5  # SPEC §10 defaults


def points(
    vectors: list[tuple[float, ...]], relations: list[set[str]], start: int = 0
) -> list[DriftPoint]:
    return [
        DriftPoint(
            T0 + timedelta(days=30 * (start + i)),
            f"m{start + i}",
            np.asarray(v, dtype=np.float64),
            frozenset(r),
        )
        for i, (v, r) in enumerate(zip(vectors, relations, strict=True))
    ]


def test_entity_merging_two_people_drifts() -> None:
    # "Jordan" the coworker (months 0-2) and "Jordan" the cousin (months 3-5)
    coworker = points([(1.0, 0.0, 0.0)] * 3, [{"WORKS_AT→Acme", "CO_MENTIONED Kim"}] * 3)
    cousin = points([(0.0, 1.0, 0.0)] * 3, [{"←COUSIN_OF Sam", "LIVES_IN→Ohio"}] * 3, start=3)
    jordan = Entity(id="e-jordan", namespace="ns", name="Jordan")
    found = entity_drift(
        jordan, cousin + coworker, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3
    )
    assert found is not None
    # centroids (1,0,0) and (0,1,0): cos 0 -> distance 1.0; overlap |{}| / 4 = 0.0
    assert found.distance == pytest.approx(1.0)
    assert found.relation_overlap == 0.0
    assert found.drift
    assert found.split_at == T0 + timedelta(days=90)
    assert found.before_ids == ("m0", "m1", "m2")
    assert found.after_ids == ("m3", "m4", "m5")
    assert found.describe().startswith(
        "entity Jordan: 2 senses since 2024-03 — distance 1.00, relation overlap 0.00"
    )


def test_job_change_is_not_drift_by_distance_alone() -> None:
    # Alex changes jobs at day 90 (2024-03-31): topics move (cos 0.5) but family and city stay
    after_vector = (0.5, math.sqrt(0.75), 0.0)
    before = points(
        [(1.0, 0.0, 0.0)] * 3, [{"WORKS_AT→Acme", "MARRIED_TO→Sam", "LIVES_IN→Boston"}] * 3
    )
    after = points(
        [after_vector] * 3,
        [{"WORKS_AT→Globex", "MARRIED_TO→Sam", "LIVES_IN→Boston"}] * 3,
        start=3,
    )
    alex = Entity(id="e-alex", namespace="ns", name="Alex")
    found = entity_drift(
        alex, before + after, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3
    )
    assert found is not None
    # distance = 1 - 0.5 = 0.5 > 0.4: distance alone would flag it ...
    assert found.distance == pytest.approx(0.5)
    assert found.distance > DISTANCE
    # ... but overlap = |{MARRIED_TO→Sam, LIVES_IN→Boston}| / 4 = 0.5, not < 0.5
    assert found.relation_overlap == pytest.approx(0.5)
    assert not found.drift
    assert found.describe().startswith("entity Alex: no drift since 2024-03")


def test_same_neighbours_lost_but_same_topic_is_not_drift() -> None:
    # neighbours change completely, topic does not: distance 0 -> no drift
    before = points([(1.0, 0.0, 0.0)] * 2, [{"CO_MENTIONED Kim"}] * 2)
    after = points([(1.0, 0.0, 0.0)] * 2, [{"CO_MENTIONED Lee"}] * 2, start=2)
    found = entity_drift(
        Entity(id="e", namespace="ns", name="E"),
        before + after,
        distance=DISTANCE,
        relation_overlap=OVERLAP,
        min_memories=2,
    )
    assert found is not None
    assert (found.distance, found.relation_overlap, found.drift) == (
        pytest.approx(0.0, abs=1e-9),
        0.0,
        False,
    )


def test_the_drifting_split_with_the_largest_distance_is_reported() -> None:
    # 5 memories, min 2 per side: splits after m1 and after m2.
    # vectors a=(1,0,0) ×2, then (0,1,0) ×3; relations change at the same point.
    pts = points(
        [(1.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 0.0)],
        [{"A"}, {"A"}, {"B"}, {"B"}, {"B"}],
    )
    found = entity_drift(
        Entity(id="e", namespace="ns", name="E"),
        pts,
        distance=DISTANCE,
        relation_overlap=OVERLAP,
        min_memories=2,
    )
    assert found is not None
    # split after m1: centroids (1,0,0) and (0,1,0) -> distance 1.0, overlap 0
    # split after m2: centroids (2,1,0)/|.| and (0,1,0) -> cos 1/sqrt(5) = 0.447,
    # distance 0.553; overlap {A,B} vs {B} = 0.5 -> no drift. The first wins.
    assert found.before_ids == ("m0", "m1")
    assert found.distance == pytest.approx(1.0)
    assert found.drift


def test_too_few_memories_or_one_time_point_gives_nothing() -> None:
    entity = Entity(id="e", namespace="ns", name="E")
    few = points([(1.0, 0.0, 0.0)] * 5, [set()] * 5)
    assert (
        entity_drift(entity, few, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3)
        is None
    )
    same_time = [
        DriftPoint(T0, f"m{i}", np.asarray((1.0, float(i), 0.0)), frozenset()) for i in range(6)
    ]
    assert (
        entity_drift(entity, same_time, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3)
        is None
    )


def test_relation_keys_direction_and_co_mention() -> None:
    memory = Memory.model_validate(
        {
            "id": "m",
            "namespace": "ns",
            "type": "Fact",
            "content": "Jordan works at Acme under Kim in Ohio",
            "source_level": "direct",
            "source_strength": 0.95,
            "extractor": "verbatim",
            "extractor_confidence": 1.0,
            "type_prior": 0.8,
            "n": 1,
            "confidence": 0.9,
            "created_at": T0,
            "last_observed_at": T0,
            "content_hash": "h",
            "mentions": [
                Mention(entity_id=i).model_dump() for i in ("jordan", "acme", "kim", "ohio")
            ],
        }
    )

    def rel(source: str, predicate: str, target: str) -> Relation:
        return Relation(
            id=f"{source}-{target}",
            namespace="ns",
            source_id=source,
            target_id=target,
            predicate=predicate,
            confidence=0.9,
            memory_id="m",
        )

    relations = [rel("jordan", "WORKS_AT", "acme"), rel("kim", "MANAGES", "jordan")]
    names = {"acme": "Acme", "kim": "Kim", "ohio": "Ohio"}
    assert relation_keys("jordan", memory, relations, names) == {
        "WORKS_AT→Acme",
        "←MANAGES Kim",
        "CO_MENTIONED Ohio",
    }


def test_one_sense_over_a_short_period_is_not_drift() -> None:
    # a one-week chat about Priya: topics jump (centroids (1,0,0) and (0,1,0), distance
    # 1.0) and each turn names other neighbours (overlap 0.0), one memory a day; the
    # memories span 5 days, under drift_min_span_days (30): no alarm, split still reported
    from graphmem.settings import Settings

    week = [
        DriftPoint(T0 + timedelta(days=i), f"m{i}", np.asarray(v, dtype=np.float64), frozenset(r))
        for i, (v, r) in enumerate(
            [((1.0, 0.0, 0.0), {"WORKS_AT→Brightline"})] * 3
            + [((0.0, 1.0, 0.0), {"←SISTER_OF Elena"})] * 3
        )
    ]
    priya = Entity(id="e-priya", namespace="ns", name="Priya")
    span = Settings().guards.drift_min_span_days
    assert span == 30.0
    found = entity_drift(
        priya, week, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3,
        min_span_days=span,
    )  # fmt: skip
    assert found is not None
    assert found.distance == pytest.approx(1.0) and found.relation_overlap == 0.0
    assert not found.drift
    # the same memories a month apart each: 2 senses
    spread = [
        DriftPoint(T0 + timedelta(days=30 * i), p.memory_id, p.embedding, p.relations)
        for i, p in enumerate(week)
    ]
    again = entity_drift(
        priya, spread, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3,
        min_span_days=span,
    )  # fmt: skip
    assert again is not None and again.drift


def test_a_week_of_talk_about_other_times_is_not_drift() -> None:
    # the chat of a week dates its events a year apart (time anchors: event times from
    # "last year" to "next June"); what was said still spans 5 days: no alarm
    week = [
        DriftPoint(
            T0 + timedelta(days=60 * i),  # the event each memory is about
            f"m{i}",
            np.asarray(v, dtype=np.float64),
            frozenset(r),
            observed_at=T0 + timedelta(days=i),  # when it was said
        )
        for i, (v, r) in enumerate(
            [((1.0, 0.0, 0.0), {"WORKS_AT→Brightline"})] * 3
            + [((0.0, 1.0, 0.0), {"←SISTER_OF Elena"})] * 3
        )
    ]
    priya = Entity(id="e-priya", namespace="ns", name="Priya")
    found = entity_drift(
        priya, week, distance=DISTANCE, relation_overlap=OVERLAP, min_memories=3,
        min_span_days=30.0,
    )  # fmt: skip
    assert found is not None and found.distance == pytest.approx(1.0)
    assert not found.drift
