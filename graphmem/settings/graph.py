"""Read graph settings: the graph retriever's relation walk and concept walk
(docs/spec.md §3).

Part of :class:`graphmem.settings.Settings` as ``settings.read.graph``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphmem.settings.base import Concern


class GraphSettings(Concern):
    """Read graph settings (``settings.read.graph``)."""

    max_hops: int = Field(
        3,
        ge=1,
        le=3,
        description=(
            'Most relation hops the graph traversal follows (docs/spec.md §3 "Graph traversal").'
        ),
    )
    hop_scores: tuple[float, float, float] = Field(
        default=(1.0, 0.6, 0.35),
        description=(
            "Graph traversal: score of a path of one, two and three or more hops (docs/spec.md §3 "
            '"Graph traversal").'
        ),
    )
    graph_traversal: Literal["guided", "classic"] = Field(
        "guided",
        description=(
            "Graph retriever: guided multiplies docs/spec.md §3's hop score × weakest"
            " link by each edge's question match and ranks reached memories by path score"
            " and their own relevance; classic is docs/spec.md §3 alone (every neighbour at one"
            " hop ties)."
        ),
    )
    graph_seed_share: float = Field(
        0.0,
        ge=0.0,
        le=1.0,
        description=(
            "Graph retriever: what a reached memory counts for when it is already in the"
            " entity retriever's top candidate_k for the query entities (the seeds' own"
            " memories), unless it asserts a relation on a path; 0 leaves it out, so the"
            " graph list holds what the entity list does not."
        ),
    )
    graph_concepts: bool = Field(
        True,
        description=(
            "Graph retriever: after the relation walk, a personalised PageRank over the namespace's"
            " memory-concept graph (graphmem.retrieval.retrievers.concepts: noun-chunk heads and"
            " phrases, non-person named entities and content verbs, IDF-weighted), seeded by the"
            " question's concepts and its nearest memories. Needs the extra graphmem[nlp] (spaCy);"
            " off without it."
        ),
    )
    graph_concept_min_memories: int = Field(
        100,
        ge=0,
        description=(
            "Namespaces with fewer memories get no concept walk: a concept must recur in"
            " 2 to graph_concept_max_df of the memories, which in a few dozen memories (one"
            " person's facts: the lifecycle bench, current@1 0.955 -> 0.606 with the walk"
            " at weight 1.5) picks chance words, not topics."
        ),
    )
    graph_concept_fusion_weight: float = Field(
        1.5,
        ge=0.0,
        description=(
            "The graph list's RRF weight where the concept walk runs (instead of"
            " retriever_weights['graph']). bench/concept_graph.py on LoCoMo dev, chosen"
            " leave-one-conversation-out from 0.25-3 (every fold chose 1.5): the graph's"
            " share of held-out R@10 turns +0.001 -> +0.017, observations -0.000 -> +0.023"
            " (relation walk alone at 0.1)."
        ),
    )
    graph_concept_max_memories: int = Field(
        5000,
        ge=0,
        description=(
            "Namespaces with more memories are not concept-indexed (the index is built in"
            " process from every memory on the first recall and after writes)."
        ),
    )
    graph_concept_max_df: float = Field(
        0.1,
        gt=0.0,
        le=1.0,
        description=(
            "Concepts in more than this share of the memories are left out (they would"
            " connect everything). LoCoMo dev held-out graph share, turns / observations:"
            " 0.05 +0.011 / +0.019, 0.1 +0.017 / +0.023, 0.2 +0.018 / +0.021."
        ),
    )
    graph_concept_alpha: float = Field(
        0.85, gt=0.0, lt=1.0, description="Concept walk: PageRank damping."
    )
    graph_concept_weight: float = Field(
        0.2,
        ge=0.0,
        description=(
            "Concept walk: a question concept's reset mass is this x its IDF (a seed"
            " memory's is 1 / (1 + rank))."
        ),
    )
    graph_concept_seeds: int = Field(
        5, ge=0, le=100, description="Concept walk: the question's nearest memories as seeds."
    )
    graph_concept_seed_source: Literal["semantic list", "nearest"] = Field(
        "semantic list",
        description=(
            "Concept walk: where its seed memories come from. 'semantic list': the semantic list's"
            " top as the recall ranks it (by the name-masked cosine where the question names a"
            " person, graphmem.retrieval.rescoring.masking), the walk run after that list (the"
            " relation walk still beside the other retrievers); 'nearest': the raw cosine's nearest"
            " (also where the recall runs no semantic list). On turns the raw cosine ranks a"
            " person's name ('Caroline: ...' is in every turn she says), so the walk spread from"
            " her chatty turns. LoCoMo dev, real pipeline replayed (bench/real_replay.py), graph"
            " list weight 1.5, R@10 turns / observations: nearest 0.758 / 0.831 (graph share -0.003"
            " / +0.015), semantic list 0.769 / 0.833 (+0.008 / +0.017); every"
            " leave-one-conversation-out fold chose it (weights 1 / 1.5 / 2, seeds raw / masked /"
            " fused / BM25)."
        ),
    )
    graph_edge_floor: float = Field(
        0.2,
        ge=0.0,
        le=1.0,
        description=(
            "Question match of an edge that matches nothing in the question: relevance ="
            " floor + (1 - floor) x max(predicate term match, asserting memory's cosine to"
            " the query relative to the subgraph's best)."
        ),
    )
    graph_semantic_share: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        description=(
            "Edge question match: the asserting memory's relative cosine counts at this share"
            " against a predicate word the question names (1), which it shares with every"
            " other relation that memory asserts."
        ),
    )
    graph_max_reached: int = Field(
        50, ge=1, le=1000, description="Most entities a walk keeps, best path score first."
    )
    graph_off_path_share: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description=(
            "Share of its path score a memory gets that mentions the reached entity but"
            " asserts another of its relations (it is about something else)."
        ),
    )
    graph_keep_share: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description=(
            "Reached memories scoring below this share of the best are left out of the graph"
            " list (a long tail of weak paths would count like evidence in the fusion)."
        ),
    )
    graph_own_share: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description=(
            "How far a reached memory's own relevance (cosine to the question over the best)"
            " moves its path score: x (1 - share + share x relative cosine); the path, not"
            " the wording, is what the graph knows."
        ),
    )
