"""What :meth:`graphmem.store.neo4j.Neo4jStore.open` checks and applies on the server:
authentication, the version (which picks the Cypher dialect) and the ``schema/``
statements, then the indexes' states. Functions of the store's :class:`Neo4jExecutor`.
"""

from __future__ import annotations

import logging
from typing import Any

from neo4j.exceptions import AuthError, DriverError, Neo4jError

from graphmem.errors import ConfigurationError, SchemaError
from graphmem.store import _cypher
from graphmem.store.neo4j._exec import Neo4jExecutor
from graphmem.store.neo4j._params import REQUIRED_INDEXES, expected_params

logger = logging.getLogger("graphmem.store.neo4j")

SUPPORTED_VERSION = (5, 26)
# From this version on the store uses the Cypher 25 variants: in-index filtered vector search
# (GA 2026.02) with `IN` in its filter and an explicit `vector.quantization.type` (2026.06).
FILTERED_VECTOR_VERSION = (2026, 6)
CYPHER25 = "cypher25"
# The vector index properties a filtered SEARCH needs (besides the embedding itself).
FILTER_PROPERTIES = ("namespace", "tier", "retrievable", "superseded_by", "time_anchor")


def check_auth(executor: Neo4jExecutor, *, allow_no_auth: bool) -> None:
    """Refuse a server with authentication disabled unless ``allow_no_auth``."""
    if allow_no_auth:
        return
    if executor.password is not None:  # a server without auth accepts any password: probe
        probe = executor.new_driver(None)
        try:
            probe.verify_connectivity()
        except (AuthError, Neo4jError, DriverError):
            return  # refused without credentials: authentication is on
        finally:
            probe.close()
    raise ConfigurationError(
        f"Neo4j at {executor.uri} has authentication disabled; graphmem refuses such a server"
        " unless allowed explicitly (GRAPHMEM_NEO4J_ALLOW_NO_AUTH=true or"
        " Neo4jStore(..., allow_no_auth=True)), which is meant for local tests only"
    )


def check_server(executor: Neo4jExecutor) -> dict[str, str]:
    """Read the server's version, refuse one older than 5.26, set ``executor.dialect`` by
    it; returns what :meth:`Neo4jStore.server_info` reports."""
    with executor.errors("open"):
        info = executor.driver.get_server_info()
    component = executor.run("maintenance/server_components", {})[0]
    version = str(component["versions"][0])
    try:
        major_minor = tuple(int(x) for x in version.split(".")[:2])
    except ValueError:
        major_minor = (0, 0)
    if major_minor < SUPPORTED_VERSION:
        raise ConfigurationError(
            f"Neo4j {version} at {executor.uri} is too old: graphmem needs Neo4j 5.26 LTS"
            " or 2026.06+"
        )
    executor.dialect = CYPHER25 if major_minor >= FILTERED_VECTOR_VERSION else None
    if major_minor != SUPPORTED_VERSION and executor.dialect is None:
        logger.warning(
            "graphmem runs Neo4j 5.26 LTS or 2026.06+; %s runs %s (using the 5.26 statements)",
            executor.uri,
            version,
        )
    return {
        "address": str(info.address),
        "agent": info.agent,
        "protocol_version": ".".join(map(str, info.protocol_version)),
        "version": version,
        "edition": str(component["edition"]),
        "database": executor.database,
        "cypher": executor.dialect or "cypher5",
    }


def index_states(executor: Neo4jExecutor) -> dict[str, dict[str, Any]]:
    """Every index of the database by name: type, labels / types, properties, state,
    population percent and options."""
    rows = executor.run("maintenance/show_indexes", {})
    return {
        row["name"]: {
            "type": row["type"],
            "entity_type": row["entityType"],
            "labels_or_types": list(row["labelsOrTypes"] or ()),
            "properties": list(row["properties"] or ()),
            "state": row["state"],
            "population_percent": float(row["populationPercent"]),
            "options": row["options"],
        }
        for row in rows
    }


def apply_schema(
    executor: Neo4jExecutor,
    *,
    dim: int,
    quantization: str,
    hnsw: dict[str, int],
    index_timeout_s: int,
    version: str,
) -> None:
    """Apply the ``schema/`` statements not yet recorded, each in its own transaction,
    record them as ``(:SchemaMigration {name})``, wait for the indexes, check them.
    ``hnsw``: ``hnsw_m`` and ``hnsw_ef_construction`` of the vector index (2026.06+)."""
    applied = {row["name"] for row in executor.run("maintenance/applied_migrations", {})}
    values: dict[str, Any] = {"dimensions": dim, "quantization": quantization, **hnsw}
    slow = max(executor.timeout_s, float(index_timeout_s))  # index population
    if _vector_index_outdated(executor, quantization, hnsw):
        logger.warning(
            "neo4j schema: recreating the vector index memory_embedding for Neo4j %s"
            " (filter properties %s, %s quantization, HNSW m %d, ef_construction %d); the"
            " memories' vectors are re-indexed now, which takes a while on a large database",
            version,
            ", ".join(FILTER_PROPERTIES),
            quantization,
            hnsw["hnsw_m"],
            hnsw["hnsw_ef_construction"],
        )
        executor.run("maintenance/drop_memory_embedding", {}, write=True, timeout_s=slow)
        applied.discard("010_memory_embedding")
    if _fulltext_outdated(executor):
        logger.warning(
            "neo4j schema: replacing the fulltext indexes memory_content and"
            " memory_search_text by one memory_content index on content, search_text and"
            " ns_key; the memories' text is re-indexed now, which takes a while on a large"
            " database"
        )
        for drop in ("maintenance/drop_memory_search_text", "maintenance/drop_memory_content"):
            executor.run(drop, {}, write=True, timeout_s=slow)
        applied.discard("011_memory_content")
    for name in _cypher.names():
        stem = name.partition("/")[2]
        if not name.startswith("schema/") or stem in applied:
            continue
        params = {key: values[key] for key in expected_params(name, executor.dialect) or ()}
        executor.run(name, params, write=True, timeout_s=slow)
        if stem == "011_memory_content":  # memories from before contextual keys: by content
            executor.run("maintenance/backfill_search_text", {}, write=True, timeout_s=slow)
        executor.run("maintenance/record_migration", {"name": stem}, write=True)
        logger.info("neo4j schema: applied %s", stem)
    executor.run("maintenance/await_indexes", {"timeout_s": index_timeout_s}, timeout_s=slow)
    states = index_states(executor)
    _check_indexes(states, dim)
    config = states["memory_embedding"]["options"]["indexConfig"]
    stored = str(config.get("vector.quantization.type", "")).lower()
    executor.exact_index_scores = executor.dialect == CYPHER25 and stored == "none"


def _check_indexes(states: dict[str, dict[str, Any]], dim: int) -> None:
    for index in REQUIRED_INDEXES:
        state = states.get(index, {}).get("state")
        if state != "ONLINE":
            raise SchemaError(
                f"index {index} is {state or 'missing'}; check `SHOW INDEXES` (a dropped"
                " index comes back after deleting its (:SchemaMigration) node and reopening)",
                query="open",
            )
    config = states["memory_embedding"]["options"]["indexConfig"]
    if int(config["vector.dimensions"]) != dim:
        raise ConfigurationError(
            f"the vector index memory_embedding has {config['vector.dimensions']} dimensions"
            f" but the store is configured with dim={dim}; use the same embedding model"
            " or another database"
        )


def _fulltext_outdated(executor: Neo4jExecutor) -> bool:
    """Whether the database has the two fulltext indexes of older versions (memory_content
    on content alone, memory_search_text on search_text): they are replaced by one."""
    states = index_states(executor)
    content = states.get("memory_content")
    return "memory_search_text" in states or (
        content is not None and "search_text" not in content["properties"]
    )


def _vector_index_outdated(
    executor: Neo4jExecutor, quantization: str, hnsw: dict[str, int]
) -> bool:
    """On 2026.06+: whether an existing memory_embedding index lacks the filter
    properties or has another quantization or HNSW m / ef_construction than configured
    (it is then recreated)."""
    if executor.dialect != CYPHER25:
        return False
    index = index_states(executor).get("memory_embedding")
    if index is None:
        return False
    properties = set(index["properties"])
    config = (index.get("options") or {}).get("indexConfig") or {}
    stored = str(config.get("vector.quantization.type", "")).lower()
    built = (config.get("vector.hnsw.m"), config.get("vector.hnsw.ef_construction"))
    wanted = (hnsw["hnsw_m"], hnsw["hnsw_ef_construction"])
    return (
        not set(FILTER_PROPERTIES) <= properties
        or stored != quantization
        or tuple(int(x) if x is not None else None for x in built) != wanted
    )
