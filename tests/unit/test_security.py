"""Security basics that need no server: no default Neo4j password, the no-auth guard
reaches the store from the settings, credentials stay out of messages and reprs."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import ConfigurationError, Settings
from graphmem.memory import make_store
from graphmem.store.neo4j import Neo4jStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_ALLOW_NO_AUTH"):
        monkeypatch.delenv(f"GRAPHMEM_{name}", raising=False)


def test_there_is_no_default_password() -> None:
    assert Settings().store.neo4j_password is None
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert 'NEO4J_AUTH: "neo4j/${GRAPHMEM_NEO4J_PASSWORD:-' in compose  # from the environment
    for path in (ROOT / "graphmem").rglob("*.py"):
        assert "graphmem-local-only" not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("allowed", [False, True])
def test_make_store_passes_the_no_auth_choice(allowed: bool) -> None:
    settings = Settings(
        neo4j_uri="bolt://127.0.0.1:7687", neo4j_password="pw-123456", neo4j_allow_no_auth=allowed
    )
    store = make_store(settings)
    assert isinstance(store, Neo4jStore)
    assert store._allow_no_auth is allowed
    assert store.executor.password == "pw-123456"
    assert Settings().store.neo4j_allow_no_auth is False  # refused unless asked for


def test_the_password_is_secret_in_settings() -> None:
    settings = Settings(neo4j_password="pw-123456")
    assert "pw-123456" not in repr(settings) and "pw-123456" not in str(settings)
    assert "pw-123456" not in settings.model_dump_json()


def test_a_uri_with_credentials_is_refused_without_echoing_them() -> None:
    with pytest.raises(ConfigurationError) as info:
        Neo4jStore("bolt://neo4j:pw-123456@127.0.0.1:7687")
    assert "pw-123456" not in str(info.value)
    assert "GRAPHMEM_NEO4J_PASSWORD" in str(info.value)
