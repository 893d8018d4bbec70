"""The write and read pipelines through the facade, on every store (SPEC §2–§4).

Expected numbers are computed by hand from SPEC formulas in comments, not by
calling the code under test.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from graphmem import GraphMem, InvalidMemoryError, InvalidQueryError, MemoryNotFoundError, Settings
from graphmem.store.base import MemoryStore
from graphmem.text import entity_id
from tests.contract.facades import facade, release
from tests.fakes import HashEmbedder

T0 = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


def r(n: int) -> float:
    return 1 - 1 / (1 + math.log(1 + n))


class Clock:
    """An injected clock tests can move."""

    def __init__(self) -> None:
        self.now = T0 + timedelta(days=30)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def memory(store: MemoryStore, clock: Clock, api: str) -> Iterator[GraphMem]:
    # api: GraphMem itself, or AsyncGraphMem behind a blocking adapter (tests/contract/facades.py)
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False)
    driven = facade(gm, api)
    yield driven
    release(driven)


def cand(content: str, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "content": content,
        "extractor": "verbatim",
        "session_id": "s1",
        "turn_id": "s1:1",
        "observed_at": T0.isoformat(),
    }
    base.update(extra)
    return base


def test_first_mention_confidence_matches_spec(memory: GraphMem, ns: str) -> None:
    report = memory.remember(ns, [cand("Alice works at Acme Robotics", type="Fact")])
    stored = memory.get(ns, report.created[0])
    # SPEC §2.5: s = 0.95 (direct), n = 1, e = 1.0 (verbatim, §9.8), t = 0.80 (Fact)
    expected = 0.45 * 0.95 + 0.20 * r(1) + 0.25 * 1.0 + 0.10 * 0.80
    assert stored.confidence == pytest.approx(expected, abs=1e-9)
    assert stored.n == 1
    assert stored.turn_ids == ("s1:1",)


def test_unknown_type_is_stored_as_uncertain_fact(memory: GraphMem, ns: str) -> None:
    report = memory.remember(ns, [cand("Bob likes jazz", type="unknown", extractor="gpt-4o")])
    stored = memory.get(ns, report.created[0])
    assert (stored.type, stored.type_uncertain) == ("Fact", True)
    # t = 0.75 for an uncertain type, e = 0.85 (GPT-4 class)
    expected = 0.45 * 0.95 + 0.20 * r(1) + 0.25 * 0.85 + 0.10 * 0.75
    assert stored.confidence == pytest.approx(expected, abs=1e-9)


def test_duplicate_from_other_session_is_independent(memory: GraphMem, ns: str) -> None:
    first = memory.remember(ns, [cand("Carol prefers green tea", type="Preference")])
    later = (T0 + timedelta(days=2)).isoformat()
    second = memory.remember(
        ns,
        [
            cand(
                "Carol prefers green tea",
                type="Preference",
                session_id="s2",
                turn_id="s2:4",
                observed_at=later,
            )
        ],
    )
    assert second.merged == first.created
    stored = memory.get(ns, first.created[0])
    assert stored.n == 2
    assert stored.session_ids == ("s1", "s2")
    expected = 0.45 * 0.95 + 0.20 * r(2) + 0.25 * 1.0 + 0.10 * 0.75
    assert stored.confidence == pytest.approx(expected, abs=1e-9)
    assert stored.last_observed_at == T0 + timedelta(days=2)


def test_duplicate_in_same_session_does_not_count(memory: GraphMem, ns: str) -> None:
    memory.remember(ns, [cand("Dan owns a red bike")])
    report = memory.remember(ns, [cand("Dan owns a red bike", turn_id="s1:2")])
    stored = memory.get(ns, report.merged[0])
    assert stored.n == 1
    assert len(stored.observations) == 2


def test_retried_write_changes_nothing(memory: GraphMem, ns: str) -> None:
    batch = [cand("Erin lives in Lisbon"), cand("Erin speaks Portuguese", turn_id="s1:2")]
    memory.remember(ns, batch)
    before = memory.stats(ns)
    again = memory.remember(ns, batch)
    assert memory.stats(ns) == before
    stored = memory.get(ns, again.memory_ids[0] or "")
    assert stored.n == 1 and len(stored.observations) == 1


def test_close_session_same_surface_is_not_independent(memory: GraphMem, ns: str) -> None:
    memory.remember(ns, [cand("Fay runs marathons")])
    soon = (T0 + timedelta(minutes=20)).isoformat()
    report = memory.remember(
        ns, [cand("Fay runs marathons", session_id="s2", turn_id="s2:1", observed_at=soon)]
    )
    assert memory.get(ns, report.merged[0]).n == 1


def test_conflict_keeps_higher_confidence_current(memory: GraphMem, ns: str) -> None:
    weak = cand(
        "Gus lives in Oslo",
        subject="Gus",
        predicate="lives_in",
        object="Oslo",
        source_level="weak_inference",
    )
    strong = cand(
        "Gus lives in Bergen",
        subject="Gus",
        predicate="lives_in",
        object="Bergen",
        session_id="s2",
        turn_id="s2:1",
    )
    first = memory.remember(ns, [weak])
    second = memory.remember(ns, [strong])
    old = memory.get(ns, first.created[0])
    assert old.superseded_by == second.created[0]
    assert old.valid_until is not None
    result = memory.recall(ns, "Where does Gus live?", record_access=False)
    assert old.id not in {h.memory.id for h in result.hits}
    history = memory.recall(ns, "Where does Gus live?", include_history=True, record_access=False)
    assert old.id in {h.memory.id for h in history.hits}


def test_correct_supersedes_regardless_of_confidence(memory: GraphMem, ns: str) -> None:
    created = memory.remember(ns, [cand("Hana's birthday is in May")]).created[0]
    old, new = memory.correct(ns, created, "Hana's birthday is in June")
    assert old.superseded_by == new.id and new.is_current
    assert [m.id for m in memory.history(ns, created)] == [created, new.id]


def test_confirm_raises_source_and_n(memory: GraphMem, ns: str) -> None:
    created = memory.remember(
        ns, [cand("Ivan might be vegetarian", source_level="speculation", turn_id=None)]
    ).created[0]
    before = memory.get(ns, created)
    assert before.n == 0  # SPEC §9.1: an inference with no textual evidence
    after = memory.confirm(ns, created)
    assert (after.n, after.source_strength) == (1, 0.80)
    expected = 0.45 * 0.80 + 0.20 * r(1) + 0.25 * 1.0 + 0.10 * 0.80
    assert after.confidence == pytest.approx(min(0.99, expected), abs=1e-9)


def test_forget_session_deletes_and_recomputes(memory: GraphMem, ns: str) -> None:
    only_s1 = memory.remember(ns, [cand("Jo plays the cello")]).created[0]
    shared = memory.remember(ns, [cand("Jo has two cats", turn_id="s1:2")]).created[0]
    memory.remember(
        ns,
        [
            cand(
                "Jo has two cats",
                session_id="s2",
                turn_id="s2:1",
                observed_at=(T0 + timedelta(days=3)).isoformat(),
            )
        ],
    )
    assert memory.get(ns, shared).n == 2
    preview = memory.forget_session(ns, "s2", dry_run=True)
    assert preview == {"deleted": [], "updated": [shared]}
    assert memory.get(ns, shared).n == 2  # dry run changed nothing
    outcome = memory.forget_session(ns, "s1")
    assert outcome == {"deleted": [only_s1], "updated": [shared]}
    with pytest.raises(MemoryNotFoundError):
        memory.get(ns, only_s1)
    left = memory.get(ns, shared)
    assert left.n == 1 and left.session_ids == ("s2",)
    expected = 0.45 * 0.95 + 0.20 * r(1) + 0.25 * 1.0 + 0.10 * 0.80
    assert left.confidence == pytest.approx(expected, abs=1e-9)


def test_entities_resolve_and_co_occur(memory: GraphMem, ns: str) -> None:
    memory.remember(
        ns,
        [
            cand(
                "Kim met Lee in Paris",
                entities=[{"name": "Kim"}, {"name": "Lee"}, {"name": "Paris"}],
            ),
            cand("Kim likes Paris", turn_id="s1:2", entities=[{"name": "kim"}, {"name": "Paris"}]),
        ],
    )
    entities = {e.name: e for e in memory.store.list_entities(ns)}
    assert set(entities) == {"Kim", "Lee", "Paris"}
    assert entities["Kim"].id == entity_id("Kim")
    relations = memory.store.relation_subgraph(ns, [entity_id("Lee")], 1)
    assert {(r.source_id, r.target_id) for r in relations} >= {(entity_id("Kim"), entity_id("Lee"))}


def test_recall_explains_itself(memory: GraphMem, ns: str) -> None:
    memory.remember(
        ns,
        [
            cand(
                "Mia adopted a greyhound named Pixel", entities=[{"name": "Mia"}, {"name": "Pixel"}]
            ),
            cand("The weather was rainy all week", turn_id="s1:2"),
        ],
    )
    result = memory.recall(ns, "What is the name of Mia's greyhound?", record_access=False)
    top = result.hits[0]
    assert top.memory.content.startswith("Mia adopted")
    assert result.plan == "entity-centric"
    assert result.linked_entities == ("Mia",)  # the possessive is not part of the name
    e = top.explanation
    assert {"semantic", "bm25", "entity"} <= set(e.retrievers)
    assert (
        result.weights["entity"] == Settings().read.planning.entity_centric_weight
    )  # the plan's weights


# SPEC §3's ranking constants: RRF k = 60, retriever weights 1 / 1 / 1 / 1 / 0.8 (graph),
# entity 2.0 in the entity-centric plan; session support (a departure) off.
SPEC_RANKING: dict[str, Any] = {
    "rrf_k": 60,
    "retriever_weights": {
        "semantic": 1.0,
        "bm25": 1.0,
        "entity": 1.0,
        "temporal": 1.0,
        "graph": 0.8,
    },
    "entity_centric_weight": 2.0,
    "session_support": 0.0,
}


def test_recall_weight_is_spec_weighted_rrf(store: MemoryStore, ns: str, clock: Clock) -> None:
    """The weight against SPEC §3's numbers, not recomputed from the explanation."""
    gm = GraphMem(
        # without contextual keys: keyed, the second turn's key would hold the first turn
        Settings(**SPEC_RANKING, contextual_keys=False),
        store=store,
        embedder=HashEmbedder(),
        clock=clock,
        owns_store=False,
    )
    gm.remember(
        ns,
        [
            cand(
                "Mia adopted a greyhound named Pixel", entities=[{"name": "Mia"}, {"name": "Pixel"}]
            ),
            cand("The weather was rainy all week", turn_id="s1:2"),
        ],
    )
    result = gm.recall(ns, "Which greyhound did Mia adopt?", record_access=False)
    assert result.plan == "entity-centric"
    top, other = result.hits
    assert {n: s.rank for n, s in top.explanation.retrievers.items()} == {
        "semantic": 1,
        "bm25": 1,
        "entity": 1,
        "graph": 1,
    }
    # Σ w / (60 + rank): (1 + 1 + 2 + 0.8) / 61; access boost 1 + ln(1 + 0) = 1, and
    # freshness (mode "tiebreak") is not a factor
    assert top.weight == pytest.approx(4.8 / 61, rel=1e-9)
    # no word of the question in the other memory: only the semantic list's second
    assert {n: s.rank for n, s in other.explanation.retrievers.items()} == {"semantic": 2}
    assert other.weight == pytest.approx(1 / 62, rel=1e-9)
    gm.close()


def test_recall_records_access(memory: GraphMem, ns: str, clock: Clock) -> None:
    created = memory.remember(ns, [cand("Nia collects vinyl records")]).created[0]
    clock.now += timedelta(days=10)
    memory.recall(ns, "vinyl records", session_id="s9")
    stored = memory.get(ns, created)
    assert stored.access_count == 1
    assert stored.last_accessed_at == clock.now
    # seed 003: a direct match 10 days after it was stored: 0 + 0.1 × min(2, 10/7) = 0.143
    assert stored.stability == pytest.approx(0.1 * 10 / 7)
    assert stored.salience == pytest.approx(0.5 + 0.1 * 0.5)  # SPEC §4 access increment
    clock.now += timedelta(days=1)
    memory.recall(ns, "vinyl records")
    again = memory.get(ns, created)
    assert again.access_count == 2
    assert again.stability == pytest.approx(0.1 * 10 / 7 + 0.1 * 1 / 7)


def test_namespaces_do_not_leak(memory: GraphMem, ns: str) -> None:
    other = ns + "-other"
    memory.remember(ns, [cand("Omar sails on weekends", entities=[{"name": "Omar"}])])
    memory.remember(other, [cand("Omar sails on weekends", entities=[{"name": "Omar"}])])
    result = memory.recall(other, "Omar sails", record_access=False)
    assert {h.memory.namespace for h in result.hits} == {other}
    memory.forget_session(ns, "s1")
    assert memory.stats(other)["memories"] == 1
    memory.delete_namespace(other)


def test_bad_input_writes_nothing(memory: GraphMem, ns: str) -> None:
    good = cand("Pia is a pilot")
    cases: list[tuple[dict[str, Any], str]] = [
        (cand("x", type="Prefrence"), "candidates[1].type"),
        (cand("x", extractor_confidence=1.5), "candidates[1].extractor_confidence"),
        (cand("   "), "candidates[1].content"),
        (cand("x", observed_at="2024-01-01T00:00:00"), "candidates[1].observed_at"),
        (cand("x", logprobs=[float("nan")]), "candidates[1].logprobs"),
    ]
    for bad, field in cases:
        with pytest.raises(InvalidMemoryError) as info:
            memory.remember(ns, [good, bad])
        assert info.value.field == field
    assert memory.stats(ns)["memories"] == 0
    with pytest.raises(InvalidQueryError, match=r"query\.text"):
        memory.recall(ns, "   ")
    with pytest.raises(InvalidMemoryError, match="namespace"):
        memory.remember("bad namespace!", [good])


def test_wrong_embedding_dimension_is_rejected(store: MemoryStore, ns: str) -> None:
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(dim=16), owns_store=False)
    with pytest.raises(InvalidMemoryError, match="embedding"):
        gm.remember(ns, [cand("Quinn surfs")])
    assert gm.stats(ns)["memories"] == 0
    gm.close()


class _TableEmbedder(HashEmbedder):
    """Fixed vectors for chosen texts, to put pairs in each dedup tier."""

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        super().__init__()
        self._table = table

    def embed(self, texts: Any) -> Any:
        base = super().embed(texts)
        for i, text in enumerate(texts):
            if text in self._table:
                base[i] = self._table[text]
        return base


def _pair(cosine: float) -> tuple[np.ndarray, np.ndarray]:
    a = np.zeros(384, dtype=np.float32)
    b = np.zeros(384, dtype=np.float32)
    a[0] = 1.0
    b[0], b[1] = cosine, math.sqrt(1 - cosine**2)
    return a, b


@pytest.mark.parametrize(("cosine", "merged"), [(0.95, True), (0.88, False), (0.80, False)])
def test_dedup_tiers(store: MemoryStore, ns: str, cosine: float, merged: bool) -> None:
    a, b = _pair(cosine)
    gm = GraphMem(
        Settings(),
        store=store,
        embedder=_TableEmbedder({"Ray drives a van": a, "Ray drives a bus": b}),
        owns_store=False,
    )
    gm.remember(ns, [cand("Ray drives a van")])
    report = gm.remember(ns, [cand("Ray drives a bus", session_id="s2", turn_id="s2:1")])
    assert bool(report.merged) is merged
    if cosine == 0.88:
        assert report.ambiguous == 1  # tier 3: the default judge keeps them distinct
    gm.close()


def test_freshness_modes(store: MemoryStore, ns: str, clock: Clock) -> None:
    """'weight' is SPEC §3's RRF × freshness × access boost; 'tiebreak' leaves
    freshness out of the weight and orders equal weights by it."""
    gm = GraphMem(
        Settings(freshness_mode="weight", **SPEC_RANKING),
        store=store,
        embedder=HashEmbedder(),
        clock=clock,
        owns_store=False,
    )
    gm.remember(ns, [cand("Uma restores old clocks", type="Event")])
    clock.now = T0 + timedelta(days=30)
    hit = gm.recall(ns, "old clocks", record_access=False).hits[0]
    # Event half-life 30 days, stability 0, age 30 days → freshness 0.5
    assert hit.explanation.freshness == pytest.approx(0.5)
    # SPEC §3: RRF over semantic and BM25, both rank 1: 2 / 61; × freshness 0.5 × boost 1
    assert {n: s.rank for n, s in hit.explanation.retrievers.items()} == {"semantic": 1, "bm25": 1}
    assert hit.weight == pytest.approx(2 / 61 * 0.5, rel=1e-9)
    gm.close()


NEWER = "; a newer contradicting memory ranks above the older one"


@pytest.mark.parametrize(
    ("mode", "access", "formula"),
    [
        (
            "weight",
            "weight",
            "weight = (RRF + session support) × freshness × access boost" + NEWER,
        ),
        (
            "tiebreak",
            "weight",
            "weight = (RRF + session support) × access boost; ties broken by freshness" + NEWER,
        ),
        (
            "tiebreak",
            "tiebreak",
            "weight = (RRF + session support); ties broken by freshness, then access boost" + NEWER,
        ),
    ],
)
def test_the_explanation_names_the_weight_formula(
    store: MemoryStore, ns: str, clock: Clock, mode: str, access: str, formula: str
) -> None:
    gm = GraphMem(
        Settings(freshness_mode=mode, access_mode=access),
        store=store,
        embedder=HashEmbedder(),
        clock=clock,
        owns_store=False,
    )
    gm.remember(ns, [cand("Uma restores old clocks", entities=[{"name": "Uma"}])])
    result = gm.recall(ns, "What does Uma restore?", record_access=False)
    assert result.plan == "entity-centric"  # no MMR: session support is on
    assert formula in result.notes
    assert {hit.explanation.formula for hit in result.hits} == {formula}  # typed, per hit
    exploratory = gm.recall(ns, "Who restores clocks?", record_access=False)
    assert exploratory.plan == "exploratory"  # MMR plans get no session support
    assert formula.replace("(RRF + session support)", "RRF") in exploratory.notes
    gm.close()


def test_async_facade_has_every_method_of_graphmem() -> None:
    """AsyncGraphMem mirrors GraphMem: same public methods, same parameters, awaited."""
    import inspect

    from graphmem.aio import AsyncGraphMem

    for name, method in inspect.getmembers(GraphMem, inspect.isfunction):
        if name.startswith("_"):
            continue
        twin = getattr(AsyncGraphMem, name, None)
        assert twin is not None, f"AsyncGraphMem lacks {name}()"
        assert inspect.iscoroutinefunction(twin) or inspect.isasyncgenfunction(twin), name
        assert list(inspect.signature(twin).parameters) == list(
            inspect.signature(method).parameters
        ), name


def test_a_closed_facade_refuses_every_call_until_reopened(
    store: MemoryStore, ns: str, clock: Clock
) -> None:
    """httpx-style lifecycle: use after close() raises ClosedError (nothing read or
    written), closing twice is harmless, open() reopens."""
    from graphmem import ClosedError

    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False)
    gm.remember(ns, [cand("Ines grows figs")])
    gm.close()
    gm.close()  # harmless
    assert gm.closed
    calls = {
        "remember": lambda: gm.remember(ns, [cand("Ines grows plums")]),
        "recall": lambda: gm.recall(ns, "what does Ines grow?"),
        "stats": lambda: gm.stats(ns),
        "namespaces": gm.namespaces,
        "consolidate": lambda: gm.consolidate(ns),
        "delete_namespace": lambda: gm.delete_namespace(ns),
    }
    for name, call in calls.items():
        with pytest.raises(ClosedError, match=r"closed.*open\(\)"):
            call()
        assert gm.closed, name
    assert [m.content for m in store.scan_memories(ns, None, 10)] == ["Ines grows figs"]
    with gm.open():  # reopens; the with block closes it again
        assert not gm.closed
        assert gm.stats(ns)["memories"] == 1
    with pytest.raises(ClosedError):
        gm.recall(ns, "figs")
    unused = GraphMem(Settings(), store=store, embedder=HashEmbedder(), owns_store=False)
    unused.close()  # closing a facade never opened is harmless too, and final
    with pytest.raises(ClosedError):
        unused.stats(ns)


def test_a_question_gathering_several_memories_gets_no_session_support(
    store: MemoryStore, ns: str, clock: Clock
) -> None:
    # issue 15: "Which cities has Uma visited?" gathers memories from several sessions;
    # session support would concentrate its top on one session
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False)
    gm.remember(ns, [cand("Uma visited Lisbon", entities=[{"name": "Uma"}])])
    several = gm.recall(ns, "Which cities has Uma visited?", record_access=False)
    one = gm.recall(ns, "Which city did Uma visit first?", record_access=False)
    assert several.plan == one.plan == "entity-centric"
    assert "weight = RRF (no session support: the answer gathers several memories)" in " ".join(
        several.notes
    )
    assert "weight = (RRF + session support)" in " ".join(one.notes)
    off = GraphMem(
        Settings(aggregate_questions=False),
        store=store,
        embedder=HashEmbedder(),
        clock=clock,
        owns_store=False,
    )
    again = off.recall(ns, "Which cities has Uma visited?", record_access=False)
    assert "weight = (RRF + session support)" in " ".join(again.notes)
    gm.close()
    off.close()
