"""Expected answer type: a question's cue names what kind of memory answers it.

Classic question answering types the answer before it looks for it: "Where does
X work?" wants an organisation, "Where does X live?" a place, "What does X like
to drink?" a preference. A small sentence embedding does not bridge every such
gap even with the person's name masked (:mod:`graphmem.retrieval.rescoring.masking`):
"Where does someone work?" scores 0.36 against "someone lives in Denver now" and
0.32 against "someone is a librarian at Cobalt Robotics"; "What does someone like
to drink?" prefers "someone is allergic to sesame" (which shares a session with
"drinks alcohol") to "someone prefers espresso in the morning". The memories
already carry what the cue asks for: the kinds of the entities they mention (a
candidate's entities, or the ``ner`` extractor's spaCy labels: ORG →
Organization, GPE / LOC / FAC → Place) and their own type (Preference).

:func:`graphmem.language.answer_type.expected_answer` reads the cue (a few fixed
patterns, no model); :func:`answer_type_list` ranks the recall's candidates that carry the expected
type — an entity of an expected kind in a slot other than the subject, and not
one the question itself names, or a memory of an expected type — in the order of
the (name-masked) semantic list, memories that also mention an entity the
question names first. The pipeline fuses that list like a retriever's
(``Settings.read.rescoring.answer_type_weight``; the explanation shows its rank as
``answer_type``). A question without a cue, or a namespace whose memories carry
no such type (LoCoMo's turns and observations are all Facts), is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future

from graphmem.entities import EntityDictionary
from graphmem.language.answer_type import AnswerType, expected_answer
from graphmem.models import Memory
from graphmem.retrieval.rescoring.masking import RESCORED
from graphmem.retrieval.retrievers import Hit, RetrievalContext
from graphmem.settings import Settings
from graphmem.store.base import MemoryStore

__all__ = [
    "ANSWER_TYPE",
    "answer_type_candidates",
    "answer_type_list",
    "read_ahead",
    "with_answer_type",
]

#: The fused list's name (in ``RecallResult.weights`` and the explanation).
ANSWER_TYPE = "answer_type"


def _carries(
    memory: Memory, wanted: AnswerType, named: frozenset[str], dictionary: EntityDictionary
) -> bool:
    if memory.type in wanted.types:
        return True
    if not wanted.kinds:
        return False
    for mention in memory.mentions:
        if mention.role == "subject" or mention.entity_id in named:
            continue
        entity = dictionary.get(mention.entity_id)
        if entity is not None and entity.kind in wanted.kinds:
            return True
    return False


def answer_type_list(
    wanted: AnswerType,
    hits: Mapping[str, Sequence[Hit]],
    memories: Mapping[str, Memory],
    named: Iterable[str],
    dictionary: EntityDictionary,
    depth: int,
    only_named: bool = False,
) -> list[Hit]:
    """The candidates that carry ``wanted``, best first.

    Parameters
    ----------
    wanted : AnswerType
        From :func:`expected_answer`.
    hits : mapping of str to sequence of Hit
        The retrievers' lists after name masking; the top ``depth`` of the semantic
        and entity lists are the candidates, ordered by their semantic rank (then
        their entity rank).
    memories : mapping of str to Memory
        The candidates, hydrated with their mentions (a missing one is skipped).
    named : iterable of str
        Entity ids the question names (linked): mentioning one ranks a candidate
        first; being one does not make it the answer.
    dictionary : EntityDictionary
        The namespace's entities (their kinds).
    depth : int
        Candidates taken from the top of each list, ``>= 0``.
    only_named : bool
        Keep only candidates that mention an entity in ``named``. For a relational
        question ("Where does Alice's sister's manager work?") the answer is about the
        entity at the end of the chain; a typed memory about anyone else (the sister's
        employer, another person's) is not evidence, and fused it would crowd out the
        chain's other memories ("… and what does that company build?").

    Returns
    -------
    list of Hit
        Scores are ``1 / position`` (1-based), ``detail`` names the cue.
    """
    ids = frozenset(named)
    position: dict[str, tuple[int, int]] = {}
    for order, name in enumerate(("semantic", "entity")):
        for rank, hit in enumerate(hits.get(name, [])[:depth]):
            key = (order, rank)
            if hit.memory_id not in position or key < position[hit.memory_id]:
                position[hit.memory_id] = key
    chosen = [
        (not any(m.entity_id in ids for m in memory.mentions), position[mid], mid)
        for mid in position
        if (memory := memories.get(mid)) is not None
        and _carries(memory, wanted, ids, dictionary)
        and (not only_named or any(m.entity_id in ids for m in memory.mentions))
    ]
    chosen.sort()
    what = sorted(wanted.kinds | wanted.types)
    detail = f"answer type {'/'.join(what)} ({wanted.cue!r})"
    return [Hit(mid, 1.0 / (i + 1), detail) for i, (_, _, mid) in enumerate(chosen)]


def with_answer_type(
    store: MemoryStore,
    settings: Settings,
    ctx: RetrievalContext,
    hits: dict[str, list[Hit]],
    memories: Mapping[str, Memory],
) -> dict[str, list[Hit]]:
    """The retrievers' lists with the answer type's (:data:`ANSWER_TYPE`) added when the
    question has a cue and ``settings.answer_type_weight > 0``; else ``hits`` itself.

    ``memories``: candidates already read (the name-masking step's); the others of the
    top ``settings.answer_type_depth`` are read in one ``get_memories``. A relational
    question ("Where does Alice's sister's manager work?") asks about the chain's end:
    only the linked entities no other link was reached from count as named, and only
    memories mentioning one are listed (``only_named``).
    """
    wanted = _wanted(settings, ctx)
    if wanted is None or ctx.dictionary is None:
        return hits
    depth = settings.read.rescoring.answer_type_depth
    ids = [i for i in _top(settings, hits) if i not in memories]
    found = dict(memories)
    if ids:
        found.update((m.id, m) for m in store.get_memories(ctx.namespace, ids))
    named = [link.entity_id for link in ctx.links]
    relational = any(link.via is not None for link in ctx.links)
    if relational:
        owners = {link.owner for link in ctx.links}
        named = [i for i in named if i not in owners]
    listed = answer_type_list(
        wanted, hits, found, named, ctx.dictionary, depth, only_named=relational
    )
    return {**hits, ANSWER_TYPE: listed}


def answer_type_candidates(
    settings: Settings, ctx: RetrievalContext, hits: Mapping[str, Sequence[Hit]]
) -> list[str]:
    """The ids :func:`with_answer_type` reads for ``ctx``'s question: the top
    ``settings.answer_type_depth`` of the semantic and entity lists, in order, without
    repeats; ``[]`` when the question has no cue (or the list is off). Name masking
    reorders only inside the lists' top (with the default depths, this same top), so a
    recall can read these ids while masking runs and pass them to
    :func:`with_answer_type`, which reads any others masking brought in
    (docs/performance.md "Recall on real input")."""
    if _wanted(settings, ctx) is None or ctx.dictionary is None:
        return []
    return _top(settings, hits)


def _top(settings: Settings, hits: Mapping[str, Sequence[Hit]]) -> list[str]:
    depth = settings.read.rescoring.answer_type_depth
    return list(dict.fromkeys(h.memory_id for n in RESCORED for h in hits.get(n, [])[:depth]))


def _wanted(settings: Settings, ctx: RetrievalContext) -> AnswerType | None:
    if settings.read.rescoring.answer_type_weight <= 0:
        return None
    return expected_answer(ctx.text)


def read_ahead(
    pool: Executor,
    store: MemoryStore,
    settings: Settings,
    ctx: RetrievalContext,
    hits: Mapping[str, Sequence[Hit]],
) -> Future[list[Memory]] | None:
    """Start reading :func:`answer_type_candidates` on ``pool`` (one ``get_memories``), so
    that the read overlaps name masking; ``None`` when the question has no cue. Pass the
    result's memories to :func:`with_answer_type`."""
    ids = answer_type_candidates(settings, ctx, hits)
    return pool.submit(store.get_memories, ctx.namespace, ids) if ids else None
