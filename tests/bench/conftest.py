"""Fixtures of the benchmark harness's tests: the store contract suite's ``store`` (one
run per store: embedded, and Neo4j marked ``neo4j``) for the probes that run on both."""

from tests.contract.conftest import store, store_factory, store_kind

__all__ = ["store", "store_factory", "store_kind"]
