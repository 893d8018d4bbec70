"""The current value of the attribute a question asks about ranks first (docs/spec.md §9.15,
docs/updates.md "At recall").

"Where do I live now?" asks for one attribute of one person: their residence.
Among the memories a recall returns (and a window below the cut), the claims about
that person stating that attribute (:func:`graphmem.language.attributes.attributes_of`)
move to the front — those whose main attribute it is first, then the newest first —
ahead of memories that only share the person's name ("I'm allergic to fish" for
"Where do I live?"). A question about meals, drinks, trips or medicine brings the
person's allergies, diet and medication forward the same way
(:data:`~graphmem.language.attributes.SAFETY`). Transcript turns are records, not
claims, and are left where they are; so is everything when the question names no
attribute, asks about pets or hobbies (relevance orders their several values), or asks
about someone close to the person ("Where does my sister work?"). A question about
languages brings the claims stating one forward in relevance order; a claim that the
person gave something up ("hasn't had a drink since June") comes forward only for an
advice question offering it (:func:`~graphmem.language.questions.offers`). A question
whether a named state still holds ("Is Lan still living in Hội An?") asks for the
attribute that state is (:func:`~graphmem.language.questions.asks_still`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import SINGLE_VALUED, Attribute, attributes_of
from graphmem.language.claims import Claim, claim_of, names_agree, subject_of
from graphmem.language.endings import of_the_past, strong_ending
from graphmem.language.questions import (
    SAFETY,
    WORK,
    asks_permission,
    asks_still,
    eater,
    offered_things,
    offers,
    question_attributes,
)
from graphmem.language.triples import triple_attribute
from graphmem.language.voice import is_transcript
from graphmem.language.words import FUNCTION_WORDS, shares_word, stem
from graphmem.models import Memory
from graphmem.retrieval.ranking.asked_person import owner_first, question_subject
from graphmem.retrieval.ranking.attribute_examples import AttributeExamples
from graphmem.settings import Settings
from graphmem.text import tokenize

__all__ = [
    "QUESTION_WORDS",
    "asked_attributes",
    "attribute_first",
    "attribute_window",
    "owner_first",
    "question_first",
    "question_subject",
]


def attribute_window(
    question: str, settings: Settings, asked: frozenset[str] | None = None
) -> int:
    """How many ranked candidates the rule looks through for ``question``: the
    setting ``attribute_window`` when the question asks about an attribute (``asked``:
    :func:`asked_attributes`, when already read), else 0."""
    if settings.read.rescoring.attribute_window <= 0:
        return 0
    asked = asked_attributes(question) if asked is None else asked
    if not asked and not asks_permission(question) and not asks_still(question):
        return 0
    return settings.read.rescoring.attribute_window


def question_first(
    order: Sequence[Memory],
    question: str,
    known: EntityDictionary | None,
    window: int,
    cut: int,
    settings: Settings,
    cosines: Mapping[str, float] | None = None,
    asked: frozenset[str] | None = None,
    examples: AttributeExamples | None = None,
    successor: Memory | None = None,
) -> tuple[list[Memory], dict[str, str]]:
    """The two rules of this module in turn: with a ``window`` (:func:`attribute_window`),
    :func:`attribute_first` over it, then ``successor`` first when it is in the window
    (what replaced the state a still-question names:
    :func:`graphmem.retrieval.ranking.still.still_successor`); then the first ``cut``
    memories, with :func:`owner_first` (off when ``settings.attribute_window`` is 0).

    ``cosines``: the semantic retriever's name-masked cosine per id, in its order (best
    first); its first :data:`RELEVANT` ids are the only safety claims a permission question
    that names no food moves up, and for advice only the claims within
    ``settings.attribute_similarity_margin`` of the window's best move (:func:`_near`);
    advice and several values go in this cosine's order.
    ``asked`` and ``examples``: as :func:`attribute_first`.
    Returns the new order and, per memory a rule moved, why (for ``recall --explain``)."""
    relevant = frozenset(list(cosines or {})[:RELEVANT])
    why: dict[str, str] = {}
    margin = settings.read.rescoring.attribute_similarity_margin
    near = _near(order[:window], cosines, margin)
    if window:
        order, moved = attribute_first(
            order, question, known, relevant, asked, examples, cosines, near
        )
        why.update(
            (
                ident,
                f"moved up: the question asks for {Attribute(key, True, '').label}, which it states",
            )
            for ident, key in moved.items()
        )
        if successor is not None and any(m.id == successor.id for m in order):
            order = [successor, *(m for m in order if m.id != successor.id)]
            why[successor.id] = "moved up: it replaced the state the question asks about"
    order = list(order[:cut])
    if settings.read.rescoring.attribute_window > 0:
        order, down = owner_first(order, question, known)
        why.update(
            (ident, "moved down: about someone close to the asked person, not the person")
            for ident in down
        )
    return order, why


#: How many of the semantic list's first ids count as "most similar to the question".
RELEVANT = 3


def attribute_first(
    order: Sequence[Memory],
    question: str,
    known: EntityDictionary | None,
    relevant: frozenset[str] = frozenset(),
    asked: frozenset[str] | None = None,
    examples: AttributeExamples | None = None,
    cosines: Mapping[str, float] | None = None,
    near: frozenset[str] | None = None,
) -> tuple[list[Memory], dict[str, str]]:
    """Move the memories that state the asked attribute of the asked person to the
    front (see the module docstring).

    Parameters
    ----------
    order : sequence of Memory
        The recall's memories, best first.
    question : str
        The question's text.
    known : EntityDictionary, optional
        The namespace's entities (names, the user); ``None``: the rule does nothing.
    relevant : frozenset of str
        Ids of the memories most similar to the question: for a permission question
        that names no food or trip (:func:`~graphmem.language.questions.asks_permission`),
        the only safety claims moved.
    asked : frozenset of str, optional
        The attributes the question asks about (:func:`asked_attributes`, when already read).
    examples : AttributeExamples, optional
        Adds to each claim the attribute its nearest labeled examples give, as a main one
        (:mod:`graphmem.retrieval.ranking.attribute_examples`; None: the rules alone).
    cosines : mapping of str to float, optional
        Each id's name-masked cosine to the question, by which advice and several values
        are ordered (None: they keep ``order``).
    near : frozenset of str, optional
        The only ids advice may move (:func:`_near`: those about as similar to the
        question as the most similar one); None: any.

    Returns
    -------
    (list of Memory, dict of str to str)
        The new order, and per moved memory the attribute it answers (for the explanation).
    """
    keys = asked_attributes(question) if asked is None else asked
    if not keys and known is not None and asks_still(question):
        keys = _named_attribute(order, question, known, examples)
    # "Café con leche on the way to class. Okay?" names no food the rules know: the
    # safety claims the question is most similar to come first, no others
    only_relevant = not keys and asks_permission(question)
    keys = SAFETY if only_relevant else keys
    subject = _asked_subject(question, keys, known)
    if not keys or subject is None or known is None:
        return list(order), {}
    chosen: list[tuple[int, float, int, Memory, str]] = []
    offered = offered_things(question) if keys & SAFETY else frozenset()
    if offered:  # "brunch for Hannah": a person is not what is offered
        offered -= {w.casefold() for name in known.people() for w in name.split()}
    # a job and its workplace are one answer said two ways: "now works as a midwife at
    # University Hospital Geelong" states the job as its main point as much as the employer
    wide = keys | WORK if keys & WORK else keys
    if examples is not None:
        examples.votes(order)  # every claim's vote in one matrix product (kept by id)
    # advice: the claims near the question (a permission question: the most similar three)
    allowed = near if keys & SAFETY and not only_relevant else None
    for index, memory in enumerate(order):
        if is_transcript(memory.extractor, memory.content):
            continue
        if only_relevant and memory.id not in relevant:
            continue
        if allowed is not None and memory.id not in allowed:
            continue  # advice: a safety claim far from what the question says stays
        if of_the_past(memory.content) and not _ASKS_PAST.search(question):
            continue  # "In Toronto I worked at Western Tech" answers no "Where do I teach?"
        stated, main_keys = _stated(memory, examples)
        found = [a for a in stated if a.key in keys]
        if keys & SAFETY:  # "gave up coffee" bears on a coffee, not on any meal
            found += [a for a in stated if a.key == "habit" and offers(question, a.value)]
        # what the person gave up, offered by the question ("a mezcal bar?", "no more natto
        # for me"), or a safety claim naming what the question offers ("Septrin"), first
        named = offered and keys & SAFETY and offered & _words(memory.content)
        if named and not found and strong_ending(memory.content):
            found = [Attribute("habit", False, min(named))]
        if not found:
            continue
        words = subject_of(claim_of(memory, known) if known else Claim.of(memory))
        if words is None or not names_agree(words, subject):
            continue
        main = -1 if named or any(a.key == "habit" for a in found) else 0 if main_keys & wide else 2
        # one attribute asked: its newest value first; advice (a meal, a trip, a pill):
        # what keeps the person safe, the most relevant first; so for several values
        # ("Which languages does Samuel speak?")
        several = keys <= SAFETY | _MANY
        relevance = -cosines.get(memory.id, -1.0) if cosines else 0.0
        when = relevance if several else -_seconds(memory.last_observed_at)
        chosen.append((main, when, index, memory, found[0].key))
    if not chosen:
        return list(order), {}
    chosen.sort(key=lambda row: row[:3])
    front = [row[3] for row in chosen]
    moved = {row[3].id: row[4] for row in chosen}
    rest = [m for m in order if m.id not in moved]
    return front + rest, moved


def _asked_subject(
    question: str, keys: frozenset[str], known: EntityDictionary | None
) -> tuple[str, ...] | None:
    """Whose ``keys`` the question asks for (:func:`question_subject`), where a safety
    question names the eater or a group eaten with, and "my partner" the user's."""
    subject = question_subject(question, known) if keys else None
    if keys & SAFETY and (who := eater(question)) is not None:  # "…, can I have some?"
        subject = question_subject(who, known) or subject
    if keys & SAFETY and _GROUP.search(question):
        # "My flatmates want Thai takeaway: should I warn them?", "pierogi with Tomek's
        # family": what I can eat, not what the group's owner can
        subject = question_subject(_GROUP.sub(" ", question), known) or subject
    if subject is None and "partner" in keys and keys <= {"partner", "employer"}:
        # "Who's my partner?" asks for the user's partner ("What does my fiancé do?" does not)
        subject = question_subject(_PARTNER_WORD.sub(" ", question), known)
    return subject


def _words(text: str) -> frozenset[str]:
    """``text``'s words, lower-cased, a plural also singular ("cashews": "cashew")."""
    words = re.findall(r"[^\W\d_][\w'’-]*", text.casefold())
    return frozenset(words) | frozenset(w[:-1] for w in words if w.endswith("s"))


def _near(
    window: Sequence[Memory], cosines: Mapping[str, float] | None, margin: float
) -> frozenset[str] | None:
    """The ids in ``window`` whose name-masked cosine to the question (``cosines``: the
    semantic retriever's scores) is within ``margin`` of the window's best: the claims
    the rule may move up. None (no guard) without cosines or with a margin of 2 or more
    (cosines lie in [-1, 1]). A memory the semantic list does not hold may not move."""
    if not cosines or margin >= 2.0:
        return None
    known = [cosines[m.id] for m in window if m.id in cosines]
    if not known:
        return None
    floor = max(known) - margin
    return frozenset(m.id for m in window if cosines.get(m.id, -2.0) >= floor)


def _named_attribute(
    order: Sequence[Memory],
    question: str,
    known: EntityDictionary,
    examples: AttributeExamples | None,
) -> frozenset[str]:
    """The single-valued attribute a still-question asks about: the one it states, read as
    a claim ("Is Lan still living in Hội An?": a residence, whose newest value answers);
    else that of the highest-ranked claim about the asked person sharing a word with the
    question beyond the person's name ("Am I still doing shifts at Pret?" names "I do
    weekend shifts at the Pret on Oxford Road": an employer). Empty when neither states
    one ("Does the user still play hockey?" names a hobby: several hold at once)."""
    subject = question_subject(question, known)
    if subject is None:
        return frozenset()
    stated = frozenset(a.key for a in attributes_of(question) if a.single)
    if stated:
        return stated
    name = {stem(w) for w in subject}
    words = {stem(w) for w in tokenize(question)} - name - QUESTION_WORDS
    for memory in order:
        if is_transcript(memory.extractor, memory.content):
            continue
        if not shares_word(words, memory.content):
            continue
        claimed = subject_of(claim_of(memory, known))
        if claimed is None or not names_agree(claimed, subject):
            continue
        # the claim the question names: what it states, if it is one value at a time
        return frozenset(a.key for a in _stated(memory, examples)[0] if a.single)
    return frozenset()


#: What a still-question says besides the state it names (stems): function words, "still".
QUESTION_WORDS = frozenset(
    stem(w) for w in FUNCTION_WORDS | {"still", "anymore", "any", "more", "longer", "user"}
)


def _stated(
    memory: Memory, examples: AttributeExamples | None = None
) -> tuple[list[Attribute], frozenset[str]]:
    """The attributes a memory states, and the keys of its main ones: its triple's
    predicate's, when that names one (the agent said what the claim is about), and its
    text's first ("graduated in June and started at Stripe" ends a school and names an
    employer); without a triple, also the attribute its nearest labeled examples give
    (``examples``; docs/updates.md "Nearest examples")."""
    stated = list(attributes_of(memory.content))
    given = triple_attribute(memory.predicate, memory.object)
    main = frozenset(a.key for a in stated[:1])
    if given is None and examples is not None:
        # the vote kept by memory id (read once per process, for the window in one batch)
        key = examples.votes([memory]).get(memory.id)
        if key is not None:  # the sentence's point, beside what the patterns found
            if all(a.key != key for a in stated):
                stated.append(Attribute(key, key in SINGLE_VALUED, ""))
            main |= {key}
    if given is None:
        return stated, main
    return [given, *(a for a in stated if a.key != given.key)], main | {given.key}


def asked_attributes(question: str) -> frozenset[str]:
    """The attributes ``question`` asks about that have one current value (a residence,
    an employer, a favourite), or the safety ones for advice. A multi-valued one (pets,
    hobbies, languages) has several at once: relevance orders them, not this rule.
    Keys as :mod:`graphmem.language.attributes` names them (docs/updates.md "At recall")."""
    return frozenset(
        key
        for key in question_attributes(question)
        if key in SINGLE_VALUED or key in SAFETY or key in _MANY or key.startswith("favourite:")
    )


#: Multi-valued attributes a question may ask for ("Which languages does Samuel speak?"):
#: the memories stating one come first, in relevance order (several values hold at once).
_MANY = frozenset({"language"})


# a group someone eats with ("my flatmates", "Arjun's team"), not whose safety is asked
_GROUP = re.compile(
    r"\b(?:my|our|(?-i:[A-ZÀ-Þ][\w'’-]*)['’]s)\s+(?:[\w-]+\s+)?(?:flatmates|roommates|"
    r"housemates|colleagues|co-?workers|teammates|friends|team|mates|crew|group|class|"
    r"classmates|labmates|family|relatives|in-laws|folks)\b",
    re.IGNORECASE,
)

# "Who's my partner these days?" asks for the user's partner, not about someone close
_PARTNER_WORD = re.compile(
    r"\b(?:partner|wife|husband|girlfriend|boyfriend|fianc[ée]e?|spouse)\b", re.IGNORECASE
)

_ASKS_PAST = re.compile(r"\b(?:did|was|were|used to|before|previous\w*|old|former\w*)\b", re.I)


def _seconds(when: datetime) -> float:
    return when.timestamp()
