"""What replaced the state a still-question names comes first (docs/updates.md "At
recall").

"Is Łukasz still doing the Rotterdam runs?" names a state by its old words; once "He
drives for DPD around Kraków now" has superseded "Łukasz drives long-haul for Raben,
mostly the Kraków–Rotterdam run", no current memory shares those words, and the
question's own attribute (if the patterns read one) may be another. The answer is the
named claim's current successor: the question's words (beyond the asked person's name
and the question's function words) are searched over the namespace's history as well,
and the first claim about the asked person they find, when superseded, is followed
along ``superseded_by`` to the memory that holds now. When that first claim is itself
current, the state still holds and nothing moves here (the attribute rule ranks it).
The successor must answer the question: state an attribute the question asks for, or,
when it asks for none, one the named claim states or a word of the question
("Am I still working the fish station at Isolina?" asks for an employer: "And not as
chef de partie: head chef" replaced that claim's title, and does not answer it).
When no text hit is a claim about the person ("Do I still have hockey on Tuesdays?" for
"I play goalie in a Tuesday-night beer league"), the memories nearest the question
are looked through the same way. A successor that ends the named claim (as the write
path judged it: "Hung up the goalie pads. No more beer league.") answers it too; and a
newer ranked candidate that ends the named claim in the question's own words comes
before the chain, whose write-time links can be wrong ("Had to drop the SES" for "Do I
still volunteer with the SES?", where a job change had superseded the volunteering).
Bounded: one text search of :data:`DEPTH` hits, at most one vector search of
:data:`NEAR`, and one read per step of the chain (at most :data:`HOPS`), for
still-questions only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.entities import EntityDictionary
from graphmem.language.claims import claim_of, names_agree, subject_of
from graphmem.language.endings import ends
from graphmem.language.questions import asks_still
from graphmem.language.triples import claimed_attributes
from graphmem.language.voice import is_transcript
from graphmem.language.words import shares_word, stem
from graphmem.models import Memory
from graphmem.retrieval.ranking.attribute_rank import QUESTION_WORDS, question_subject
from graphmem.store.base import MemoryStore, Vector
from graphmem.text import tokenize

__all__ = ["DEPTH", "HOPS", "NEAR", "still_successor"]

#: How many of the history search's hits are looked through for the named claim.
DEPTH = 5
#: How many of the memories nearest the question are looked through when no text hit is
#: a claim about the asked person.
NEAR = 3
#: How many ``superseded_by`` steps are followed from the named claim to the current one.
HOPS = 4


def still_successor(
    store: MemoryStore,
    namespace: str,
    question: str,
    known: EntityDictionary | None,
    asked: frozenset[str] = frozenset(),
    embedding: Vector | None = None,
    order: Sequence[Memory] = (),
) -> Memory | None:
    """The current memory that replaced the claim ``question`` names, when it asks
    whether a state still holds (:func:`~graphmem.language.questions.asks_still`) and
    the claim it names (the first hit of a history-inclusive text search of its words
    that is a claim about the asked person; else, with the question's ``embedding``, of
    the :data:`NEAR` memories nearest it, history included) is superseded and the memory
    holding now answers the question (``asked``: the attributes it asks for, see the
    module docstring) or ends the named claim; before it, a newer current claim of
    ``order`` (the ranked candidates) that ends the named claim in the question's words
    ("Had to drop the SES" for "Do I still volunteer with the SES?"); else ``None``. A
    chain that ends in a forgotten memory, or runs past :data:`HOPS` steps, gives
    ``None``."""
    if known is None or not asks_still(question):
        return None
    subject = question_subject(question, known)
    if subject is None:
        return None
    name = {stem(w) for w in subject}
    words = [w for w in tokenize(question) if stem(w) not in name | QUESTION_WORDS]
    stems = {stem(w) for w in words}
    if not words:
        return None
    found = store.text_search(namespace, " ".join(words), DEPTH, include_history=True)
    named = _first_claim(
        store.get_memories(namespace, [hit.memory_id for hit in found]), subject, known
    )
    if named is None and embedding is not None:  # "hockey" for "a Tuesday-night beer league"
        query = np.asarray(embedding, dtype=np.float32).reshape(1, -1)
        near = store.vector_search(namespace, query, NEAR, include_history=True)[0]
        named = _first_claim(
            store.get_memories(namespace, [hit.memory_id for hit in near]), subject, known
        )
    if named is None or named.is_current:
        return None
    for memory in order:  # an ending in the question's own words answers it best
        if (
            memory.is_current
            and memory.last_observed_at >= named.last_observed_at
            and shares_word(stems, memory.content)
            and ends(memory.content, named.content, frozenset(subject))
            and _first_claim([memory], subject, known) is not None
        ):
            return memory
    current = named
    for _ in range(HOPS):
        if current.superseded_by is None:
            break
        following = store.get_memories(namespace, [current.superseded_by])
        if not following:
            return None
        current = following[0]
    if not current.is_current or _first_claim([current], subject, known) is None:
        return None
    theirs = _single_valued(current)
    if asked:
        return current if theirs & asked else None
    if shares_word(stems, current.content) or theirs & _single_valued(named):
        return current
    return current if ends(current.content, named.content, frozenset(subject)) else None


def _single_valued(memory: Memory) -> frozenset[str]:
    """The single-valued attributes a memory states: its text's and its triple's."""
    stated = claimed_attributes(memory.content, memory.predicate, memory.object)
    return frozenset(a.key for a in stated if a.single)


def _first_claim(
    memories: Sequence[Memory], subject: tuple[str, ...], known: EntityDictionary
) -> Memory | None:
    """The first of ``memories`` that is a claim (not a transcript turn, not an event)
    about ``subject``."""
    for memory in memories:
        if memory.type == "Event" or is_transcript(memory.extractor, memory.content):
            continue
        claimed = subject_of(claim_of(memory, known))
        if claimed is not None and names_agree(claimed, subject):
            return memory
    return None

