"""Read fusion settings: the candidate lists, BM25 and the entity retriever's
arithmetic, weighted Reciprocal Rank Fusion and session support (docs/spec.md §3
"Fusion").

Part of :class:`graphmem.settings.Settings` as ``settings.read.fusion``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from graphmem.settings.base import RETRIEVERS, Concern


class FusionSettings(Concern):
    """Read fusion settings (``settings.read.fusion``)."""

    candidate_k: int = Field(
        50, ge=1, le=1000, description="Candidates each retriever ranks (docs/spec.md §3)."
    )
    top_k: int = Field(
        10,
        ge=1,
        le=1000,
        description="Memories a recall returns unless the query gives k (docs/spec.md §3).",
    )
    rrf_k: int = Field(
        10,
        ge=10,
        le=200,
        description=(
            "RRF smoothing k (docs/spec.md §3: 60). Chosen on LoCoMo dev leave-one-conversation-out"
            " (bench/calibrate.py --grid fusion, k in 10/20/60 jointly with the weights; every"
            " fold chose 10): held-out R@10 turns 0.621 -> 0.662, observations 0.720 -> 0.754."
            " With ~50 candidates per retriever and 10 returned, k = 60 weighs rank 1 and rank"
            " 10 of a list nearly alike (71 vs 61), so memories ranked middling by several"
            " correlated lists (entity and graph re-rank the semantic neighbourhood) outrank"
            " one list's clear first; k = 10 lets a list's top ranks count."
        ),
    )
    # Calibrated on LoCoMo dev with bench/calibrate.py (coordinate grid, chosen
    # leave-one-conversation-out: held-out R@10 0.605 on turns), changed from docs/spec.md
    # §3's 1.0 / 1.0 / 1.0 / 1.0 / 0.8. At full weight the entity retriever (the
    # question's person, ranked by cosine) double-counts the semantic list and the
    # graph list adds loosely related memories; lexical and time evidence carry more.
    # Turns / observations R@10: docs/spec.md §3 weights 0.557 / 0.715, these 0.621 / 0.720.
    # Re-checked with rrf_k = 10 (bench/calibrate.py --grid fusion): every fold kept
    # bm25 1.5 and graph 0.1; entity 0 and 0.25 are within 0.001 (0.25 kept: the
    # precise plan fuses semantic and entity).
    # The graph weight where the concept walk runs is graph_concept_fusion_weight.
    retriever_weights: dict[str, float] = Field(
        default={
            "semantic": 1.0,
            "bm25": 1.5,
            "entity": 0.25,
            "temporal": 1.5,
            "graph": 0.1,
        },
        description=(
            "RRF weight of each retriever's list (docs/spec.md §3: 1 / 1 / 1 / 1 / 0.8), "
            "calibrated on LoCoMo dev (see the comment in graphmem/settings/fusion.py; "
            "docs/scoring.md)."
        ),
    )
    session_support: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description=(
            "Session support (graphmem.retrieval.rescoring.support): a candidate gains this share"
            " of the fused mass its session(s) hold among the session_support_depth best-fused"
            " candidates (off for plans that diversify with MMR); 0 turns it off. Evidence"
            " clusters: the turns around an answer and the facts of its session are relevant"
            " together. LoCoMo dev, leave-one-conversation-out (bench/calibrate.py --grid session:"
            " 0/0.1/0.2/0.3 x depth 10/20 x rrf_k 10/20 x entity-centric 0.5/1): held-out R@10"
            " turns 0.662 -> 0.692, observations 0.754 -> 0.776; the folds chose 0.2 or 0.3 (within"
            " 0.001 on all five), depth 10 always; multi-hop All@10 on turns unchanged (0.134 ->"
            " 0.141): evidence spread over sessions gains nothing. Then 0.3 with the"
            " finite-population factor and session_support_noise 1 (bench/calibrate.py replay: R@10"
            " turns 0.695 -> 0.699, observations 0.777 -> 0.779; lifecycle plain fresh current@1"
            " 0.859 -> 0.877, as with support off)."
        ),
    )
    session_support_mode: Literal["above_chance", "mass"] = Field(
        "above_chance",
        description=(
            "'above_chance' (default): a session lends only the mass its memories hold among the"
            " best-fused candidates beyond its share of all candidates"
            " (graphmem.retrieval.rescoring.support). 'mass': all of it, which lifts a large old"
            " session (a person's first conversation, stale facts included) for every question."
            " LoCoMo dev (bench/calibrate.py replay, weight 0.2, depth 10): R@10 turns 0.695 either"
            " way, observations 0.776 -> 0.777."
        ),
    )
    session_support_noise: float = Field(
        1.0,
        ge=0.0,
        le=5.0,
        description=(
            "'above_chance' mode: standard deviations of the chance count a session's excess must"
            " clear (graphmem.retrieval.rescoring.support). In a namespace of a few sessions (one"
            " person's conversations) some session always holds a little more than its share of the"
            " best candidates; that lifted a person's first session over the answer (lifecycle"
            " bench)."
        ),
    )
    session_support_depth: int = Field(
        10, ge=1, le=1000, description="How many of the best-fused candidates lend session support."
    )
    bm25_k1: float = Field(
        1.2, gt=0.0, description='BM25 term-frequency saturation k1 (docs/spec.md §3 "Retrievers").'
    )
    bm25_b: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description='BM25 length normalisation b (docs/spec.md §3 "Retrievers").',
    )
    entity_pool_factor: int = Field(
        4,
        ge=1,
        le=50,
        description=(
            "Entity retriever: the store returns this many times k memories (ordered by"
            " entities mentioned, then cosine) for the retriever to re-rank by role."
        ),
    )
    entity_mention_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description=(
            "Entity retriever: what a linked entity counts for in a memory that only"
            " mentions it, against 1 for a memory whose subject or object it is (how"
            " directly the memory concerns it). LoCoMo dev, replayed with the other"
            " settings fixed: R@10 turns 0.661 -> 0.664, observations 0.756 -> 0.758"
            " (1.0, the plain mention count, is the old ranking; 95% of the turns that"
            " answer a question naming a speaker are that speaker's own)."
        ),
    )

    @field_validator("retriever_weights")
    @classmethod
    def _known_retrievers(cls, value: dict[str, float]) -> dict[str, float]:
        unknown = set(value) - set(RETRIEVERS)
        if unknown:
            raise ValueError(f"unknown retriever(s) {sorted(unknown)}; known: {list(RETRIEVERS)}")
        if any(not w >= 0.0 for w in value.values()):
            raise ValueError("retriever weights must be >= 0")
        return {name: value.get(name, 0.0) for name in RETRIEVERS}
