"""Hypothesis-generated bad input (issue 6 §5 "bad input").

Candidates and queries full of what real callers send by mistake or malice:
random unicode (surrogate-free), right-to-left text and bidi controls, emoji
sequences, NUL, empty and blank strings, content past ``max_length`` (up to
100 000 characters), Lucene query syntax, Cypher-looking text, NaN / inf /
out-of-range scores in ``logprobs`` / ``extractor_confidence`` / ``salience``,
naive and extreme datetimes, and embedders that return the wrong dimension or
non-finite vectors.

The contract: a call either succeeds — and what was accepted reads back
exactly (content, subject / predicate / object, session, turn, times) — or it
raises :class:`InvalidMemoryError` / :class:`InvalidQueryError` naming the
field. Never another exception, never a partial write (the namespace's counts
are unchanged after a rejected call).

Examples per store: ``GRAPHMEM_RELIABILITY_EXAMPLES_EMBEDDED`` (default 200) and
``..._NEO4J`` (default 50); runs are derandomised (the same examples every
run) unless ``GRAPHMEM_RELIABILITY_EXPLORE=1``.
"""

from __future__ import annotations

import math
import os
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem
from graphmem.errors import InvalidInputError, InvalidMemoryError, InvalidQueryError
from graphmem.settings import MEMORY_TYPES, SOURCE_LEVELS
from graphmem.store.base import MemoryStore, Vector
from graphmem.text import normalize
from tests.fakes import HashEmbedder
from tests.reliability.conftest import NOW, T0, MemoryFactory, add_figure

EXAMPLES = {
    "embedded": int(os.environ.get("GRAPHMEM_RELIABILITY_EXAMPLES_EMBEDDED", "200")),
    "neo4j": int(os.environ.get("GRAPHMEM_RELIABILITY_EXAMPLES_NEO4J", "50")),
}
EXPLORE = os.environ.get("GRAPHMEM_RELIABILITY_EXPLORE", "") == "1"

LUCENE = [
    *("+", "-", "&&", "||", "!", "(", ")", "{", "}", "[", "]", "^", '"', "~", "*", "?", ":"),
    *("\\", "/", "AND", "OR", "NOT"),
]
CYPHER = [
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) MATCH (n) DETACH DELETE n //',
    "') RETURN 1 UNION MATCH (m:Memory) RETURN m.content //",
    "$namespace",
    "`Memory`",
    "CALL db.index.fulltext.queryNodes('memory_content', '*')",
    "ns_key:ns0 OR content:*",
]
RTL = ["שלום עולם", "مرحبا بالعالم", "\u202eevil\u202c", "\u200f\u200e"]
EMOJI = ["👩\u200d👩\u200d👧\u200d👦", "🧠💾", "🏳️\u200d🌈", "é"]
CONTROL = ["\x00", "a\x00b", "\x1b[31m", "\r\n", "\ufeff"]
WORDS = ["Alice", "tea", "Paris", "2023", "last", "week", "yesterday", "graph", "memory"]
# Time expressions a datetime cannot hold (fixed in timeparse after this suite found them)
ODD_TIMES = ["12000 years ago", "99999999999 days ago", "in March 0000", "31 December 9999"]
BLANK = ["", " ", "\t\n", "\u3000", "\u00a0"]

_unicode = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=80)
_soup = st.lists(
    st.sampled_from(LUCENE + CYPHER + RTL + EMOJI + CONTROL + WORDS + ODD_TIMES),
    min_size=1,
    max_size=10,
).map(" ".join)
short_text = st.one_of(_unicode, _soup, st.sampled_from(BLANK))
huge_text = st.builds(
    lambda piece, n: (piece * n)[:n],
    st.sampled_from(["a", "😀", "x y ", "AND ", "\x00"]),
    st.sampled_from([4_000, 4_001, 19_999, 20_000, 20_001, 100_000]),
)
content_text = st.one_of(_soup, _unicode, st.sampled_from(BLANK), huge_text)

odd_floats = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.0, 1.0, 1.000001, -1e-9, 1e308]),
    st.floats(allow_nan=True, allow_infinity=True),
)
offsets = st.one_of(
    st.timedeltas(min_value=timedelta(hours=-23, minutes=-59), max_value=timedelta(hours=23)),
    st.sampled_from([timedelta(0), timedelta(hours=5, minutes=30), timedelta(seconds=37)]),
).map(timezone)
aware = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=offsets),
    st.datetimes(timezones=st.timezones()),
    st.sampled_from([T0, datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, tzinfo=UTC)]),
)
naive = st.datetimes()
times = st.one_of(st.none(), aware, naive)
plausible = st.one_of(  # valid for graphmem: offsets within ±18:00, years 2-9998
    st.datetimes(
        min_value=datetime(2, 1, 1),
        max_value=datetime(9998, 12, 31),
        timezones=st.timedeltas(timedelta(hours=-18), timedelta(hours=18)).map(timezone),
    ),
    st.datetimes(timezones=st.timezones()),
)

entity = st.fixed_dictionaries(
    {"name": short_text},
    optional={
        "kind": st.one_of(st.sampled_from(["Person", "Place", ""]), short_text),
        "role": st.sampled_from(["subject", "object", "mention", "boss"]),
        "aliases": st.lists(short_text, max_size=2),
    },
)
relation = st.fixed_dictionaries(
    {
        "source": short_text,
        "predicate": st.one_of(
            st.sampled_from(["knows", "works at", "_x", "1bad", ""]), short_text
        ),
        "target": short_text,
    }
)
# Valid candidates whose every text field is hostile (and times in any zone): these
# must be accepted and read back exactly.
_text = st.one_of(_soup, _unicode)


def _fits(limit: int) -> st.SearchStrategy[str]:
    return _text.filter(lambda t: len(t) <= limit)


_name = _fits(512).filter(lambda t: bool(t.strip()))
valid_candidate = st.fixed_dictionaries(
    {
        "content": st.one_of(
            _soup,
            _text.filter(lambda t: bool(t.strip())),
            st.builds(
                lambda piece, n: (piece * n)[:n],
                st.sampled_from(["😀", "x y ", "שלום ", "\x00a"]),
                st.sampled_from([4_000, 20_000]),
            ),
        )
    },
    optional={
        "type": st.sampled_from([*MEMORY_TYPES, "unknown"]),
        "source_level": st.sampled_from(SOURCE_LEVELS),
        "extractor": _fits(200).filter(lambda t: bool(t)),
        "logprobs": st.lists(st.floats(max_value=0.0, allow_nan=False), min_size=1, max_size=3),
        "extractor_confidence": st.floats(0.0, 1.0),
        "salience": st.floats(0.0, 1.0),
        "session_id": _fits(200).filter(lambda t: bool(t)),
        "turn_id": _fits(200),
        "observed_at": plausible,
        "event_time": plausible,
        "subject": _fits(512),
        "predicate": _fits(128),
        "object": _fits(2000),
        "entities": st.lists(st.fixed_dictionaries({"name": _name}), max_size=2),
        "relations": st.lists(
            st.fixed_dictionaries(
                {
                    "source": _name,
                    "predicate": st.sampled_from(["knows", "works at"]),
                    "target": _name,
                }
            ),
            max_size=1,
        ),
    },
)
# Anything goes: most of these must be rejected, naming the field.
wild_candidate = st.fixed_dictionaries(
    {"content": content_text},
    optional={
        "type": st.sampled_from([*MEMORY_TYPES, "unknown", "fact", "Bogus", ""]),
        "source_level": st.sampled_from([*SOURCE_LEVELS, "bogus"]),
        "hearsay": st.booleans(),
        "extractor": st.one_of(st.sampled_from(["verbatim", "gpt-4o", "unknown"]), short_text),
        "logprobs": st.one_of(st.none(), st.lists(odd_floats, max_size=4).map(tuple)),
        "extractor_confidence": st.one_of(st.none(), odd_floats),
        "salience": st.one_of(st.none(), odd_floats),
        "session_id": short_text,
        "turn_id": st.one_of(st.none(), short_text),
        "observed_at": times,
        "event_time": times,
        "subject": st.one_of(st.none(), short_text),
        "predicate": st.one_of(st.none(), short_text),
        "object": st.one_of(st.none(), short_text),
        "grounding": st.sampled_from(["supported", "partial", "unknown", "unsupported", "bogus"]),
        "entities": st.lists(entity, max_size=2),
        "relations": st.lists(relation, max_size=2),
    },
)
candidate = st.one_of(valid_candidate, wild_candidate)
query = st.fixed_dictionaries(
    {"text": st.one_of(_soup, _unicode, st.sampled_from(BLANK), huge_text)},
    optional={
        "k": st.integers(min_value=-2, max_value=1002),
        "reference_time": times,
        "include_history": st.booleans(),
        "types": st.lists(st.sampled_from([*MEMORY_TYPES, "Bogus"]), max_size=2),
        "mmr": st.booleans(),
        "plan": st.sampled_from(["precise", "hybrid", "exploratory", "bogus"]),
        "retrievers": st.lists(
            st.sampled_from(["semantic", "bm25", "entity", "temporal", "graph", "nope"]),
            max_size=3,
        ),
        "profile": st.sampled_from(["rrf", "composite", "bogus"]),
        "session_id": st.one_of(st.none(), short_text),
    },
)
SEED_CONTENTS = [
    "Alice Moreau drinks green tea in Paris",
    "C++ AND rust -- (fast) [really] {maybe} ^2 ~fuzzy* what? key:value a\\b /path/",
    "'}) MATCH (n) DETACH DELETE n //",
    "שלום עולם and مرحبا 🧠💾 with a\x00nul",
    "Last week Bob Lindqvist went hiking",
]


_PLUS_23 = timezone(timedelta(hours=23))
_LMT = timezone(timedelta(minutes=19, seconds=32))  # Amsterdam's local mean time
#: Regressions and edge cases every run tries (besides the generated ones).
CANDIDATE_EXAMPLES: list[list[dict[str, Any]]] = [
    [
        {
            "content": "x",
            "observed_at": datetime(9999, 12, 31, 23, tzinfo=timezone(-timedelta(hours=5))),
        }
    ],
    [{"content": "x", "event_time": datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5)))}],
    [{"content": "x", "observed_at": datetime(2024, 1, 1, tzinfo=_PLUS_23)}],
    [{"content": "x", "observed_at": datetime(1800, 1, 1, tzinfo=_LMT)}],
    [{"content": "The first farms appeared 12000 years ago"}],
    [{"content": "we met last week", "observed_at": datetime(1, 1, 3, tzinfo=UTC)}],
    [{"content": "see you next week", "observed_at": datetime(9999, 12, 31, tzinfo=UTC)}],
    [{"content": "a\x00b", "session_id": "\x00", "subject": CYPHER[0], "predicate": "\x00"}],
    [{"content": " ".join(LUCENE), "entities": [{"name": CYPHER[0]}]}],
    [{"content": "x" * 100_000}],
    [{"content": "😀" * 20_000}],
    [{"content": "ok"}, {"content": "bad", "salience": math.nan}],
    [{"content": "ok", "logprobs": (-0.1, math.inf)}],
    [{"content": "ok", "extractor_confidence": -math.inf}],
    [{"content": "ok", "observed_at": datetime(2024, 1, 1)}],
    [{"content": " \u3000 "}],
    [{"content": "ok", "relations": [{"source": "A", "predicate": "1bad", "target": "B"}]}],
    [{"content": "+", "relations": [{"source": "0", "predicate": "knows", "target": " "}]}],
]
QUERY_EXAMPLES: list[dict[str, Any]] = [
    {"text": "&& || !"},
    {"text": "AND OR NOT"},
    {"text": " ".join(LUCENE)},
    {"text": CYPHER[0]},
    {"text": CYPHER[-1]},
    {"text": "a\x00b"},
    {"text": "x" * 4000},
    {"text": "x" * 4001},
    {"text": "\u202eevil\u202c שלום 🧠"},
    {"text": "tea", "reference_time": datetime(2024, 1, 1)},
    {"text": "tea", "k": 0},
    {"text": "tea", "retrievers": ["nope"]},
    {"text": "tea", "types": ["Bogus"]},
]


def _examples(name: str, cases: list[Any]) -> Callable[[Any], Any]:
    """Apply ``hypothesis.example`` for each case (the argument called ``name``)."""

    def apply(test: Any) -> Any:
        for case in reversed(cases):
            test = example(**{name: case})(test)
        return test

    return apply


def _settings(kind: str) -> settings:
    return settings(
        max_examples=EXAMPLES[kind],
        deadline=None,
        derandomize=not EXPLORE,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.function_scoped_fixture,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


def _zero(store: MemoryStore, ns: str) -> None:
    stats = store.stats(ns)
    assert not any(stats.values()), f"a rejected call wrote something: {stats}"


def _same_instant_and_offset(got: datetime, want: datetime) -> None:
    """The same instant; the same offset, or UTC when the offset had seconds (JSON and
    ISO 8601 offsets have minute precision, so graphmem stores those in UTC)."""
    # in UTC: PEP 495 makes a local time in a DST gap / fold unequal to every datetime of
    # another zone, even at the same instant
    assert got.astimezone(UTC) == want.astimezone(UTC), (got, want)
    offset = want.utcoffset()
    assert offset is not None
    expected = offset if not offset % timedelta(minutes=1) else timedelta(0)
    assert got.utcoffset() == expected, (got, want)


def _check_round_trip(
    store: MemoryStore, ns: str, cands: list[dict[str, Any]], ids: tuple[str | None, ...]
) -> None:
    """Every memory reads back as the candidate that created it stated it."""
    creators: dict[str, int] = {}
    for i, ident in enumerate(ids):
        if ident is not None:
            creators.setdefault(ident, i)
    stored = {m.id: m for m in store.get_memories(ns, list(creators))}
    assert set(stored) == set(creators)
    forms = {normalize(f) for e in store.list_entities(ns) for f in (e.name, *e.aliases)}
    for ident, i in creators.items():
        c, m = cands[i], stored[ident]
        assert m.namespace == ns
        assert m.content == c["content"]
        for name in ("subject", "predicate", "object"):
            assert getattr(m, name) == c.get(name), name
        first = m.observations[0]
        assert first.session_id == c.get("session_id", "default")
        assert first.turn_id == c.get("turn_id")
        _same_instant_and_offset(first.observed_at, c.get("observed_at") or NOW)
        if c.get("event_time") is not None:
            assert m.event_time is not None
            _same_instant_and_offset(m.event_time, c["event_time"])
        if c.get("salience") is not None:
            assert m.salience == c["salience"]
        assert m.extractor == c.get("extractor", "unknown")
        for e in c.get("entities", ()):  # stored, or resolved to a stored entity by an alias
            said = {normalize(f) for f in (e["name"], *e.get("aliases", ()))} - {""}
            assert said & forms, e


def test_generated_candidates_round_trip_or_are_rejected(
    memory: GraphMem, store: MemoryStore, store_kind: str
) -> None:
    tally = {"tried": 0, "accepted": 0, "rejected": 0}

    @_settings(store_kind)
    @given(cands=st.lists(candidate, min_size=1, max_size=3))
    @_examples("cands", CANDIDATE_EXAMPLES)
    def check(cands: list[dict[str, Any]]) -> None:
        tally["tried"] += 1
        ns = f"bad-{uuid.uuid4().hex[:12]}"
        try:
            report = memory.remember(ns, cands)
        except InvalidMemoryError as exc:
            tally["rejected"] += 1
            assert exc.field and exc.field.startswith("candidates["), exc.field
            _zero(store, ns)
            return
        try:
            tally["accepted"] += 1
            assert len(report.memory_ids) == len(cands)
            _check_round_trip(store, ns, cands, report.memory_ids)
        finally:
            memory.delete_namespace(ns)

    check()
    for key, value in tally.items():
        add_figure(f"bad_input.{store_kind}.candidates_{key}", value)


@pytest.fixture
def seeded(memory: GraphMem, ns: str) -> str:
    memory.remember(
        ns,
        [
            {
                "content": text,
                "session_id": f"s{i}",
                "turn_id": f"s{i}:1",
                "observed_at": T0 + timedelta(days=i),
                "subject": "Alice" if i < 2 else None,
                "predicate": "drinks" if i < 2 else None,
            }
            for i, text in enumerate(SEED_CONTENTS)
        ],
    )
    return ns


def test_generated_queries_answer_or_are_rejected(
    memory: GraphMem, store: MemoryStore, seeded: str, store_kind: str
) -> None:
    ns = seeded
    before = store.stats(ns)
    known = {
        m.id for s in range(len(SEED_CONTENTS)) for m in store.memories_in_session(ns, f"s{s}")
    }
    tally = {"tried": 0, "answered": 0, "rejected": 0}

    @_settings(store_kind)
    @given(q=query)
    @_examples("q", QUERY_EXAMPLES)
    def check(q: dict[str, Any]) -> None:
        tally["tried"] += 1
        try:
            result = memory.recall(ns, q)
        except InvalidQueryError as exc:
            tally["rejected"] += 1
            assert exc.field and exc.field.startswith("query"), exc.field
            return
        tally["answered"] += 1
        assert result.namespace == ns
        for hit in result.hits:
            assert hit.memory.id in known and hit.memory.namespace == ns
            assert math.isfinite(hit.weight)

    check()
    assert store.stats(ns) == before  # recall never adds, drops or supersedes anything
    for key, value in tally.items():
        add_figure(f"bad_input.{store_kind}.queries_{key}", value)


class _BadEmbedder(HashEmbedder):
    """Embeds like HashEmbedder, then breaks the result."""

    def __init__(self, breaks: Callable[[Vector], Vector]) -> None:
        super().__init__(384)
        self._breaks = breaks

    def embed(self, texts: Any) -> Vector:
        return self._breaks(super().embed(texts))


BAD_EMBEDDINGS: dict[str, Callable[[Vector], Vector]] = {
    "dim-383": lambda v: v[:, :383],
    "dim-385": lambda v: np.hstack([v, np.zeros((v.shape[0], 1), np.float32)]),
    "nan": lambda v: np.full_like(v, np.nan),
    "inf": lambda v: np.where(v == v.max(), np.inf, v).astype(np.float32),
    "one-row-short": lambda v: v[:-1],
    "flat": lambda v: v.reshape(-1),
}


@pytest.mark.parametrize("breakage", sorted(BAD_EMBEDDINGS))
def test_broken_embedder_is_rejected_without_a_write(
    memory_factory: MemoryFactory, store: MemoryStore, ns: str, breakage: str
) -> None:
    """An embedder returning the wrong dimension / shape or non-finite values: the
    write is refused naming the embedding, nothing lands; recall is refused too."""
    good = memory_factory().open()
    good.remember(ns, [{"content": SEED_CONTENTS[0], "session_id": "s0"}])
    before = store.stats(ns)
    broken = memory_factory(embedder=_BadEmbedder(BAD_EMBEDDINGS[breakage])).open()
    with pytest.raises(InvalidInputError) as caught:
        broken.remember(ns, [{"content": "Bob Lindqvist likes chess", "session_id": "s1"}])
    assert caught.value.field is not None and "embedding" in caught.value.field
    assert store.stats(ns) == before
    with pytest.raises(InvalidInputError) as caught:
        broken.recall(ns, "what does Alice Moreau drink?")
    assert caught.value.field is not None and "embedding" in caught.value.field
    assert store.stats(ns) == before


def test_long_capitalised_run_is_stored(memory: GraphMem, store: MemoryStore, ns: str) -> None:
    """A shouted message (all capitals, > 512 characters) is an ordinary memory (it used
    to raise pydantic's ValidationError: the extractor proposed it as an entity name)."""
    content = "PLEASE REMEMBER " * 40  # 640 characters of capitalised words
    report = memory.remember(ns, [{"content": content, "session_id": "s0"}])
    assert store.get_memories(ns, list(report.created))[0].content == content


@pytest.mark.parametrize("text", ODD_TIMES)
def test_query_naming_an_unrepresentable_date_is_answered(
    memory: GraphMem, ns: str, text: str
) -> None:
    """Found by this suite: timeparse raised OverflowError / ValueError out of recall()."""
    memory.remember(ns, [{"content": f"something happened {text}", "session_id": "s0"}])
    result = memory.recall(ns, f"what happened {text}?")
    assert result.namespace == ns
