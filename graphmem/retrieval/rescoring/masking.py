"""Name-masked similarity: the question's people do not decide which of their memories match.

In one person's memory nearly every memory names the person, and a small
sentence embedding is dominated by that name: "Where does Ingrid work?" is
closer to "Ingrid's phone number is 555-0113" (cosine 0.68) than to "Ingrid is
a chef at Granite Peak Outfitters" (0.63), so the job comes seventh. What the
question asks about is the rest of the sentence. Masking the names the question
and a memory share — both sides get the same neutral word, :data:`MASK` — before
the comparison leaves the name's weight equal for all of them and lets the rest
decide: "Where does someone work?" vs "someone is a chef at Granite Peak
Outfitters" ranks the job first. A memory that does not name the person keeps
its own text (its stored embedding), so the person's memories still share the
mask word with the question and a distractor about someone else does not.

On the lifecycle bench's scenarios (every current fact's direct question against
all of the person's statements, semantic similarity alone) the masked comparison
puts the current statement in the top 3 for 0.994 of the questions, against
0.945 unmasked (top 1: 0.771 against 0.697).

:func:`rescore` applies it after retrieval to the two lists that rank by the
question's cosine (semantic, and the entity retriever's cosine term), within
their top ``depth``: one store read for the candidates' text and embeddings,
and embeddings of the masked texts (kept in :class:`MaskedEmbeddings`'s LRU
cache, since the same memories come back for many questions). Only people are
masked (linked entities of kind Person): an organisation or place in a question
("Who works at Lumen Labs?") is what it asks about.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from graphmem.entities import EntityDictionary, EntityLink
from graphmem.models import Memory
from graphmem.retrieval.rescoring.masked_vectors import Budget, MaskedEmbeddings
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.retrieval.retrievers.semantic import semantic_search
from graphmem.settings import Settings
from graphmem.store.base import MaskText, MemoryStore, Vector

__all__ = [
    "MASK",
    "Budget",
    "MaskedEmbeddings",
    "deep_masked",
    "mask_names",
    "masked_lists",
    "masked_people",
    "masked_variants",
    "rescore",
    "verbatim_transcript",
    "warm_masked",
]

#: What name masking reads of a memory: the memory, or only what masking needs of it.
Candidate = Memory | MaskText


def _stored(memory: Candidate) -> np.ndarray[Any, np.dtype[np.float32]] | None:
    """The memory's stored unit vector as float32 (None when it has none)."""
    embedding = memory.embedding
    if embedding is None or len(embedding) == 0:
        return None
    return np.asarray(embedding, dtype=np.float32)


def _subjects(memory: Candidate) -> frozenset[str]:
    """The entities the memory names as subject."""
    if isinstance(memory, MaskText):
        return memory.subjects
    return frozenset(x.entity_id for x in memory.mentions if x.role == "subject")


#: The word every masked name becomes (a possessive keeps its "'s").
MASK = "someone"
#: The lists whose order is the question's cosine (the entity list: role + cosine).
RESCORED = ("semantic", "entity")


def masked_people(links: Iterable[EntityLink], dictionary: EntityDictionary | None) -> list[str]:
    """The names to mask for a question: each linked Person's surface form in the
    question, its canonical name, aliases and first name; longest first.

    >>> masked_people([EntityLink("e1", "Ingrid", 1.0)], None)
    ['Ingrid']
    """
    names: set[str] = set()
    for link in links:
        entity = dictionary.get(link.entity_id) if dictionary is not None else None
        if entity is not None:
            if entity.kind.casefold() != "person":
                continue
            names.update((entity.name, *entity.aliases))
            first = entity.name.split()
            if len(first) > 1:
                names.add(first[0])
        names.add(link.surface)
    return sorted((n for n in names if n.strip()), key=lambda n: (-len(n), n))


def _pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"(?<![\w'’])(?:{alternatives})(?![\w])", re.IGNORECASE)


def mask_names(text: str, names: Sequence[str]) -> str:
    """``text`` with every whole-word occurrence of ``names`` (case-insensitive,
    longest first) replaced by :data:`MASK`; a possessive stays ("Ingrid's" →
    "someone's").

    >>> mask_names("Where does Ingrid Larsen's brother work?", ["Ingrid Larsen", "Ingrid"])
    "Where does someone's brother work?"
    >>> mask_names("Ingridson met Ingrid.", ["Ingrid"])
    'Ingridson met someone.'
    """
    pattern = _pattern(names)
    return text if pattern is None else pattern.sub(MASK, text)


#: Of a memory's people, variants are made for each one and each pair of the first
#: :data:`WARM_MAX_PEOPLE` (a question that names three of them embeds its own).
WARM_MAX_PEOPLE = 3


def masked_variants(text: str, people: Sequence[Sequence[str]]) -> list[str]:
    """The texts name masking makes of ``text`` for questions naming one or two of
    ``people`` (each a person's names, as :func:`masked_people` gives them): one per
    person and one per pair among the first :data:`WARM_MAX_PEOPLE`, without ``text``
    itself and without repeats.

    >>> masked_variants("Ana: I met Bo.", [["Ana"], ["Bo"]])
    ['someone: I met Bo.', 'Ana: I met someone.', 'someone: I met someone.']
    """
    people = list(people)[:WARM_MAX_PEOPLE]
    groups: list[list[str]] = [list(p) for p in people]
    groups += [
        [*people[i], *people[j]] for i in range(len(people)) for j in range(i + 1, len(people))
    ]
    out: list[str] = []
    for names in groups:
        ordered = sorted(set(names), key=lambda n: (-len(n), n))
        masked = mask_names(text, ordered)
        if masked != text:
            out.append(masked)
    return list(dict.fromkeys(out))


def warm_masked(
    vectors: MaskedEmbeddings, memories: Iterable[Memory], dictionary: EntityDictionary
) -> int:
    """Embed, into ``vectors``' persistent cache, the masked texts recall will compare
    for these memories (:func:`masked_variants` of each, for the people of
    ``dictionary`` its text names). Called when memories are written; returns how many
    texts were embedded (0 without a persistent cache)."""
    if vectors.persistent is None:
        return 0
    texts = masked_texts(memories, dictionary)
    return vectors.warm(texts)


def masked_texts(memories: Iterable[Memory], dictionary: EntityDictionary) -> list[str]:
    """The masked texts recall compares for ``memories`` (what :func:`warm_masked`
    embeds, and what forgetting them removes from the caches)."""
    texts: list[str] = []
    for memory in memories:
        people = [
            masked_people([link], dictionary)
            for link in dictionary.link(memory.content)
            if (entity := dictionary.get(link.entity_id)) is not None
            and entity.kind.casefold() == "person"
        ]
        texts += masked_variants(memory.content, people)
        # the ranker masks a claim's subject by its full name alone (ranking.py)
        texts += masked_variants(memory.content, [[n[0]] for n in people if n])
    return texts


def rescore(
    hits: Mapping[str, list[Hit]],
    question: str,
    embedding: Vector,
    names: Sequence[str],
    memories: Mapping[str, Candidate],
    vectors: MaskedEmbeddings,
    depth: int,
    budget: Budget | None = None,
) -> dict[str, list[Hit]]:
    """The semantic and entity lists re-ordered by the name-masked cosine within their
    top ``depth`` (the rest of each list, and every other list, unchanged).

    Parameters
    ----------
    hits : mapping of str to list of Hit
        The retrievers' lists (name → hits, best first).
    question : str
        The question's text; ``embedding`` its unit vector (the unmasked one).
    names : sequence of str
        The names to mask (:func:`masked_people`); nothing changes when the question
        contains none of them.
    memories : mapping of str to Memory or MaskText
        The candidates of the top ``depth`` of the two lists, with embeddings (a
        memory missing here keeps its place and score).
    vectors : MaskedEmbeddings
        Embeds (and caches) the masked question and the masked memory texts.
    depth : int
        How many of each list's best hits are re-ordered, ``>= 0`` (0: none).
    budget : Budget, optional
        At most ``budget.left`` masked texts in no cache are embedded (and spent);
        the others keep their unmasked vector. None: no limit.

    Returns
    -------
    dict of str to list of Hit
        The lists; a re-scored semantic hit's score is the masked cosine in [-1, 1],
        an entity hit's is its role score plus the masked cosine (it was plus the
        unmasked one), and their ``detail`` says "name-masked".
    """
    masked_question = mask_names(question, names)
    if depth <= 0 or not names or masked_question == question:
        return dict(hits)
    cosine = _masked_cosines(masked_question, embedding, names, memories, vectors, budget)
    out = dict(hits)
    for name in RESCORED:
        listed = hits.get(name)
        if not listed:
            continue
        head, tail = listed[:depth], listed[depth:]
        scored = []
        for h in head:
            if h.memory_id not in cosine:
                scored.append(h)
                continue
            masked, raw = cosine[h.memory_id]
            score = masked if name == "semantic" else h.score - raw + masked
            note = "name-masked" if h.detail is None else f"{h.detail}; name-masked"
            scored.append(dataclasses.replace(h, score=score, detail=note))
        scored.sort(key=lambda h: (-h.score, h.memory_id))
        out[name] = scored + tail
    return out


def _masked_cosines(
    masked_question: str,
    embedding: Vector,
    names: Sequence[str],
    memories: Mapping[str, Candidate],
    vectors: MaskedEmbeddings,
    budget: Budget | None = None,
) -> dict[str, tuple[float, float]]:
    """Memory id → (masked cosine, raw cosine) to the question: the masked question's
    vector against each memory's masked text (its stored vector where masking leaves
    the text unchanged, or where the masked text is in no cache and ``budget`` is
    spent); memories with neither vector are left out."""
    texts: dict[str, str] = {}
    pattern = _pattern(names)  # mask_names, compiled once for every memory
    # each stored vector converted once (a list of floats from the store: ~200 per recall)
    stored = {mid: _stored(memory) for mid, memory in memories.items()}
    for mid, memory in memories.items():
        text = memory.content if pattern is None else pattern.sub(MASK, memory.content)
        if text != memory.content or stored[mid] is None:
            texts[mid] = text
    # the question alone, first: it is always embedded (or was, beside the retrievers:
    # graphmem.retrieval.rescoring.mask_ahead), and the budget counts the memories' texts only
    q = vectors.embed([masked_question])[0]
    listed = list(texts.values())
    if budget is None:
        embedded: list[Vector | None] = list(vectors.embed(listed))
    else:
        embedded = vectors.embed_within(listed, budget.left)
        budget.spend(vectors.last_computed)
    own = {mid: v for mid, v in zip(texts, embedded, strict=True) if v is not None}
    cosine: dict[str, tuple[float, float]] = {}
    for mid, kept in stored.items():
        vector = own.get(mid, kept)
        if vector is None:
            continue
        raw = float(np.dot(kept, embedding)) if kept is not None else float(np.dot(vector, q))
        cosine[mid] = (float(np.dot(vector, q)), raw)
    return cosine


#: A transcript turn's speaker label: "Caroline: ...", "Dr. Ana Ruiz: ..." (a name of up to
#: five words, then a colon).
_SPEAKER_LABEL = re.compile(r"^\s*[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,4}:\s")


def verbatim_transcript(memories: Mapping[str, Candidate]) -> bool:
    """True when at least half of ``memories`` are transcript turns: verbatim source
    text (``extractor == "verbatim"``) that starts with a speaker label ("Caroline: ...").
    Extracted claims, and verbatim notes without a label ("Ada hiked at Sky Ridge."),
    are not."""
    turns = sum(
        m.extractor == "verbatim" and _SPEAKER_LABEL.match(m.content) is not None
        for m in memories.values()
    )
    return bool(memories) and 2 * turns >= len(memories)


def deep_masked(
    store: MemoryStore,
    ctx: RetrievalContext,
    names: Sequence[str],
    vectors: MaskedEmbeddings,
    *,
    depth: int,
    subject_bonus: float,
    known: Mapping[str, Candidate] | None = None,
    budget: Budget | None = None,
) -> list[Hit]:
    """The semantic list of a question over a verbatim transcript (issues 12, 15): the
    ``depth`` nearest memories by the raw cosine (the semantic retriever's search, asked
    for ``depth``; then one read of those not in ``known``, memories already read with
    their embeddings), ordered
    by the name-masked cosine plus ``subject_bonus`` for a memory whose subject is one of
    the question's linked entities, cut to ``ctx.k``.

    A dialogue turn carries its speaker's label ("Caroline: ..."), which a small sentence
    embedding weighs heavily: the raw cosine's nearest 50 for a question that names
    Caroline are her turns, chatty ones first, so the turns that answer — the other
    speaker's, or hers further down — do not reach the top-30 window :func:`rescore`
    re-orders. The bonus keeps the person's own turns first among near-equal ones.
    Empty when the question names none of ``names``.
    """
    masked_question = mask_names(ctx.text, names)
    if depth <= 0 or not names or masked_question == ctx.text:
        return []
    ids = [r.memory_id for r in semantic_search(store, ctx, max(depth, ctx.k))]
    have = known or {}
    missing = [mid for mid in ids if mid not in have]
    read = store.mask_texts(ctx.namespace, missing) if missing else []
    memories: dict[str, Candidate] = {m.memory_id: m for m in read}
    memories.update({mid: have[mid] for mid in ids if mid in have})
    cosine = _masked_cosines(masked_question, ctx.embedding, names, memories, vectors, budget)
    linked = {link.entity_id for link in ctx.links}
    scored = []
    for mid, (masked, _) in cosine.items():
        subject = not linked.isdisjoint(_subjects(memories[mid]))
        scored.append(Hit(mid, masked + (subject_bonus if subject else 0.0), detail=_DEEP))
    scored.sort(key=lambda h: (-h.score, h.memory_id))
    return scored[: ctx.k]


def masked_lists(
    store: MemoryStore,
    ctx: RetrievalContext,
    names: Sequence[str],
    memories: Mapping[str, Candidate],
    hits: Mapping[str, list[Hit]],
    vectors: MaskedEmbeddings,
    settings: Settings,
    known: Mapping[str, Candidate] | None = None,
) -> dict[str, list[Hit]]:
    """The recall's lists after name masking: :func:`rescore` within the top
    ``settings.name_mask_depth``, then, when the candidates it read (``memories``) are
    mostly a verbatim transcript (:func:`verbatim_transcript`) and
    ``settings.verbatim_mask_depth > 0``, the semantic list replaced by
    :func:`deep_masked`'s. ``known``: memories already read with their embeddings
    (``memories`` and more; default ``memories``), which :func:`deep_masked` reads no
    more."""
    budget = Budget(settings.read.rescoring.name_mask_budget)
    out = rescore(
        hits,
        ctx.text,
        ctx.embedding,
        names,
        memories,
        vectors,
        settings.read.rescoring.name_mask_depth,
        budget,
    )
    depth = settings.read.rescoring.verbatim_mask_depth
    if depth <= 0 or "semantic" not in out or not verbatim_transcript(memories):
        return out
    deep = deep_masked(
        store,
        ctx,
        names,
        vectors,
        depth=depth,
        subject_bonus=settings.read.rescoring.verbatim_subject_bonus,
        known=memories if known is None else known,
        budget=budget,
    )
    if deep:
        out["semantic"] = deep
    return out


#: The detail of a hit of :func:`deep_masked`'s list.
_DEEP = "name-masked, verbatim transcript"
