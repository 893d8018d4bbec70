"""Read rescoring settings: what re-orders the fused candidates - name-masked
similarity, expected answer type, newer over older, direct hits, the asked attribute,
the reranker (docs/spec.md §3, docs/updates.md).

Part of :class:`graphmem.settings.Settings` as ``settings.read.rescoring``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pydantic import Field

from graphmem.settings.base import Concern


class RescoringSettings(Concern):
    """Read rescoring settings (``settings.read.rescoring``)."""

    name_mask_depth: int = Field(
        30,
        ge=0,
        le=1000,
        description=(
            "Name-masked similarity (graphmem.retrieval.rescoring.masking): when a question names a"
            " person, the top N of the semantic and entity lists are re-ordered by the cosine of"
            " question and memory with that person's names masked, so the name every one of their"
            " memories carries does not decide which one matches. 0 turns it off."
        ),
    )
    name_mask_budget: int = Field(
        48,
        ge=0,
        le=1000,
        description=(
            "Most masked texts one recall embeds at query time"
            " (graphmem.retrieval.rescoring.masking): the masked texts of memories are embedded"
            " when they are written and kept in the vector cache (vector_cache_path), so a recall"
            " normally embeds only its masked question; a masked text in no cache past this budget"
            " keeps its memory's unmasked vector. Measured on LoCoMo dev: docs/performance.md."
        ),
    )
    verbatim_mask_depth: int = Field(
        200,
        ge=0,
        le=1000,
        description=(
            "Name masking over verbatim transcripts"
            " (graphmem.retrieval.rescoring.masking.deep_masked): when a question names a person"
            " and most of the candidates name masking reads are transcript turns (verbatim text"
            " with a speaker label, 'Caroline: ...'; not extracted claims, not unlabelled notes),"
            " the semantic list is the question's N nearest memories by the raw cosine re-ordered"
            " by the name-masked cosine (one more vector search and read; the masked texts are"
            " embedded, cached), not only the top name_mask_depth of 50. A turn's speaker label"
            " outweighs its words in the raw cosine, so the answering turns stayed below the"
            " window. 0 turns it off. LoCoMo dev turns, pipeline replayed with the concept walk"
            " re-seeded, chosen leave-one-conversation-out from 100 / 200 x verbatim_subject_bonus"
            " 0 / 0.05 / 0.1 (every fold: 200, 0.05): held-out R@10 0.768 -> 0.784, multi-hop"
            " All@10 0.183 -> 0.268, temporal 0.894 -> 0.894 (with 1000 in the grid the folds chose"
            " it: 0.782; 200 costs less). On observations (extracted claims) every depth lost"
            " 0.002-0.009."
        ),
    )
    verbatim_subject_bonus: float = Field(
        0.05,
        ge=0.0,
        le=1.0,
        description=(
            "verbatim_mask_depth: added to the masked cosine of a memory whose subject is"
            " one of the question's linked entities (a turn the person said), so among"
            " near-equal turns the person's own come first. Chosen with"
            " verbatim_mask_depth (R@10 at depth 200 with 0 / 0.05 / 0.1: 0.776 / 0.784 /"
            " 0.780)."
        ),
    )
    answer_type_weight: float = Field(
        1.0,
        ge=0.0,
        le=5.0,
        description=(
            "Expected answer type (graphmem.retrieval.rescoring.answer_type): when a question's cue"
            " names what answers it (where ... work -> an Organization, where ... live -> a Place,"
            " like / favourite / hobby -> a Preference), the candidates carrying that type (an"
            " entity of that kind outside the subject slot, or that memory type) are fused as one"
            " more list with this RRF weight; 0 turns it off. Lifecycle bench: the vocabulary gaps"
            " the small model does not bridge ('Where does someone work?' scores 0.36 against"
            " 'lives in Denver now' and 0.32 against 'is a librarian at Cobalt Robotics')."
        ),
    )
    answer_type_depth: int = Field(
        30,
        ge=1,
        le=1000,
        description=(
            "How many of the semantic and entity lists' best candidates the expected answer"
            " type looks at (answer_type_weight)."
        ),
    )
    update_rank_margin: float = Field(
        0.15,
        ge=-1.0,
        le=1.0,
        description=(
            "docs/spec.md §9.9 at read time (graphmem.retrieval.ranking.currency): among the"
            " returned memories, a newer one that contradicts an older one (docs/spec.md §9.10"
            " rule, same subject) ranks directly above it when its cosine to the question is at"
            " most this much below the older one's; verbatim memories (source text such as a"
            " dialogue turn, not one claim) are left as they are. -1 turns it off. With name-masked"
            " similarity, 0.05 -> 0.15 on the lifecycle bench (40 people, plain, fresh): current@1"
            " 0.928 -> 0.949, stale_outranks 0.054 -> 0.005; LoCoMo R@10 unchanged (the rule"
            " reorders only the returned window; turns are verbatim)."
        ),
    )
    update_rank_similarity: float = Field(
        0.3,
        ge=-1.0,
        le=1.0,
        description=(
            "Newer over older (update_rank_margin): when the question decides, the two claims' own"
            " cosine with their subject's name masked (graphmem.retrieval.rescoring.masking) must"
            " be at least this; claims at (unmasked) cosine >= consolidation_similarity (the"
            " consistency scan's pairs) need no question. -1: no test."
        ),
    )
    update_rank_masked_near: float = Field(
        0.5,
        ge=-1.0,
        le=1.01,
        description=(
            "Newer over older, for a question about the present ('now', 'still', 'these days'):"
            " two claims whose cosine with their subject's name masked is at least this say"
            " nearly the same thing of them, so the newer moves up whatever update_rank_margin"
            " says of the question's match (the other tests still apply). Above 1: the margin"
            " always applies."
        ),
    )
    direct_hit_rank: int = Field(
        3,
        ge=0,
        le=1000,
        description=(
            "docs/spec.md §9.11: a current memory flagged unretrievable (or cold) stays out of"
            " broad"
            " context but is still returned when the semantic, BM25 or entity retriever ranks"
            " it in its top N for the question (then reactivated if recorded). 0: never."
        ),
    )
    attribute_window: int = Field(
        30,
        ge=0,
        le=200,
        description="Recall: how many of the ranked candidates the asked-attribute rule"
        " looks through (docs/updates.md 'At recall'); 0 turns the rule off.",
    )
    attribute_similarity_margin: float = Field(
        2.0,
        ge=0.0,
        le=2.0,
        description="Recall, advice questions: the asked-attribute rule moves a safety claim"
        " up only when its name-masked cosine to the question is within this margin of the"
        " best one in the window (docs/updates.md 'At recall'). 2 (default) turns the guard"
        " off: at 0.3 it held back a diet the question's words do not share ('Sipho's making"
        " bobotie tonight, can I have some?' against 'I'm vegan').",
    )
    semantic_lead_margin: float = Field(
        0.15,
        ge=0.0,
        le=2.0,
        description="Recall: a memory whose name-masked cosine to the question leads every"
        " memory fused above it by at least this much comes first"
        " (graphmem.retrieval.ranking.lead; docs/updates.md 'At recall'); 0 turns it off.",
    )
    learned_order_depth: int = Field(
        10,
        ge=0,
        le=100,
        description="Recall: the first this many hits, in the rules' order, are reordered by"
        " weights learned on the user-path tune half, keeping what the rules decided on"
        " certain evidence (graphmem.retrieval.ranking.learned; docs/updates.md 'The learned"
        " order'); recall@k for k >= it is unchanged; 0 or 1 turns it off (the rules' order).",
    )
    attribute_examples_k: int = Field(
        7,
        ge=0,
        le=100,
        description="Recall: how many nearest labeled example claims vote on the attribute a"
        " claim states, beside what the word patterns read (docs/updates.md 'Nearest"
        " examples'); 0 turns the vote off.",
    )
    attribute_examples_min_share: float = Field(
        0.7,
        gt=0.0,
        le=1.0,
        description="Recall: the least share of the nearest examples' cosine-weighted vote"
        " that the winning attribute needs (docs/updates.md 'Nearest examples').",
    )
    attribute_examples_min_cosine: float = Field(
        0.45,
        ge=-1.0,
        le=1.0,
        description="Recall: the least cosine of the winning attribute's nearest example"
        " (docs/updates.md 'Nearest examples').",
    )
    attribute_lean_min_share: float = Field(
        0.4,
        gt=0.0,
        le=1.0,
        description="Recall: for a question about a home or another attribute that is no"
        " job, the least share of the nearest examples' vote that tells a newer claim is"
        " about something else (it then stays below the older one; docs/updates.md"
        " 'Nearest examples').",
    )
    attribute_lean_min_cosine: float = Field(
        0.2,
        ge=-1.0,
        le=1.0,
        description="Recall: the least cosine of that lean's nearest example"
        " (docs/updates.md 'Nearest examples').",
    )
    reranker_model: str | None = Field(
        None,
        description=(
            "A sentence-transformers CrossEncoder to rerank with (docs/spec.md §3 'Rerank'): a"
            " local"
            " path, or a model name already in the offline Hugging Face cache. None: the"
            " no-op reranker. Loaded on first use; one that cannot be loaded raises"
            " ConfigurationError."
        ),
    )
    rerank_depth: int = Field(
        30,
        ge=1,
        le=1000,
        description=(
            "Candidates a configured reranker reorders: the top max(k, depth) after ranking;"
            " the first k of its order are returned."
        ),
    )
