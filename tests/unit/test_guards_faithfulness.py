"""Read-time faithfulness (SPEC §10; seed 001 "Faithfulness and Grounding").

Embeddings are hand-set 4-d unit vectors, so every cosine below is worked out by hand
in the comments; the threshold is SPEC §10's 0.80.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import pytest

from graphmem.entities import EntityDictionary
from graphmem.guards.claims import (
    claim_terms,
    is_critical,
    resolve_pronouns,
    risk_level,
    split_claims,
)
from graphmem.guards.faithfulness import check_faithfulness
from graphmem.guards.judge import ClaimVerdict
from graphmem.models import Entity, Memory, Mention
from graphmem.store.base import Vector

T0 = datetime(2024, 3, 1, tzinfo=UTC)
E1 = (1.0, 0.0, 0.0, 0.0)
E2 = (0.0, 1.0, 0.0, 0.0)
E3 = (0.0, 0.0, 1.0, 0.0)
E4 = (0.0, 0.0, 0.0, 1.0)
# cos(NEAR_E2, E2) = 0.9; |NEAR_E2| = sqrt(0.81 + 0.19) = 1
NEAR_E2 = (0.0, 0.9, math.sqrt(0.19), 0.0)
# cos(FAR_E1, E1) = 0.7 < 0.80
FAR_E1 = (0.7, 0.0, 0.0, math.sqrt(0.51))


class TableEmbedder:
    """Returns the hand-set vector of each known text (unknown text: a test bug)."""

    name = "table"
    dim = 4

    def __init__(self, table: dict[str, tuple[float, ...]]) -> None:
        self.table = table

    def embed(self, texts: Sequence[str]) -> Vector:
        return np.asarray([self.table[t] for t in texts], dtype=np.float32)


def memory(ident: str, content: str, vector: tuple[float, ...], **fields: object) -> Memory:
    values: dict[str, object] = {
        "id": ident,
        "namespace": "ns",
        "type": "Fact",
        "content": content,
        "source_level": "direct",
        "source_strength": 0.95,
        "extractor": "verbatim",
        "extractor_confidence": 1.0,
        "type_prior": 0.8,
        "n": 1,
        "confidence": 0.9,
        "created_at": T0,
        "last_observed_at": T0,
        "content_hash": ident,
        "embedding": vector,
    }
    values.update(fields)
    return Memory.model_validate(values)


MEMORIES = [
    memory("m1", "Alice works at Google.", E1),
    memory("m2", "Bob has three kids.", E2),
    memory("m3", "Alice moved to Berlin in 2021.", E3),
]
EMBEDDER = TableEmbedder(
    {
        "Alice works at Google.": E1,
        "Bob has three kids.": E2,
        "Alice moved to Berlin in 2021.": E3,
        "Bob has four kids.": NEAR_E2,  # cosine 0.9 to m2, but "4" is not in it
        "The weather was lovely.": E4,  # cosine 0 to all: unsupported, not critical
        "Alice works at Microsoft.": E1,  # cosine 1.0 to m1, but "Microsoft" is not in it
        "Alice moved to Paris in 2020.": E3,  # cosine 1.0 to m3, lacks Paris and 2020
        "Alice works for Google.": FAR_E1,  # every term present, cosine 0.7 < 0.8
        "Alice moved to Berlin in 2021": E3,
    }
)


def check(answer: str, memories: Sequence[Memory] = MEMORIES) -> object:
    return check_faithfulness(answer, memories, EMBEDDER, similarity=0.80)


def test_all_supported_risk_none() -> None:
    report = check_faithfulness(
        "Alice works at Google. Bob has three kids.", MEMORIES, EMBEDDER, similarity=0.80
    )
    # two claims, each restates one memory exactly (cosine 1.0, all terms present)
    assert [c.claim for c in report.claims] == ["Alice works at Google.", "Bob has three kids."]
    assert [c.memory_id for c in report.claims] == ["m1", "m2"]
    assert all(c.supported for c in report.claims)
    assert (report.supported, report.total, report.faithfulness) == (2, 2, 1.0)
    assert report.risk == "none"
    assert report.method == "offline"


def test_one_changed_number_is_critical_risk_medium() -> None:
    report = check_faithfulness(
        "Alice works at Google. Bob has four kids.", MEMORIES, EMBEDDER, similarity=0.80
    )
    second = report.claims[1]
    # cosine 0.9 >= 0.8 to m2, but the claim's number 4 is not among m2's numbers {3}
    assert not second.supported
    assert second.memory_id == "m2"
    assert second.similarity == pytest.approx(0.9, abs=1e-4)
    assert second.missing == ("4",)
    assert second.critical  # it carries a number
    # 1 supported of 2 -> 0.5; 1 unsupported, 1 critical -> medium
    assert (report.faithfulness, report.unsupported_critical, report.risk) == (0.5, 1, "medium")


def test_one_unsupported_non_critical_claim_risk_low() -> None:
    report = check_faithfulness(
        "Alice works at Google. The weather was lovely.", MEMORIES, EMBEDDER, similarity=0.80
    )
    weather = report.claims[1]
    assert not weather.supported and not weather.critical
    assert weather.similarity == pytest.approx(0.0)
    assert "cosine 0.00 < 0.80" in weather.reason
    assert (report.faithfulness, report.risk) == (0.5, "low")


def test_three_unsupported_claims_risk_high() -> None:
    answer = "Alice works at Microsoft. Bob has four kids. Alice moved to Paris in 2020."
    report = check_faithfulness(answer, MEMORIES, EMBEDDER, similarity=0.80)
    # swapped name (Microsoft), changed number (4), invented move (Paris, 2020)
    assert [c.missing for c in report.claims] == [
        ("Microsoft",),
        ("4",),
        ("2020", "Paris"),
    ]
    assert (report.supported, report.total, report.faithfulness) == (0, 3, 0.0)
    assert (report.unsupported_critical, report.risk) == (3, "high")


def test_terms_present_but_cosine_below_threshold_is_unsupported() -> None:
    report = check_faithfulness("Alice works for Google.", MEMORIES, EMBEDDER, similarity=0.80)
    claim = report.claims[0]
    # cosine 0.7 to m1 < 0.80, though Alice and Google are both in m1
    assert not claim.supported
    assert claim.similarity == pytest.approx(0.7, abs=1e-4)
    assert claim.missing == ()
    # the same at threshold 0.65: supported by m1
    lower = check_faithfulness("Alice works for Google.", MEMORIES, EMBEDDER, similarity=0.65)
    assert lower.claims[0].supported and lower.claims[0].memory_id == "m1"


def test_no_memories_and_empty_answer() -> None:
    report = check_faithfulness("Alice works at Google.", [], EMBEDDER, similarity=0.80)
    assert not report.claims[0].supported and report.claims[0].memory_id is None
    assert report.risk == "medium"  # one unsupported critical claim (names)
    empty = check_faithfulness("   ", MEMORIES, EMBEDDER, similarity=0.80)
    assert (empty.total, empty.faithfulness, empty.risk) == (0, 1.0, "none")


def test_event_time_and_alias_count_as_present() -> None:
    dated = memory(
        "m4",
        "Caroline went to the support group yesterday.",
        E1,
        event_time=datetime(2023, 5, 7, tzinfo=UTC),
        mentions=(Mention(entity_id="e-caroline"),),
    )
    embedder = TableEmbedder(
        {"Caro went to the support group on 7 May 2023.": E1, dated.content: E1}
    )
    dictionary = EntityDictionary(
        [Entity(id="e-caroline", namespace="ns", name="Caroline", aliases=("Caro",))]
    )
    report = check_faithfulness(
        "Caro went to the support group on 7 May 2023.",
        [dated],
        embedder,
        similarity=0.80,
        dictionary=dictionary,
    )
    # 7, May, 2023 come from the event time; "Caro" is an alias of the mentioned entity
    assert report.claims[0].supported, report.claims[0].reason
    without = check_faithfulness(
        "Caro went to the support group on 7 May 2023.", [dated], embedder, similarity=0.80
    )
    assert without.claims[0].missing == ("Caro",)


class FixedJudge:
    name = "fixed-judge"

    def __init__(self) -> None:
        self.seen: list[tuple[str, list[str]]] = []

    def judge_claim(self, claim: str, memories: Sequence[Memory]) -> ClaimVerdict:
        self.seen.append((claim, [m.id for m in memories]))
        if "four" in claim:
            return ClaimVerdict(False, None, "m2 says three")
        return ClaimVerdict(True, memories[0].id, "entailed")


def test_judge_decides_each_claim() -> None:
    judge = FixedJudge()
    report = check_faithfulness(
        "Alice works at Google. Bob has four kids.",
        MEMORIES,
        EMBEDDER,
        similarity=0.80,
        judge=judge,
    )
    assert report.method == "fixed-judge"
    assert [c.supported for c in report.claims] == [True, False]
    assert report.claims[1].reason == "m2 says three"
    assert report.claims[1].memory_id == "m2"  # the closest shown, for the reader
    # the judge saw each claim's memories closest first: m1 for claim 1, m2 for claim 2
    assert [ids[0] for _, ids in judge.seen] == ["m1", "m2"]


@pytest.mark.parametrize(
    ("unsupported", "critical", "expected"),
    [
        (0, 0, "none"),
        (1, 0, "low"),
        (2, 0, "low"),
        (1, 1, "medium"),
        (2, 1, "medium"),
        (2, 2, "medium"),
        (3, 0, "high"),
        (3, 3, "high"),
        (7, 1, "high"),
    ],
)
def test_risk_levels_follow_the_seed_table(unsupported: int, critical: int, expected: str) -> None:
    assert risk_level(unsupported, critical) == expected


def test_risk_level_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        risk_level(1, 2)
    with pytest.raises(ValueError):
        risk_level(-1, 0)


def test_split_claims_sentences_and_clauses() -> None:
    answer = (
        "Dr. Smith met Alice on 3 May; she was tired. Alice likes tea, but Bob prefers"
        " coffee and cake! Alice and Bob went to Rome, and stayed."
    )
    assert split_claims(answer) == [
        "Dr. Smith met Alice on 3 May",
        "she was tired.",
        "Alice likes tea",
        "Bob prefers coffee and cake!",
        # "stayed" is too short to stand alone: it stays with its clause
        "Alice and Bob went to Rome, stayed.",
    ]
    assert split_claims("") == []


def test_claim_terms_numbers_dates_names() -> None:
    terms = claim_terms("On Monday Alice paid $1,200 for twenty-five books on May 3rd, 2023.")
    assert terms.numbers == {"1200", "20", "5", "3", "2023"}
    assert terms.dates == {"monday", "may"}
    assert terms.names == ("Alice",)
    # sentence-initial ordinary words, months, "I" and the verb "may" are not names
    plain = claim_terms("The cat may sleep. I think so. Yesterday it rained.")
    assert (plain.names, plain.dates, plain.numbers) == ((), frozenset(), frozenset())


def test_critical_claims() -> None:
    assert is_critical("Bob has 3 kids")  # number
    assert is_critical("she lives with Bob")  # name
    assert is_critical("she is allergic to peanuts")  # health
    assert is_critical("the rent went up")  # money
    assert is_critical("her birthday is soon")  # identity
    assert not is_critical("she likes long walks")


def test_resolve_pronouns() -> None:
    claims = ["Alice moved to Berlin", "she likes it there", "her cat is old", "it rains"]
    assert resolve_pronouns(claims) == [
        "Alice moved to Berlin",
        "Alice likes it there",
        "Alice's cat is old",
        "it rains",
    ]
