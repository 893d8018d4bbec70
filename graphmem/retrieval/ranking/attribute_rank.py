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
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from graphmem.entities import EntityDictionary, user_by_later_name
from graphmem.language.attributes import SINGLE_VALUED, Attribute, attributes_of
from graphmem.language.claim_reading import reported_person, reports
from graphmem.language.claims import Claim, claim_of, names_agree, subject_of
from graphmem.language.endings import of_the_past
from graphmem.language.questions import (
    SAFETY,
    asks_permission,
    asks_still,
    eater,
    offers,
    question_attributes,
)
from graphmem.language.triples import triple_attribute
from graphmem.language.voice import is_transcript, kin_subject, names_someone_close
from graphmem.language.words import FUNCTION_WORDS, shares_word, stem
from graphmem.models import Entity, Memory
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


def question_subject(question: str, known: EntityDictionary | None) -> tuple[str, ...] | None:
    """Whom the question asks about, as lower-cased name words: the first entity it
    links ("I", "my" → the namespace's user); ``None`` when it links none or asks
    about someone close to them."""
    entity = _first_linked(question, known)
    return None if entity is None else tuple(entity.name.casefold().split())


def _first_linked(question: str, known: EntityDictionary | None) -> Entity | None:
    """The first entity ``question`` links, unless it asks about someone close to a
    person ("Where does my sister work?")."""
    if known is None or names_someone_close(question):
        return None
    for link in known.link(question):
        entity = known.get(link.entity_id)
        if entity is not None:
            return entity
    # "Which city does Khoa live in now?" when the user is Phạm Minh Khoa
    for word in _CAPITALISED.findall(question):
        if (user := user_by_later_name(known, word)) is not None:
            return user
    return None


_CAPITALISED = re.compile(r"\b[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]+")


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
    relevant: frozenset[str] = frozenset(),
    asked: frozenset[str] | None = None,
    examples: AttributeExamples | None = None,
    successor: Memory | None = None,
) -> tuple[list[Memory], dict[str, str]]:
    """The two rules of this module in turn: with a ``window`` (:func:`attribute_window`),
    :func:`attribute_first` over it, then ``successor`` first when it is in the window
    (what replaced the state a still-question names:
    :func:`graphmem.retrieval.ranking.still.still_successor`); then the first ``cut``
    memories, with :func:`owner_first` (off when ``settings.attribute_window`` is 0).

    ``relevant``: the ids most similar to the question (the semantic list's top), the
    only safety claims a permission question that names no food moves up
    (:func:`attribute_first`); ``asked`` and ``examples``: as :func:`attribute_first`.
    Returns the new order and, per memory a rule moved, why (for ``recall --explain``)."""
    why: dict[str, str] = {}
    if window:
        order, moved = attribute_first(order, question, known, relevant, asked, examples)
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


def attribute_first(
    order: Sequence[Memory],
    question: str,
    known: EntityDictionary | None,
    relevant: frozenset[str] = frozenset(),
    asked: frozenset[str] | None = None,
    examples: AttributeExamples | None = None,
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
    subject = question_subject(question, known) if keys else None
    if keys & SAFETY and (who := eater(question)) is not None:  # "…, can I have some?"
        subject = question_subject(who, known) or subject
    if subject is None and "partner" in keys and keys <= {"partner", "employer"}:
        # "Who's my partner?" asks for the user's partner ("What does my fiancé do?" does not)
        subject = question_subject(_PARTNER_WORD.sub(" ", question), known)
    if not keys or subject is None or known is None:
        return list(order), {}
    chosen: list[tuple[int, float, int, Memory, str]] = []
    for index, memory in enumerate(order):
        if is_transcript(memory.extractor, memory.content):
            continue
        if only_relevant and memory.id not in relevant:
            continue
        if of_the_past(memory.content) and not _ASKS_PAST.search(question):
            continue  # "In Toronto I worked at Western Tech" answers no "Where do I teach?"
        stated, main_keys = _stated(memory, examples)
        found = [a for a in stated if a.key in keys]
        if keys & SAFETY:  # "gave up coffee" bears on a coffee, not on any meal
            found += [a for a in stated if a.key == "habit" and offers(question, a.value)]
        if not found:
            continue
        words = subject_of(claim_of(memory, known) if known else Claim.of(memory))
        if words is None or not names_agree(words, subject):
            continue
        # what the person gave up, offered by the question ("a mezcal bar?"), answers it first
        main = -1 if any(a.key == "habit" for a in found) else 0 if main_keys & keys else 2
        # one attribute asked: its newest value first; advice (a meal, a trip, a pill):
        # what keeps the person safe, the most relevant first; so for several values
        # ("Which languages does Samuel speak?")
        when = 0.0 if keys <= SAFETY | _MANY else -_seconds(memory.last_observed_at)
        chosen.append((main, when, index, memory, found[0].key))
    if not chosen:
        return list(order), {}
    chosen.sort(key=lambda row: row[:3])
    front = [row[3] for row in chosen]
    moved = {row[3].id: row[4] for row in chosen}
    rest = [m for m in order if m.id not in moved]
    return front + rest, moved


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


def owner_first(
    order: Sequence[Memory], question: str, known: EntityDictionary | None
) -> tuple[list[Memory], list[str]]:
    """The asked person's memories before those about someone close to them.

    "What's Henrik's boat called?" asks about Henrik; "Henrik's brother Lars has a boat
    too" is about Lars (:func:`graphmem.language.voice.kin_subject`) and goes below
    every memory of the window that is not about someone else. Nothing leaves the
    window (the order inside it changes; what a recall returns does not). Off when
    the question itself asks about someone close ("Where does Maya's sister work?")
    or names nobody the namespace knows.

    Returns
    -------
    (list of Memory, list of str)
        The new order, and the ids moved down.
    """
    subject = _asked_person(question, known)
    if subject is None:
        return list(order), []
    own: list[Memory] = []
    others: list[Memory] = []
    for memory in order:
        kin = None if is_transcript(memory.extractor, memory.content) else _someone(memory, known)
        if kin is not None and not names_agree(tuple(kin.casefold().split()), subject):
            others.append(memory)
        else:
            own.append(memory)
    if not others or not own:
        return list(order), []
    return own + others, [m.id for m in others]


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
    if given is None and examples is not None and memory.embedding is not None:
        key = examples.claim(np.asarray(memory.embedding, dtype=np.float32)).key
        if key is not None:  # the sentence's point, beside what the patterns found
            if all(a.key != key for a in stated):
                stated.append(Attribute(key, key in SINGLE_VALUED, ""))
            main |= {key}
    if given is None:
        return stated, main
    return [given, *(a for a in stated if a.key != given.key)], main | {given.key}


def _someone(memory: Memory, known: EntityDictionary | None) -> str | None:
    """Whom a memory is about when that may be someone other than the asked person:
    the person its text says it is about ("Henrik's brother Lars has a boat too", "User
    says Silje has a dog as well"), else
    its triple's subject as the agent gave it ("Andriy Kovalenko"), unless that names
    the namespace's user (who may be asked for by a nickname) or a known entity that is
    not a person (a claim about "Krishi Loop" is about the company)."""
    kin = kin_subject(memory.content)
    if kin is None and known is not None and not memory.subject and reports(memory.content):
        reported = reported_person(claim_of(memory, known))  # "User says Silje has a dog"
        kin = None if reported is None else " ".join(reported)
    if kin is not None or not memory.subject or known is None:
        return kin
    hit = known.resolve(memory.subject)
    entity = None if hit is None else known.get(hit[0])
    user = known.user()
    is_user = user is not None and entity is not None and entity.id == user.id
    if entity is not None and (entity.kind != "Person" or is_user):
        return None
    return memory.subject


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


# "Who's my partner these days?" asks for the user's partner, not about someone close
_PARTNER_WORD = re.compile(
    r"\b(?:partner|wife|husband|girlfriend|boyfriend|fianc[ée]e?|spouse)\b", re.IGNORECASE
)

_ASKS_PAST = re.compile(r"\b(?:did|was|were|used to|before|previous\w*|old|former\w*)\b", re.I)
_ASKS_WHO = re.compile(r"^\W*(?:who|whom|whose)\b", re.IGNORECASE)


def _asked_person(question: str, known: EntityDictionary | None) -> tuple[str, ...] | None:
    """The person a question asks about: its first linked entity when that is a
    person, and the question does not ask *who* ("Who lives in the condo now?" may
    well be someone close)."""
    entity = None if _ASKS_WHO.match(question) else _first_linked(question, known)
    if entity is None or entity.kind != "Person":
        return None
    return tuple(entity.name.casefold().split())


def _seconds(when: datetime) -> float:
    return when.timestamp()
