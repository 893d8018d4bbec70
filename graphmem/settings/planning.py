"""Read planning settings: how a question is read before search (short names, time,
gathering questions) and which plan and retriever weights it gets (docs/spec.md §3
"Query planner"): a concern of its own beside fusion, graph, rescoring and ranking
because the planner is a stage of its own in ``graphmem.retrieval`` and its weights are
chosen per question.

Part of :class:`graphmem.settings.Settings` as ``settings.read.planning``; every field is
read from ``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from graphmem.settings.base import Concern


class PlanningSettings(Concern):
    """Read planning settings (``settings.read.planning``)."""

    question_resolution: bool = Field(
        True,
        description=(
            "Before a question is searched, a short form of a person's name ('Mel' for Melanie: a"
            " prefix of exactly one person's name) and a pronoun in a question that names nobody,"
            " in a namespace with one person, become that person's name"
            " (graphmem.language.question_type)."
        ),
    )
    event_time_ranking: bool = Field(
        True,
        description=(
            "A question that asks 'when' with no time window: the temporal retriever ranks"
            " its semantic and BM25 neighbours that carry an event time (their words name"
            " when it happened). LoCoMo dev temporal (category 2) R@10, cached lists with"
            " contextual keys: turns 0.830 -> 0.865, observations 0.893 -> 0.900."
        ),
    )
    aggregate_questions: bool = Field(
        True,
        description=(
            "A question whose answer gathers several memories ('How many ...', 'What books has Tim"
            " read?', '... both ...'; graphmem.language.question_type.asks_for_several) gets no"
            " session support: its evidence lies in several sessions. LoCoMo dev (cached lists,"
            " chosen in every leave-one-conversation-out fold): R@10 turns 0.742 -> 0.747,"
            " observations 0.805 -> 0.808; multi-hop All@10 0.113 -> 0.162 and 0.265 -> 0.294."
        ),
    )
    when_weight: float = Field(
        0.5,
        ge=0.0,
        le=10.0,
        description=(
            "RRF weight of the temporal list of a 'when' question with no window"
            " (event_time_ranking). LoCoMo dev turns, cached lists with keys: 0.5 gives"
            " R@10 0.738 (temporal 0.862), 1.5 gives 0.737 (0.865); 0.5 keeps the"
            " lifecycle bench's current@1 (at 1.5 an event-time neighbour took the top"
            " of 2 of 41 probes)."
        ),
    )
    specificity_weights: tuple[float, float, float, float] = Field(
        default=(0.35, 0.25, 0.25, 0.15),
        description='Weights of entity density, temporal precision, lexical rarity and type cue in a question\'s specificity (docs/spec.md §3 "Query planner").',
    )
    specificity_precise: float = Field(
        0.8,
        ge=0.7,
        le=0.9,
        description=(
            'Specificity from which the precise plan is used (docs/spec.md §3 "Query planner").'
        ),
    )
    specificity_exploratory: float = Field(
        0.4,
        ge=0.3,
        le=0.5,
        description=(
            "Specificity below which the exploratory plan is used; < specificity_precise "
            '(docs/spec.md §3 "Query planner").'
        ),
    )
    entity_plan_confidence: float = Field(
        0.85,
        ge=0.7,
        le=0.9,
        description=(
            "Linked-entity confidence above which the entity-centric plan is used (docs/spec.md §3"
            ' "Query planner").'
        ),
    )
    precise_k: int = Field(
        5,
        ge=1,
        le=100,
        description='Most memories the precise plan returns (docs/spec.md §3 "Query planner").',
    )
    entity_centric_weight: float = Field(
        0.5,
        ge=0.0,
        description="Entity weight in the entity-centric plan (docs/spec.md §3: 2.0; 2× the base).",
    )
    relational_graph_weight: float = Field(
        3.0,
        ge=0.0,
        description=(
            "Graph weight in the relational plan: chosen when the question names an"
            ' entity through a stored relation ("Maya\'s sister" with Maya -SISTER_OF->'
            " Priya stored), whose answer only the graph reaches (the multi-hop"
            " fixture in tests/unit/test_multihop.py)."
        ),
    )
    temporal_anchored_weight: float = Field(
        2.25,
        ge=0.0,
        description=(
            "Temporal weight in the temporal-anchored plan (docs/spec.md §3: 1.5; 1.5× the base)."
        ),
    )
    temporal_precision: dict[str, float] = Field(
        default={"exact": 1.0, "relative": 0.7, "vague": 0.3},
        description='Specificity\'s temporal precision per time expression kind: exact, relative, vague (docs/spec.md §3 "Query planner").',
    )

    link_exact: float = Field(
        1.0,
        ge=0.0,
        le=1.0,
        description=(
            "Link confidence of a surface that is an entity's name (graphmem.entities; the"
            " entity-centric plan needs more than entity_plan_confidence)."
        ),
    )
    link_alias: float = Field(
        0.95,
        ge=0.0,
        le=1.0,
        description=(
            "Link confidence of a surface that is an entity's alias, or 'I' / 'my' for the"
            " user; a written mention linked at least this well is that entity."
        ),
    )
    link_first_name: float = Field(
        0.9,
        ge=0.0,
        le=1.0,
        description=(
            "Link confidence of a person's first name alone ('Priya' for Priya Raman);"
            " link_first_name <= link_alias <= link_exact."
        ),
    )

    @model_validator(mode="after")
    def _specificity_order(self) -> PlanningSettings:
        if self.specificity_exploratory >= self.specificity_precise:
            raise ValueError("specificity_exploratory must be < specificity_precise")
        if not self.link_first_name <= self.link_alias <= self.link_exact:
            raise ValueError("link confidences must be link_first_name <= link_alias <= link_exact")
        return self
