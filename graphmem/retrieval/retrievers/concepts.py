"""Concept nodes for the graph retriever (HippoRAG's approach).

People are in most memories of a conversation (LoCoMo: the speaker in ~70%), so a
walk over people reaches everything and ranks nothing. Concepts are finer nodes:

- **what a concept is** (:func:`concepts_of`): the lemma of each noun chunk's head
  ("groups" → ``group``), the chunk's content words when it has more than one
  ("the LGBTQ support group" → ``lgbtq support group``), named entities that are
  not people or numbers/dates ("Florida"), and content verbs (``v:paint``), all
  lower case; extracted with spaCy's English pipeline (extra ``graphmem[nlp]``);
  a concept with a word of a namespace's person entity's name is left out (people
  are the entity nodes of the relation walk);
- **the graph** (:class:`ConceptIndex`): memories linked to their concepts, each
  link weighted by the concept's IDF ``log(N / df)`` over the namespace's current
  memories; concepts in one memory only or in more than ``max_df`` of them
  ("thing", "time") are left out, so they connect nothing;
- **the walk** (:meth:`ConceptIndex.walk`): personalised PageRank over the
  memory–concept graph (damping ``alpha``), its reset mass on the question's
  concepts (``concept_weight × IDF`` each) and on the question's nearest memories
  by cosine (``1 / (1 + rank)`` for the top ``seeds``); memories rank by their
  mass, so a memory about the same topic in another session is reached through
  the concepts it shares with the question and its nearest memories.

The index is built from the store on the first recall of a namespace (memories
read in pages; a memory already parsed is not parsed again) and rebuilt when the
namespace's memory count changes. Only namespaces of
``Settings.read.graph.graph_concept_min_memories`` to ``graph_concept_max_memories`` memories
are indexed (:func:`concepts_apply`): in a few dozen memories a "concept" in 2 of
them is chance, and building reads every memory. Where the walk runs, the planner
gives the graph list ``graph_concept_fusion_weight``.
"""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from graphmem.language.nlp import english_pipeline, nlp_available
from graphmem.retrieval.ahead import backing_store
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore, memory_pages

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc

    from graphmem.entities import EntityLink

_SKIP_POS = frozenset({"DET", "PRON", "PART", "PUNCT", "CCONJ", "ADP", "NUM", "SPACE", "AUX"})
_NOT_CONCEPTS = frozenset(
    {"PERSON", "DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}
)
_PAGE = 500
_ITERATIONS = 100
_TOLERANCE = 1e-7


Lemmas = dict[str, frozenset[str]]


def concepts_of(doc: Doc) -> tuple[frozenset[str], set[tuple[str, str]]]:
    """The concepts of one parsed text (see the module docstring) and the (word,
    concept) pairs they came from ("groups" → ``group``, "painted" → ``v:paint``), for
    reading a question's words as concepts without parsing it."""
    out: set[str] = set()
    lemmas: set[tuple[str, str]] = set()
    people = {t.i for ent in doc.ents if ent.label_ == "PERSON" for t in ent}

    def content(token: Any) -> bool:
        return (
            token.pos_ not in _SKIP_POS
            and not token.is_stop
            and token.is_alpha
            and token.i not in people
        )

    for chunk in doc.noun_chunks:
        root = chunk.root
        if not content(root):
            continue
        out.add(root.lemma_.lower())
        lemmas.add((root.lower_, root.lemma_.lower()))
        words = [t for t in chunk if content(t)]
        if len(words) > 1:
            out.add(" ".join(t.lemma_.lower() for t in words))
            lemmas.update((t.lower_, t.lemma_.lower()) for t in words)
    for ent in doc.ents:
        if ent.label_ not in _NOT_CONCEPTS:
            out.add(ent.text.lower())
    for token in doc:
        if token.pos_ == "VERB" and content(token) and len(token.lemma_) > 2:
            out.add("v:" + token.lemma_.lower())
            lemmas.add((token.lower_, "v:" + token.lemma_.lower()))
    return frozenset(out), lemmas


def parse_concepts(texts: Sequence[str]) -> list[tuple[frozenset[str], set[tuple[str, str]]]]:
    """:func:`concepts_of` for each text, parsed in batches (spaCy, extra ``nlp``)."""
    return [concepts_of(doc) for doc in english_pipeline().pipe(texts, batch_size=64)]


@dataclass(frozen=True, slots=True)
class ConceptHit:
    """One memory the walk reached: its PageRank mass and the concepts it shares with
    the walk's reset (the question's concepts first), for the explanation."""

    memory_id: str
    mass: float
    shared: tuple[str, ...]


class ConceptIndex:
    """The memory–concept graph of one namespace (see the module docstring).

    ``concepts``: memory id → its concepts; ``lemmas``: word → the concepts it was
    read as (for questions); ``max_df``: the share of memories above which a concept
    is left out.
    """

    def __init__(
        self,
        concepts: dict[str, frozenset[str]],
        lemmas: Lemmas,
        *,
        max_df: float,
    ) -> None:
        self.memory_ids = sorted(concepts)
        self.lemmas = lemmas
        n = len(self.memory_ids)
        df = Counter(c for cs in concepts.values() for c in cs)
        kept = sorted(c for c, d in df.items() if 2 <= d <= max_df * n)
        self.concept_ids = {c: i for i, c in enumerate(kept)}
        self.idf = np.array([math.log(n / df[c]) for c in kept], dtype=np.float64)
        self._row = {mid: i for i, mid in enumerate(self.memory_ids)}
        rows: list[int] = []
        cols: list[int] = []
        for i, mid in enumerate(self.memory_ids):
            for c in concepts[mid]:
                j = self.concept_ids.get(c)
                if j is not None:
                    rows.append(i)
                    cols.append(j)
        self._m = np.array(rows, dtype=np.int64)
        self._c = np.array(cols, dtype=np.int64)
        self._w = self.idf[self._c] if len(cols) else np.zeros(0)
        self._m_out = np.bincount(self._m, self._w, minlength=n)
        self._c_out = np.bincount(self._c, self._w, minlength=len(kept))
        self._concepts = concepts

    def __len__(self) -> int:
        return len(self.memory_ids)

    def __contains__(self, memory_id: object) -> bool:
        """Whether ``memory_id`` is in the index (a current, retrievable memory)."""
        return memory_id in self._row

    def question_concepts(self, words: Iterable[str]) -> list[str]:
        """The index's concepts among a question's lower-cased words: each word and
        each pair of neighbouring words, as written and through the lemma map
        ("groups" → ``group``, "went" → ``v:go``)."""
        read = [sorted(self.lemmas.get(w, frozenset()) | {w}) for w in words]
        found = [c for cs in read for c in cs if c in self.concept_ids]
        for first, second in itertools.pairwise(read):
            found += [
                f"{a} {b}" for a in first for b in second
                if not a.startswith("v:") and f"{a} {b}" in self.concept_ids
            ]  # fmt: skip
        return list(dict.fromkeys(found))

    def walk(
        self,
        question: Sequence[str],
        seeds: Sequence[str],
        *,
        alpha: float,
        concept_weight: float,
        k: int,
    ) -> list[ConceptHit]:
        """Personalised PageRank from the question's concepts and the seed memories
        (nearest first); the top ``k`` memories by mass (ties by id), seeds included."""
        n, c = len(self.memory_ids), len(self.concept_ids)
        reset_m = np.zeros(n)
        reset_c = np.zeros(c)
        for concept in question:
            j = self.concept_ids[concept]
            reset_c[j] += concept_weight * self.idf[j]
        for rank, mid in enumerate(seeds):
            i = self._row.get(mid)
            if i is not None:
                reset_m[i] += 1.0 / (1 + rank)
        total = reset_m.sum() + reset_c.sum()
        if total <= 0.0 or not len(self._w):
            return []
        reset_m /= total
        reset_c /= total
        p_m, p_c = reset_m.copy(), reset_c.copy()
        # each link's share of its memory's and of its concept's weight (every link's
        # weight is its concept's IDF > 0: a kept concept is in under all memories)
        m_share = self._w / self._m_out[self._m]
        c_share = self._w / self._c_out[self._c]
        dangling_m = self._m_out == 0
        for _ in range(_ITERATIONS):
            to_c = np.bincount(self._c, p_m[self._m] * m_share, minlength=c)
            to_m = np.bincount(self._m, p_c[self._c] * c_share, minlength=n)
            # a memory without concepts hands its mass back to the reset (as networkx)
            lost = p_m[dangling_m].sum()
            new_m = (1 - alpha) * reset_m + alpha * (to_m + lost * reset_m)
            new_c = (1 - alpha) * reset_c + alpha * (to_c + lost * reset_c)
            delta = np.abs(new_m - p_m).sum() + np.abs(new_c - p_c).sum()
            p_m, p_c = new_m, new_c
            if delta < _TOLERANCE:
                break
        # the top k by (mass, id): those at or above the k-th mass, sorted (ties kept)
        held = np.flatnonzero(p_m > 0)
        if len(held) > k > 0:
            held = held[p_m[held] >= np.partition(p_m[held], len(held) - k)[len(held) - k]]
        order = sorted(held.tolist(), key=lambda i: (-p_m[i], self.memory_ids[i]))[:k]
        wanted = set(question) | {x for mid in seeds[:3] for x in self._concepts.get(mid, ())}
        out = []
        for i in order:
            mid = self.memory_ids[i]
            mine = self._concepts[mid]
            shared = sorted(
                (x for x in mine if x in wanted and x in self.concept_ids),
                key=lambda x: (x not in question, -self.idf[self.concept_ids[x]], x),
            )
            out.append(ConceptHit(mid, float(p_m[i]), tuple(shared[:3])))
        return out


@dataclass
class _Entry:
    count: int
    index: ConceptIndex | None
    parsed: dict[str, tuple[str, frozenset[str]]]  # memory id -> (content hash, concepts)
    lemmas: dict[str, set[str]]


def walks_concepts(settings: Settings, links: Sequence[EntityLink]) -> bool:
    """Whether the graph list may add the concept walk (it still needs the namespace's
    size in range, :func:`~graphmem.retrieval.retrievers.concepts.concepts_apply`): the
    setting ``graph_concepts`` on, the scoring not ``classic``, and the question walked no
    stored relation ("Maya's sister": it is answered along relations, and the relational
    plan weighs this list 3x, so a topic neighbour would outrank the chain's last memory)."""
    graph = settings.read.graph
    return (
        graph.graph_concepts
        and graph.graph_traversal != "classic"
        and not any(link.via is not None for link in links)
    )


def concept_count_bound(settings: Settings) -> int:
    """How far :meth:`ConceptIndexes.get` counts a namespace's memories: one past the
    walk's range, so a larger namespace is not counted whole."""
    return settings.read.graph.graph_concept_max_memories + 1


def concepts_apply(settings: Settings, memories: int) -> bool:
    """Whether the concept walk runs in a namespace of ``memories`` memories: the
    setting ``graph_concepts`` on, the extra ``nlp`` installed, and ``memories``
    within ``graph_concept_min_memories`` .. ``graph_concept_max_memories``."""
    return (
        settings.read.graph.graph_concepts
        and settings.read.graph.graph_concept_min_memories
        <= memories
        <= settings.read.graph.graph_concept_max_memories
        and memories > 0
        and nlp_available()
    )


class ConceptIndexes:
    """The namespaces' concept indexes, per store (weakly held), rebuilt when a
    namespace's memory count changes (a writer in another process) or after
    :meth:`forget` (this process's facade, after each write and consolidation).
    Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stores: weakref.WeakKeyDictionary[Any, dict[str, _Entry]] = (
            weakref.WeakKeyDictionary()
        )

    def get(self, store: MemoryStore, namespace: str, settings: Settings) -> ConceptIndex | None:
        """The namespace's index; None where :func:`concepts_apply` says no. ``store``
        may be a recall's :class:`~graphmem.retrieval.ahead.AheadStore` view: the index
        is kept for the store behind it, so it is built once, not on every recall."""
        # counted up to one past the walk's range: a larger namespace is not read whole
        # (a recall's view answers with the count it started before the embedding)
        count = store.count_memories(namespace, at_most=concept_count_bound(settings))
        store = backing_store(store)
        if not concepts_apply(settings, count):
            return None
        max_df = settings.read.graph.graph_concept_max_df
        with self._lock:
            entries = self._stores.setdefault(store, {})
            entry = entries.get(namespace)
            if entry is not None and entry.count == count:
                return entry.index
            entry = self._build(store, namespace, count, entry, max_df)
            entries[namespace] = entry
            return entry.index

    def forget(self, store: MemoryStore, namespace: str) -> None:
        """Rebuild ``namespace``'s index at its next :meth:`get` (a write or consolidation
        through this process's facade: a memory flagged unretrievable or superseded changes
        no count). What was parsed is kept: only new or changed texts are parsed again."""
        store = backing_store(store)
        with self._lock:
            entry = self._stores.get(store, {}).get(namespace)
            if entry is not None:
                entry.count = -1

    @staticmethod
    def _build(
        store: MemoryStore, namespace: str, count: int, old: _Entry | None, max_df: float
    ) -> _Entry:
        parsed = dict(old.parsed) if old is not None else {}
        lemmas = {w: set(cs) for w, cs in old.lemmas.items()} if old is not None else {}
        current: dict[str, tuple[str, str]] = {}
        for page in memory_pages(store, namespace, _PAGE):
            for m in page:
                if m.superseded_by is None and m.retrievable:
                    current[m.id] = (m.content_hash, m.content)
        todo = [mid for mid, (h, _) in current.items() if parsed.get(mid, ("",))[0] != h]
        for mid, (concepts, words) in zip(
            todo, parse_concepts([current[mid][1] for mid in todo]), strict=True
        ):
            parsed[mid] = (current[mid][0], concepts)
            for word, concept in words:
                lemmas.setdefault(word, set()).add(concept)
        parsed = {mid: parsed[mid] for mid in current}
        # the namespace's people are entities, not concepts, also where the model's
        # NER missed the name ("Caroline painted …")
        people = {
            word
            for e in store.list_entities(namespace)
            if e.kind == "Person"
            for name in (e.name, *e.aliases)
            for word in name.casefold().split()
        }
        index = ConceptIndex(
            {
                mid: frozenset(c for c in cs if people.isdisjoint(c.split()))
                for mid, (_, cs) in parsed.items()
            },
            {w: frozenset(cs) for w, cs in lemmas.items()},
            max_df=max_df,
        )
        return _Entry(count, index if len(index) else None, parsed, lemmas)
