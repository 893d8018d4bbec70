"""The Cypher files of ``cypher/`` and the Neo4j store's use of them (no server needed).

Every file loads and is one statement over the fixed vocabulary of labels and
relationship types; the ``$parameters`` each statement uses are exactly the keys the
store passes (checked two ways: against :data:`QUERY_PARAMS`, and by recording what the
store's methods actually send through its statement seam); Lucene escaping.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from graphmem.errors import InvalidInputError, StoreError
from graphmem.models import Entity, Memory, Mention, Observation, Relation
from graphmem.store import _cypher
from graphmem.store.base import ACCESS_FIELDS, AccessUpdate, WriteBatch
from graphmem.store.neo4j import QUERY_PARAMS, Neo4jStore
from graphmem.store.neo4j import _codec as codec
from graphmem.store.neo4j._params import REQUIRED_INDEXES, expected_params
from graphmem.text import content_hash

LABELS = frozenset(
    {"Memory", "Entity", "Session", "Turn", "SchemaMigration", "EmbedderRecord", "DeletionLog"}
)
REL_TYPES = frozenset({"MENTIONS", "RELATES_TO", "OBSERVED_IN", "IN_SESSION", "ASSOCIATED_WITH"})
ALL_NAMES = _cypher.names()
RUN_NAMES = tuple(n for n in ALL_NAMES if not n.startswith("explore/"))
EXPLORE_NAMES = tuple(n for n in ALL_NAMES if n.startswith("explore/"))
T0 = datetime(2024, 5, 8, 12, 0, tzinfo=UTC)
DIM = 4

# `(x:Label`, `[r:TYPE|OTHER`, `x:Label` in predicates; strings and comments are gone.
_NODE_LABELS = re.compile(r"\(\s*\w*\s*:\s*([A-Za-z_|&!]+)")
_REL_TYPES = re.compile(r"\[\s*\w*\s*:\s*([A-Za-z_|!]+)")
_PREDICATE_LABELS = re.compile(r"\b[a-z_]\w*:([A-Z]\w*)")
_HINTS = re.compile(r"USING (?:RANGE |TEXT |POINT )?INDEX (?:SEEK )?\w+:(\w+)")
_BRACKETS = re.compile(r"\[[^\]]*\]")


def _labels_and_types(statement: str) -> tuple[set[str], set[str]]:
    """Labels and relationship types a statement names (an index hint's label or type
    counts as either, whichever vocabulary holds it)."""
    code = _cypher.code_only(statement)
    labels: set[str] = set()
    types: set[str] = set()
    for match in _HINTS.findall(code):
        (types if match in REL_TYPES else labels).add(match)
    code = _HINTS.sub(" ", code)
    for match in _NODE_LABELS.findall(code):
        labels.update(x for x in re.split(r"[|&!]", match) if x)
    for match in _REL_TYPES.findall(code):
        types.update(x for x in re.split(r"[|!]", match) if x)
    labels.update(_PREDICATE_LABELS.findall(_BRACKETS.sub(" ", code)))
    return labels, types


# -- the files ----------------------------------------------------------------------
def test_there_are_files_of_every_kind() -> None:
    folders = {name.partition("/")[0] for name in ALL_NAMES}
    assert folders == {"schema", "read", "write", "maintenance", "forget", "explore"}
    assert 4 <= len(EXPLORE_NAMES) <= 7  # 7: recall_path (issue 12)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_file_is_exactly_one_statement(name: str) -> None:
    statement = _cypher.load(name)
    code = _cypher.code_only(statement).strip()
    assert code, f"{name} is empty"
    assert ";" not in code, f"{name} holds more than one statement"
    assert not statement.endswith(";")


@pytest.mark.parametrize("name", ALL_NAMES)
def test_file_uses_only_the_fixed_vocabulary(name: str) -> None:
    labels, types = _labels_and_types(_cypher.load(name))
    assert labels <= LABELS, f"{name}: unknown labels {sorted(labels - LABELS)}"
    assert types <= REL_TYPES, f"{name}: unknown relationship types {sorted(types - REL_TYPES)}"


def test_vocabulary_scanner_sees_labels_and_types() -> None:
    labels, types = _labels_and_types(
        "MATCH (m:Memory)-[r:MENTIONS|OBSERVED_IN]->(:Bogus) USING INDEX r:RELATES_TO(id)\n"
        "WHERE x:Turn // (:Hidden)\nRETURN '(:InString)'"
    )
    assert labels == {"Memory", "Bogus", "Turn"}
    assert types == {"MENTIONS", "OBSERVED_IN", "RELATES_TO"}


def test_query_params_cover_exactly_the_statements_the_store_runs() -> None:
    assert set(QUERY_PARAMS) == set(RUN_NAMES)


@pytest.mark.parametrize("name", RUN_NAMES)
def test_statement_parameters_equal_the_keys_the_store_passes(name: str) -> None:
    assert _cypher.parameters(_cypher.load(name)) == QUERY_PARAMS[name]


@pytest.mark.parametrize("name", EXPLORE_NAMES)
def test_explore_query_declares_its_params_for_browser(name: str) -> None:
    statement = _cypher.load(name)
    declared = set(re.findall(r"^//\s+:param (\w+) => \S", statement, flags=re.MULTILINE))
    assert declared, f"{name} has no ':param' header"
    assert _cypher.parameters(statement) == declared


def test_schema_files_are_idempotent_and_create_the_required_indexes() -> None:
    created: list[str] = []
    for name in (n for n in ALL_NAMES if n.startswith("schema/")):
        code = " ".join(_cypher.code_only(_cypher.load(name)).split())
        assert "IF NOT EXISTS" in code, name
        match = re.match(r"CREATE (?:CONSTRAINT|(?:RANGE |VECTOR |FULLTEXT )?INDEX) (\w+) ", code)
        assert match, f"{name} does not create a named index or constraint"
        created.append(match.group(1))
    assert sorted(created) == sorted(REQUIRED_INDEXES)
    assert len(set(created)) == len(created)


# -- dialect variants (Neo4j 2026.06+: cypher25/) --------------------------------------
VARIANTS = tuple(
    (dialect, name) for dialect in _cypher.DIALECTS for name in sorted(_cypher.variants(dialect))
)


def test_the_cypher25_dialect_replaces_the_vector_index_and_its_search() -> None:
    assert {"schema/010_memory_embedding", "read/vector_search"} <= _cypher.variants("cypher25")


@pytest.mark.parametrize(("dialect", "name"), VARIANTS)
def test_a_variant_replaces_a_base_statement_with_its_declared_parameters(
    dialect: str, name: str
) -> None:
    assert name in ALL_NAMES, f"{dialect}/{name} replaces no base statement"
    variant = _cypher.load(name, dialect)
    assert variant != _cypher.load(name)
    assert _cypher.parameters(variant) == expected_params(name, dialect)
    code = _cypher.code_only(variant).strip()
    assert code.startswith("CYPHER 25"), f"{dialect}/{name} must select Cypher 25 itself"
    assert ";" not in code
    labels, types = _labels_and_types(variant)
    assert labels <= LABELS and types <= REL_TYPES


def test_a_dialect_without_a_variant_loads_the_base_statement() -> None:
    assert _cypher.load("read/get_memories", "cypher25") == _cypher.load("read/get_memories")
    with pytest.raises(KeyError):
        _cypher.load("read/get_memories", "cypher99")
    with pytest.raises(KeyError):
        _cypher.load("cypher25/read/vector_search")


def test_the_filtered_vector_index_declares_what_its_search_filters_on() -> None:
    raw = _cypher.load("schema/010_memory_embedding", "cypher25")
    index = _cypher.code_only(raw)
    declared = set(re.findall(r"m\.(\w+)", index.partition("WITH [")[2].partition("]")[0]))
    assert declared == {"namespace", "tier", "retrievable", "superseded_by", "time_anchor"}
    searches = 0
    for name in _cypher.variants("cypher25"):
        code = _cypher.code_only(_cypher.load(name, "cypher25"))
        for var, where in re.findall(r"SEARCH (\w+) IN \(.*?WHERE(.*?)LIMIT", code, re.S):
            searches += 1
            filtered = set(re.findall(rf"\b{var}\.(\w+)", where))
            assert "namespace" in filtered, name  # namespaces never leak into each other
            assert filtered <= declared, (name, filtered - declared)
            assert not re.search(r"\b(OR|NOT)\b|<>", where), name  # SEARCH takes AND only
    assert searches == 6  # two visibility branches in each of the three filtered searches
    assert "`vector.quantization.type`: $quantization" in " ".join(raw.split())


# -- the loader ----------------------------------------------------------------------
def test_load_is_cached_and_rejects_unknown_names() -> None:
    assert _cypher.load("read/vector_search") is _cypher.load("read/vector_search")
    with pytest.raises(KeyError):
        _cypher.load("read/no_such_statement")
    with pytest.raises(KeyError):
        _cypher.load("../pyproject")


def test_parameters_ignore_comments_and_strings() -> None:
    statement = '// $a\nMATCH (n {x: \'$b\', y: "\\"$c"}) /* $d */ WHERE n.`$e` = $f RETURN $g'
    assert _cypher.parameters(statement) == {"f", "g"}


# -- what the store really sends ------------------------------------------------------
class RecordingStore(Neo4jStore):
    """A Neo4jStore whose executor records every statement and returns canned rows (the
    seam's key check still runs)."""

    def __init__(self) -> None:
        super().__init__("bolt://unused:7687", dim=DIM, exact_search_max=0)
        self.calls: list[tuple[str, frozenset[str]]] = []
        setattr(self.executor, "run", self._record)  # noqa: B010 - shadow the seam's run

    def _record(
        self, name: str, params: Mapping[str, Any], **_options: Any
    ) -> list[dict[str, Any]]:
        self.executor.prepare(name, params)  # raises on keys that QUERY_PARAMS does not list
        self.calls.append((name, frozenset(params)))
        if name in {"read/count_memories", "read/count_current", "read/count_all_memories"}:
            return [{"count": 10}]
        if name == "read/stats":
            return [{"memories": 0}]
        return []


class RecordingTx:
    def __init__(self) -> None:
        self.calls: list[tuple[str, frozenset[str]]] = []

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        self.calls.append((name, frozenset(params)))
        claimed = [{"id": i, "version": 0, "stored": False} for i in params.get("ids", ())]
        return [{"session_ids": ["s0"], "claimed": claimed}]


def _memory(i: int, namespace: str = "ns") -> Memory:
    content = f"memory {i}"
    return Memory(
        id=f"m{i}",
        namespace=namespace,
        type="Fact",
        content=content,
        subject="alice" if i % 2 else None,
        predicate="likes" if i % 2 else None,
        source_level="direct",
        source_strength=0.95,
        extractor="verbatim",
        extractor_confidence=1.0,
        type_prior=0.8,
        n=1,
        observations=(
            Observation(
                session_id="s1",
                turn_id=f"t{i}",
                observed_at=T0 + timedelta(hours=i),
                source_level="direct",
                surface_hash="h",
            ),
            Observation(
                session_id="s2", observed_at=T0, source_level="confirmed", surface_hash="h2"
            ),
        ),
        confidence=0.8,
        accessed_sessions=("s9",),
        last_accessed_at=T0,
        created_at=T0,
        last_observed_at=T0,
        event_time=T0 + timedelta(days=i),
        content_hash=content_hash("Fact", None, None, content),
        mentions=(Mention(entity_id="e2", role="object"), Mention(entity_id="e1", role="subject")),
        embedding=(0.5, -0.25, 0.125, 1.0),
    )


def test_every_read_method_passes_exactly_its_statements_parameters() -> None:
    store = RecordingStore()
    query = np.ones((2, DIM), dtype=np.float32)
    store.get_memories("ns", ["a", "b"], with_embeddings=True)
    store.find_by_hashes("ns", ["h"])
    store.find_by_subject_predicate("ns", "s", "p")
    store.memories_in_session("ns", "s1")
    store.list_entities("ns")
    store.count_memories("ns")
    store.stats("ns")
    store.namespaces()
    store.vector_search("ns", query, 3)
    store.text_search("ns", "hello world", 3)
    store.entity_search("ns", ["e1"], 3, embedding=query[0])
    store.time_window_search("ns", T0, T0 + timedelta(days=1), 3, embedding=query[0])
    store.relation_subgraph("ns", ["e1"], 2)
    store.term_stats("ns", ["hello"])
    store.memory_sessions("ns", ["a", "b"])
    store.index_states()
    assert store.calls
    for name, keys in store.calls:
        assert keys == _cypher.parameters(_cypher.load(name)), name
    called = {name for name, _ in store.calls}
    assert {"read/vector_search", "read/vector_search_exact", "read/text_search"} <= called
    assert "read/bm25_term_df" in called


def test_the_filtered_vector_search_sends_its_variants_parameters() -> None:
    store = RecordingStore()
    store.executor.dialect = "cypher25"
    store.vector_search("ns", np.ones((1, DIM), dtype=np.float32), 3)
    assert ("read/vector_search", expected_params("read/vector_search", "cypher25")) in store.calls
    assert "read/vector_search_exact" not in {name for name, _ in store.calls}


def test_every_write_statement_gets_exactly_its_parameters() -> None:
    tx = RecordingTx()
    batch = WriteBatch(
        memories=[_memory(1), _memory(2)],
        entities=[Entity(id="e1", namespace="ns", name="Alice")],
        relations=[
            Relation(
                id="r1",
                namespace="ns",
                source_id="e1",
                target_id="e2",
                predicate="knows",
                confidence=0.9,
                memory_id="m1",
            )
        ],
        deleted_memory_ids=["m0"],
    )
    codec.apply_batch(tx, "ns", batch, DIM)
    names = [name for name, _ in tx.calls]
    assert names == [
        "write/claim_memories",
        "write/upsert_entities",
        "write/upsert_memories",
        "write/clear_memory_links",
        "write/add_mentions",
        "write/add_observations",
        "write/upsert_relations",
        "write/delete_memory_relations",
        "write/delete_memories",
        "write/prune_provenance",
    ]
    for name, keys in tx.calls:
        assert keys == _cypher.parameters(_cypher.load(name)), name


def test_the_seam_refuses_keys_the_statement_does_not_declare() -> None:
    store = RecordingStore()
    with pytest.raises(StoreError, match="read/count_memories"):
        store.executor.prepare("read/count_memories", {"namespace": "ns", "extra": 1})


def test_access_updates_are_validated_before_any_query() -> None:
    store = RecordingStore()
    naive = datetime(2024, 1, 1)  # naive on purpose
    with pytest.raises(InvalidInputError, match=r"updates\[0\]\.accessed_at"):
        store.record_access("ns", [AccessUpdate("m", naive, 0.1, 0.5)])
    with pytest.raises(InvalidInputError, match=r"updates\[0\]\.salience"):
        store.record_access("ns", [AccessUpdate("m", T0, 0.1, 1.5)])
    with pytest.raises(InvalidInputError, match="start"):
        store.time_window_search("ns", naive, T0, 3)
    with pytest.raises(InvalidInputError, match="max_hops"):
        store.relation_subgraph("ns", ["e"], 4)
    with pytest.raises(InvalidInputError, match="k"):
        store.text_search("ns", "x", 0)
    with pytest.raises(InvalidInputError, match="embeddings"):
        store.vector_search("ns", np.ones((1, DIM + 1), dtype=np.float32), 3)
    assert store.calls == []


def test_batch_is_validated_before_any_query() -> None:
    tx = RecordingTx()
    store = RecordingStore()
    bad_dim = _memory(1).model_copy(update={"embedding": (1.0, 2.0)})
    with pytest.raises(InvalidInputError, match=r"memories\[0\]\.embedding"):
        store.write("ns", WriteBatch(memories=[bad_dim]))
    with pytest.raises(InvalidInputError, match=r"memories\[0\]\.namespace"):
        store.write("ns", WriteBatch(memories=[_memory(1, namespace="other")]))
    assert tx.calls == [] and store.calls == []


# -- rows and models --------------------------------------------------------------------
def test_memory_survives_the_row_and_record_mapping() -> None:
    memory = _memory(1)
    row = codec.memory_row(memory, DIM)
    props = row["props"]
    assert props["time_anchor"] == memory.time_anchor
    assert props["time_anchor"].utcoffset() == timedelta(0)
    assert "embedding" not in props  # written by db.create.setNodeVectorProperty
    assert set(row["access"]) == set(ACCESS_FIELDS)  # written apart (kept by checked writes)
    record = {**props, **row["access"], "id": row["id"], "embedding": row["embedding"]}
    record["version"] = 0
    record["mentions"] = [
        {"entity_id": r["entity_id"], "role": r["role"]} for r in codec.mention_rows([memory])
    ]
    assert codec.memory_from_record(record, "ns") == memory


def test_only_fixed_offset_datetimes_reach_the_driver() -> None:
    # zoneinfo.ZoneInfo crashes the driver's packer (see store/neo4j/_codec.py, wire).
    zoned = datetime(2024, 3, 10, 1, 30, tzinfo=ZoneInfo("America/New_York"))
    memory = _memory(1).model_copy(
        update={
            "event_time": zoned,
            "created_at": zoned,
            "observations": (
                Observation(
                    session_id="s", observed_at=zoned, source_level="direct", surface_hash="h"
                ),
            ),
        }
    )
    relation = Relation(
        id="r",
        namespace="ns",
        source_id="a",
        target_id="b",
        predicate="p",
        confidence=0.5,
        memory_id="m1",
        valid_from=zoned,
    )
    values: list[Any] = [
        *codec.memory_row(memory, DIM)["props"].values(),
        *codec.observation_rows([memory])[0].values(),
        *codec.relation_row(relation)["props"].values(),
        *codec.access_row(AccessUpdate("m1", zoned, 0.1, 0.5)).values(),
    ]
    stamps = [v for v in values if isinstance(v, datetime)]
    assert len(stamps) >= 7
    for stamp in stamps:
        assert type(stamp.tzinfo) is timezone, stamp
    assert codec.wire(zoned) == zoned
    assert codec.wire(zoned).utcoffset() == timedelta(hours=-5)  # type: ignore[union-attr]


def test_observation_rows_collapse_a_turn_and_keep_turnless_observations() -> None:
    rows = codec.observation_rows([_memory(1)])
    assert [(r["session_id"], r["turn_id"]) for r in rows] == [("s1", "t1"), ("s2", "")]


# -- Lucene -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("hello world", "hello world"),
        ("C++", r"C\+\+"),
        ("a-b", r"a\-b"),
        ("x && y || !z", r"x y \!z"),
        ("(a) {b} [c]", r"\(a\) \{b\} \[c\]"),
        ('^a "b" ~c *d ?e', r"\^a \"b\" \~c \*d \?e"),
        (r"k:v a\b c/d", r"k\:v a\\b c\/d"),
        ("cats AND dogs OR birds NOT fish", "cats and dogs or birds not fish"),
        ("And or Not", "And or Not"),
    ],
)
def test_lucene_escape(text: str, escaped: str) -> None:
    assert codec.lucene_escape(text) == escaped


@pytest.mark.parametrize("text", ["", "   ", "&& || !", "+ - ( ) : \\ /", '"" ~ * ?'])
def test_lucene_escape_of_nothing_searchable_is_empty(text: str) -> None:
    assert codec.lucene_escape(text) == ""


def test_lucene_escape_caps_the_number_of_words() -> None:
    assert len(codec.lucene_escape("w " * 5000).split()) == codec.MAX_QUERY_WORDS


def test_text_search_without_searchable_terms_sends_no_query() -> None:
    store = RecordingStore()
    assert store.text_search("ns", "&& || ! --", 5) == []
    assert store.text_search("ns", "   ", 5) == []
    assert store.calls == []


def test_namespace_key_is_one_lucene_token() -> None:
    key = codec.ns_key("tenant with spaces/and:colons")
    assert re.fullmatch(r"ns[0-9a-f]{32}", key)
    assert codec.ns_key("a") != codec.ns_key("b")
    query = codec.lucene_query("a", codec.lucene_escape("hello"))
    assert query == f"ns_key:{codec.ns_key('a')}^0 AND content:(hello)"


def _projected(name: str) -> set[str]:
    """The properties and keys a statement's memory map projection ``m { ... }`` names
    (up to its mentions)."""
    text = _cypher.code_only(_cypher.load(name))
    body = text[text.index("m {") + 3 : text.index("mentions:")]
    return {a or b for a, b in re.findall(r"\.(\w+)|(\w+):", body)}


def test_rank_fields_hydrates_what_get_memories_projects() -> None:
    # read/rank_fields reads the whole memory of a recall's best candidates, which the
    # hydration then takes instead of read/get_memories: the two projections must agree
    assert _projected("read/rank_fields") == _projected("read/get_memories")
    assert "key" in _projected("read/get_memories")
