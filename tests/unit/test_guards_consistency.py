"""The consistency scan's pair rule (SPEC §10 on §9.9–§9.10), on hand-built memories."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.entities import EntityDictionary
from graphmem.guards.consistency import (
    classify_pair,
    frame_overlap,
    resolve_pair,
    subject_entities,
)
from graphmem.models import Entity, Memory, Mention

T0 = datetime(2024, 1, 1, tzinfo=UTC)
ALICE = Entity(id="e-alice", namespace="ns", name="Alice")
GOOGLE = Entity(id="e-google", namespace="ns", name="Google")
DICTIONARY = EntityDictionary([ALICE, GOOGLE])


def memory(
    ident: str,
    content: str,
    *,
    days: int = 0,
    confidence: float = 0.8,
    type: str = "Fact",
    mentions: tuple[Mention, ...] = (Mention(entity_id="e-alice", role="subject"),),
) -> Memory:
    return Memory.model_validate(
        {
            "id": ident,
            "namespace": "ns",
            "type": type,
            "content": content,
            "source_level": "direct",
            "source_strength": 0.95,
            "extractor": "verbatim",
            "extractor_confidence": 1.0,
            "type_prior": 0.8,
            "n": 1,
            "confidence": confidence,
            "created_at": T0,
            "last_observed_at": T0 + timedelta(days=days),
            "content_hash": ident,
            "mentions": [m.model_dump() for m in mentions],
        }
    )


def test_a_contradiction_is_a_conflict() -> None:
    finding = classify_pair(
        memory("a", "Alice works at Google"),
        memory("b", "Alice works at Microsoft"),
        DICTIONARY,
    )
    assert finding is not None and finding.kind == "conflict"
    assert finding.why.startswith("entities:")


@pytest.mark.parametrize(
    ("first", "second", "reason"),
    [
        ("Alice's birthday is on 14 August", "Alice's birthday is on 15 August", "dates"),
        ("Alice has 2 kids", "Alice has 3 kids", "numbers"),
        ("Alice is allergic to peanuts", "Alice is not allergic to peanuts", "negation"),
    ],
)
def test_two_values_of_one_thing_conflict(first: str, second: str, reason: str) -> None:
    finding = classify_pair(memory("a", first), memory("b", second), DICTIONARY)
    assert finding is not None
    assert (finding.kind, finding.compatibility.reason) == ("conflict", reason)


def test_a_compatible_restatement_is_left_alone() -> None:
    # same subject, date (08-14), no names beyond Alice, no negation: compatible
    assert (
        classify_pair(
            memory("a", "Alice's birthday is on 14 August"),
            memory("b", "Alice was born on August 14th"),
            DICTIONARY,
        )
        is None
    )


def test_another_subject_is_not_a_conflict() -> None:
    assert (
        classify_pair(
            memory("a", "Alice lives in Paris"),
            memory("b", "Bob lives in Paris", mentions=(Mention(entity_id="e-bob"),)),
            DICTIONARY,
        )
        is None
    )


def test_detail_on_one_side_and_repeated_events_are_ambiguous() -> None:
    one_sided = classify_pair(
        memory("a", "Alice moved to Berlin in 2021"),
        memory("b", "Alice lives in Berlin"),
        DICTIONARY,
    )
    assert one_sided is not None and one_sided.kind == "one-sided"
    events = classify_pair(
        memory("a", "Alice ran a race on 3 May 2023", type="Event"),
        memory("b", "Alice ran a race on 10 May 2023", type="Event"),
        DICTIONARY,
    )
    assert events is not None and events.kind == "event"


def test_resolution_follows_section_9_9() -> None:
    older = memory("a", "Alice works at Google", days=0, confidence=0.8)
    newer = memory("b", "Alice works at Microsoft", days=30, confidence=0.8)
    # equal confidence: the later observation stays current
    kept, lost, why = resolve_pair(older, newer, margin=0.15)
    assert (kept.id, lost.id) == ("b", "a")
    assert "later observation" in why
    # older 0.95 vs newer 0.79: 0.16 > 0.15 -> the older stays
    sure = memory("a", "Alice works at Google", days=0, confidence=0.95)
    unsure = memory("b", "Alice works at Microsoft", days=30, confidence=0.79)
    kept, lost, why = resolve_pair(unsure, sure, margin=0.15)
    assert (kept.id, lost.id) == ("a", "b")
    assert "by more than update_margin 0.15" in why
    # 0.95 vs 0.81: 0.14 <= 0.15 -> the later one stays
    closer = memory("b", "Alice works at Microsoft", days=30, confidence=0.81)
    assert resolve_pair(sure, closer, margin=0.15)[0].id == "b"


def test_subject_entities_prefer_the_subject_role() -> None:
    both = memory(
        "a",
        "Alice works at Google",
        mentions=(
            Mention(entity_id="e-alice", role="subject"),
            Mention(entity_id="e-google", role="object"),
        ),
    )
    assert subject_entities(both) == {"e-alice"}
    plain = memory(
        "b",
        "Alice works at Google",
        mentions=(Mention(entity_id="e-alice"), Mention(entity_id="e-google")),
    )
    assert subject_entities(plain) == {"e-alice", "e-google"}


def test_different_frames_are_not_a_contradiction() -> None:
    # two different events of one person: other names, but no common slot
    first = "Caroline found a vibrant rainbow sidewalk during Pride Month, which moved her."
    second = "Caroline attended an LGBTQ+ pride parade last week and felt she belonged."
    # frames {caroline, found, vibrant, rainbow, sidewalk, pride, moved} and {caroline,
    # attended, pride, parade, last, week, felt, belonged}: 2 shared of 13 -> 0.15 < 0.5
    assert frame_overlap(first, second) == pytest.approx(2 / 13)
    finding = classify_pair(
        memory("a", first, mentions=(Mention(entity_id="e-alice"),)),
        memory("b", second, mentions=(Mention(entity_id="e-alice"),)),
        DICTIONARY,
    )
    assert finding is not None and finding.kind == "other-frame"
    # one frame, two values: {alice, work} on both sides -> 1.0
    assert frame_overlap("Alice works at Google", "Alice works at Microsoft") == 1.0
