"""The SPEC §9.10 compatibility rule on hand-built pairs: the changes issue 10 found
merged into the facts they replace must be incompatible, with the reason that names
what differs; restatements in other words must stay compatible."""

from __future__ import annotations

import doctest

import pytest

from graphmem.language import claims as compat
from graphmem.language.claims import Claim, Reason, check
from graphmem.models import MemoryCandidate


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("Sam's birthday is on 14 August", "Sam's birthday is on 15 August", Reason.DATES),
        ("Sam is allergic to penicillin", "Sam is not allergic to penicillin", Reason.NEGATION),
        ("Sam departs on 12 September", "Sam departs on 21 September", Reason.DATES),
        ("The flight leaves on May 3", "The flight leaves on May 4", Reason.DATES),
        ("Sam's trip is in March 2024", "Sam's trip is in April 2024", Reason.DATES),
        ("Sam's phone number is 555-0134", "Sam's phone number is 555-0199", Reason.NUMBERS),
        ("Sam's phone number is 555-0134", "Sam's phone number is 555-134-2", Reason.NUMBERS),
        ("Sam runs 5 km every morning", "Sam runs 10 km every morning", Reason.NUMBERS),
        ("Sam has two cats", "Sam has three cats", Reason.NUMBERS),
        ("Sam is engaged to Alex", "Sam is married to Alex", Reason.STATE),
        ("Elena is keeping kosher", "Elena is not keeping kosher anymore", Reason.NEGATION),
        ("Sam eats meat", "Sam no longer eats meat", Reason.NEGATION),
        ("Sam smokes", "Sam doesn't smoke", Reason.NEGATION),
        ("Sam is vegetarian", "Sam is vegan now", Reason.STATE),
        ("Sam loves sushi", "Sam hates sushi", Reason.STATE),
        ("Sam works at Northwind Health", "Sam works at Brightline", Reason.ENTITIES),
        ("Sam lives in Denver", "Sam lives in Boulder", Reason.ENTITIES),
        ("Sam's birthday is on 14 August", "Dana's birthday is on 14 August", Reason.SUBJECT),
    ],
)
def test_changed_claims_are_incompatible(old: str, new: str, reason: Reason) -> None:
    verdict = check(Claim(old), Claim(new))
    assert not verdict
    assert not verdict.compatible
    assert verdict.reason is reason
    assert verdict.detail  # says what differs
    # the verdict does not depend on the order
    assert check(Claim(new), Claim(old)).reason is reason


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Sam's birthday is on 14 August", "Sam was born on August 14th"),
        ("Sam's birthday is on 14 August", "Sam's birthday is the 14th of August."),
        ("Sam has two cats", "Sam has 2 cats."),
        ("Sam works at Northwind", "Sam works at Northwind Health"),
        ("Hiking is something Sam loves", "Sam loves hiking"),
        ("Sam is allergic to penicillin", "Sam has a penicillin allergy"),
        ("Elena is not keeping kosher anymore", "Elena stopped keeping kosher"),
        ("Sam is married to Alex", "Alex is Sam's husband"),
        ("I prefer window seats", "I like window seats on flights"),
        ("Sam's phone number is 555-0134", "You can reach Sam at 555-0134"),
    ],
)
def test_restatements_stay_compatible(old: str, new: str) -> None:
    verdict = check(Claim(old), Claim(new))
    assert verdict, verdict.detail
    assert verdict.reason is None and verdict.detail == ""


def test_triples_same_subject_and_predicate_need_the_same_object() -> None:
    old = Claim("Sam works at Northwind Health", "Sam", "works_at", "Northwind Health")
    new = Claim("Sam works at Brightline", "Sam", "works_at", "Brightline")
    assert check(old, new).reason is Reason.OBJECT
    # the same triple in other words is compatible
    again = Claim("Sam is employed by Northwind Health", "Sam", "works_at", "Northwind Health")
    assert check(old, again)
    # the object slot counts even when only one claim carries a triple
    plain = Claim("Sam is employed by Brightline")
    assert check(old, plain).reason is Reason.ENTITIES


def test_different_triple_subjects_are_distinct_not_a_conflict() -> None:
    verdict = check(
        Claim("Sam works at Northwind", "Sam", "works_at", "Northwind"),
        Claim("Dana works at Northwind", "Dana", "works_at", "Northwind"),
    )
    assert verdict.reason is Reason.SUBJECT
    assert not verdict.reason.is_conflict
    assert Reason.NUMBERS.is_conflict


def test_explicit_entity_names_count() -> None:
    old = Claim("My sister visits next week", names=("Priya",))
    new = Claim("My sister visits next week", names=("Maya",))
    assert check(old, new).reason is Reason.ENTITIES
    assert check(old, Claim("My sister Priya visits next week"))


def test_claim_of_memory_or_candidate() -> None:
    candidate = MemoryCandidate(
        content="Sam works at Brightline", subject="Sam", predicate="works_at", object="Brightline"
    )
    claim = Claim.of(candidate, ["Sam"])
    assert (claim.subject, claim.predicate, claim.object, claim.names) == (
        "Sam",
        "works_at",
        "Brightline",
        ("Sam",),
    )


def test_module_examples_run() -> None:
    result = doctest.testmod(compat)
    assert result.attempted >= 2
    assert result.failed == 0


def test_update_wins_by_spec_9_9() -> None:
    from datetime import UTC, datetime

    from graphmem.write import dedup
    from graphmem.write.dedup import update_wins

    t0, t1 = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC)
    # newer, equal confidence: the update wins (the seeds' single comparison kept the old)
    assert update_wins(0.75, t1, 0.75, t0, margin=0.15)
    # the older exceeds the newer by 0.10 ≤ 0.15: still the newer
    assert update_wins(0.70, t1, 0.80, t0, margin=0.15)
    # by 0.20 > 0.15: the older stays
    assert not update_wins(0.60, t1, 0.80, t0, margin=0.15)
    # margin 0: any lower confidence of the newer loses
    assert not update_wins(0.79, t1, 0.80, t0, margin=0.0)
    # a claim arriving now but observed earlier wins only by more than the margin
    assert not update_wins(0.80, t0, 0.75, t1, margin=0.15)
    assert update_wins(0.95, t0, 0.75, t1, margin=0.15)
    assert doctest.testmod(dedup).failed == 0
