"""Store settings: where memories live - the embedded store's directory, or a Neo4j
server, its credentials and its vector index (docs/spec.md §6).

Part of :class:`graphmem.settings.Settings` as ``settings.store``; every field is read from
``GRAPHMEM_<FIELD>`` as well (``docs/configuration.md``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr

from graphmem.settings.base import Concern


class StoreSettings(Concern):
    """Store settings (``settings.store``)."""

    data_dir: Path = Field(Path(".graphmem"), description="Embedded store directory.")
    neo4j_uri: str | None = Field(None, description="Bolt URI; set it to use the Neo4j store.")
    neo4j_user: str = Field("neo4j", description="Neo4j user name.")
    neo4j_password: SecretStr | None = Field(
        None, description="Neo4j password (never printed; GRAPHMEM_NEO4J_PASSWORD)."
    )
    neo4j_database: str = Field("neo4j", description="Neo4j database name.")
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
