"""Which parameters the Neo4j store passes to each Cypher statement, and which indexes
:meth:`graphmem.store.neo4j.Neo4jStore.open` requires.

Every call through the store's statement seam is checked against :data:`QUERY_PARAMS`,
and ``tests/unit/test_cypher_files.py`` checks it against the ``$parameters`` each
``cypher/`` file uses, so a statement and its caller cannot drift apart.
"""

from __future__ import annotations

__all__ = ["DIALECT_PARAMS", "QUERY_PARAMS", "REQUIRED_INDEXES", "expected_params"]

_NS = frozenset({"namespace"})
_ROWS = frozenset({"namespace", "rows"})
_IDS = frozenset({"namespace", "ids"})
_NONE: frozenset[str] = frozenset()

QUERY_PARAMS: dict[str, frozenset[str]] = {
    "schema/000_schema_migration_key": _NONE,
    "schema/001_memory_key": _NONE,
    "schema/002_entity_key": _NONE,
    "schema/003_session_key": _NONE,
    "schema/004_turn_key": _NONE,
    "schema/005_relation_key": _NONE,
    "schema/010_memory_embedding": frozenset({"dimensions"}),
    "schema/011_memory_content": _NONE,
    "schema/020_memory_namespace": _NONE,
    "schema/021_memory_time_anchor": _NONE,
    "schema/022_memory_content_hash": _NONE,
    "schema/023_memory_subject_predicate": _NONE,
    "schema/024_entity_namespace": _NONE,
    "schema/025_relation_memory": _NONE,
    "schema/026_relation_namespace": _NONE,
    "schema/027_session_namespace": _NONE,
    "schema/028_turn_namespace": _NONE,
    "write/claim_memories": _IDS,
    "write/upsert_entities": _ROWS,
    "write/upsert_memories": _ROWS,
    "write/clear_memory_links": _IDS,
    "write/add_mentions": _ROWS,
    "write/add_observations": _ROWS,
    "write/upsert_relations": _ROWS,
    "write/end_memory_relations": _ROWS,
    "write/delete_memory_relations": _IDS,
    "write/delete_memories": _IDS,
    "write/prune_provenance": frozenset({"namespace", "session_ids"}),
    "write/prune_entities": _IDS,
    "write/record_access": _ROWS,
    "read/get_memories": frozenset({"namespace", "ids", "with_embeddings"}),
    "read/rank_fields": frozenset({"namespace", "ids", "hydrate"}),
    "read/mask_texts": _IDS,
    "read/memory_sessions": _IDS,
    "read/memory_cosines": frozenset({"namespace", "ids", "embedding", "directed"}),
    "read/find_by_hashes": frozenset({"namespace", "hashes"}),
    "read/find_by_subject_predicate": frozenset({"namespace", "subject", "predicate"}),
    "read/memories_in_session": frozenset({"namespace", "session_id"}),
    "read/list_entities": _NS,
    "read/count_memories": _NS,
    "read/count_memories_at_most": _NS | {"at_most"},
    "read/count_all_memories": _NONE,
    "read/count_current": _NS,
    "read/stats": _NS,
    "read/namespaces": _NONE,
    "read/vector_search": frozenset(
        {"namespace", "embeddings", "k", "fetch_k", "include_history", "include_cold"}
    ),
    "read/vector_search_exact": frozenset(
        {"namespace", "embeddings", "k", "include_history", "include_cold"}
    ),
    "read/namespace_vectors": frozenset({"namespace", "include_history", "include_cold"}),
    "read/text_search": frozenset({"namespace", "lucene", "k", "fetch_k", "include_history"}),
    "read/term_df": frozenset({"namespace", "terms"}),
    "read/bm25_term_df": frozenset({"namespace", "terms", "cap"}),
    "read/entity_search": frozenset(
        {"namespace", "entity_ids", "k", "max_exact", "embedding", "include_history"}
    ),
    "read/entity_search_index": frozenset(
        {"namespace", "entity_ids", "k", "fetch_k", "floor", "embedding", "include_history"}
    ),
    "read/time_window_search": frozenset(
        {
            "namespace",
            "start",
            "end",
            "bounds_sum_us",
            "k",
            "max_exact",
            "embedding",
            "include_history",
        }
    ),
    "read/time_window_search_index": frozenset(
        {"namespace", "start", "end", "k", "fetch_k", "embedding", "include_history"}
    ),
    "read/relation_subgraph": frozenset({"namespace", "entity_ids", "max_hops"}),
    "maintenance/applied_migrations": _NONE,
    "maintenance/backfill_search_text": _NONE,
    "maintenance/record_migration": frozenset({"name"}),
    "maintenance/await_indexes": frozenset({"timeout_s"}),
    "maintenance/show_indexes": _NONE,
    "maintenance/server_components": _NONE,
    "maintenance/delete_namespace_memories": _NS,
    "maintenance/delete_namespace_entities": _NS,
    "maintenance/delete_namespace_turns": _NS,
    "maintenance/delete_namespace_sessions": _NS,
    "maintenance/scan_memories": frozenset({"namespace", "after_id", "limit", "with_embeddings"}),
    "maintenance/list_memories": frozenset(
        {
            "namespace",
            "after_id",
            "limit",
            "tier",
            "retrievable",
            "superseded",
            "types",
            "entity_ids",
        }
    ),
    "maintenance/set_lifecycle": _ROWS,
    "maintenance/add_associations": _ROWS,
    "maintenance/associations": _IDS,
    "maintenance/drop_memory_embedding": _NONE,
    "maintenance/drop_memory_content": _NONE,
    "maintenance/drop_memory_search_text": _NONE,
    "maintenance/embedder_records": _NONE,
    "maintenance/set_embedder_record": frozenset({"namespace", "model", "dim"}),
    "maintenance/delete_embedder_record": _NS,
    "forget/superseded_by": _IDS,
    "forget/relations_of": frozenset({"namespace", "memory_ids", "entity_ids"}),
    "forget/counts": _NS,
    "forget/doomed": frozenset({"namespace", "ids", "relation_ids", "entity_ids"}),
    "forget/delete_relations": _IDS,
    "forget/delete_entities": _IDS,
    "forget/mentioning": _IDS,
    "forget/log_deletion": frozenset({"namespace", "at", "kind", "command", "counts_json", "keys"}),
    "forget/deletion_log": _NS,
    "forget/forgotten": frozenset({"namespace", "key"}),
    "forget/session_ids": _NS,
}
# A dialect's variant of a statement (graphmem.store._cypher) takes the base statement's
# parameters unless listed here.
DIALECT_PARAMS: dict[tuple[str, str], frozenset[str]] = {
    ("cypher25", "schema/010_memory_embedding"): frozenset(
        {"dimensions", "quantization", "hnsw_m", "hnsw_ef_construction"}
    ),
    # one round trip whatever the window: the wide window through the index, asked for fetch_k
    ("cypher25", "read/time_window_search"): QUERY_PARAMS["read/time_window_search"]
    | {"fetch_k", "exact_scores"},
    # the index's own scores are exact when it holds the vectors unquantised
    ("cypher25", "read/vector_search"): QUERY_PARAMS["read/vector_search"] | {"exact_scores"},
}


def expected_params(name: str, dialect: str | None) -> frozenset[str] | None:
    """The parameter keys statement ``name`` takes in ``dialect`` (None: no such statement)."""
    if dialect is not None and (dialect, name) in DIALECT_PARAMS:
        return DIALECT_PARAMS[(dialect, name)]
    return QUERY_PARAMS.get(name)


# Indexes (and constraint-backing indexes) that must be ONLINE after open().
REQUIRED_INDEXES: tuple[str, ...] = (
    "schema_migration_key",
    "memory_key",
    "entity_key",
    "session_key",
    "turn_key",
    "relation_key",
    "memory_embedding",
    "memory_content",
    "memory_namespace",
    "memory_time_anchor",
    "memory_content_hash",
    "memory_subject_predicate",
    "entity_namespace",
    "relation_memory",
    "relation_namespace",
    "session_namespace",
    "turn_namespace",
)
