"""Bad input to the forget calls (SPEC §9.16; the bad-input contract of
``test_bad_input.py``): generated memory ids, entity names and namespaces — random
unicode, blanks, NUL, bidi controls, Lucene and Cypher syntax, 100 000 characters.

The contract: a forget of something that is not there raises
:class:`InvalidInputError` (namespace, name, memory_ids) or
:class:`MemoryNotFoundError`, naming what was asked for, and the namespace is
unchanged (counts, deletion log); never another exception, never a deletion. A name
that does resolve (here: the seeded entity "Alice") forgets it and nothing else.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem
from graphmem.errors import InvalidInputError, MemoryNotFoundError
from graphmem.store.base import MemoryStore
from tests.reliability.conftest import T0, add_figure
from tests.reliability.test_bad_input import BLANK, CONTROL, CYPHER, EMOJI, LUCENE, RTL

EXAMPLES = {
    "embedded": int(os.environ.get("GRAPHMEM_RELIABILITY_EXAMPLES_EMBEDDED", "200")) // 2,
    "neo4j": int(os.environ.get("GRAPHMEM_RELIABILITY_EXAMPLES_NEO4J", "50")) // 2,
}
_soup = st.lists(
    st.sampled_from(LUCENE + CYPHER + RTL + EMOJI + CONTROL + ["Bob", "Paris"]),
    min_size=1,
    max_size=6,
).map(" ".join)
names = st.one_of(
    st.text(min_size=0, max_size=60),
    _soup,
    st.sampled_from(BLANK),
    st.sampled_from(["a" * 100_000, "x\x00y", "' OR 1=1 --", "*", "?"]),
)
namespaces = st.one_of(names, st.sampled_from(["../etc", "ns x", "ns;DROP", "é"]))


def _seed(memory: GraphMem, ns: str) -> None:
    memory.remember(
        ns,
        [
            {
                "content": f"Alice drinks {drink}",
                "extractor": "verbatim",
                "session_id": f"s{i}",
                "turn_id": f"s{i}:1",
                "observed_at": T0.isoformat(),
                "entities": [{"name": "Alice", "role": "subject"}],
            }
            for i, drink in enumerate(("tea", "coffee"))
        ],
    )


def _settings(kind: str) -> settings:
    return settings(
        max_examples=EXAMPLES[kind],
        deadline=None,
        derandomize=os.environ.get("GRAPHMEM_RELIABILITY_EXPLORE") != "1",
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.function_scoped_fixture,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


def test_generated_forget_targets_are_rejected_without_a_deletion(
    memory: GraphMem, store: MemoryStore, ns: str, store_kind: str
) -> None:
    _seed(memory, ns)
    before = store.stats(ns)
    tally = {"tried": 0, "rejected": 0}

    @_settings(store_kind)
    @given(target=names, kind=st.sampled_from(["memory", "entity"]), other_ns=namespaces)
    @example(target="\x00", kind="entity", other_ns=ns)
    @example(target="MATCH (n) DETACH DELETE n", kind="memory", other_ns=ns)
    def check(target: str, kind: str, other_ns: str) -> None:
        tally["tried"] += 1
        where = ns if other_ns == ns or not other_ns.strip() else other_ns
        call: Any = memory.forget_memory if kind == "memory" else memory.forget_entity
        try:
            report = call(where, target, dry_run=False)
        except (InvalidInputError, MemoryNotFoundError):
            tally["rejected"] += 1
        else:  # only a name that resolves gets here, and "Alice" is the only entity
            assert where == ns and kind == "entity", (where, kind, target)
            assert report.memories == 2
            _seed(memory, ns)
            before["memories"] = store.stats(ns)["memories"]
        assert store.stats(ns) == before

    check()
    assert tally["rejected"] >= tally["tried"] - 3
    for key, value in tally.items():
        add_figure(f"bad_input.{store_kind}.forgets_{key}", value)
