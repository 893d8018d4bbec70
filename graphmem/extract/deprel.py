"""Typed relations from a spaCy dependency parse (docs/spec.md §11 "Offline default";
docs/extraction.md "Vocabulary").

:func:`find_relations` reads

- **role nouns** with an owner: "Maya's sister Priya", "Nadia is Omar's sister",
  "Omar's sister is Nadia", "Yui's son is called Ren", "my cat Miso" → owner
  —TYPE→ holder (:data:`~graphmem.language.relation_words.ROLE_TYPES`; the parse,
  and :func:`~graphmem.extract.roles.role_relations`' patterns where the parse
  fails);
- **verbs** with a subject and an object or a preposition's object, typed by
  :func:`~graphmem.language.relation_words.verb_type` ("works as a nurse at X" →
  ``WORKS_AT``; "owns a parrot named Kiwi" → ``OWNS``), and copulas ("X is the
  director of Orchard House" → ``WORKS_AT``; "X is friends with Y" →
  ``FRIEND_OF``); a verb + preposition outside the vocabulary gives nothing, and
  a target of the wrong kind neither (nobody moves to a person).

"I / me / my / we" are the speaker, "you / your" the addressee (when known),
"he / she / him / her / his" the last person named before. A negated verb
("did not join Northwind", "never lived in Oslo") gives no relation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphmem.extract.roles import role_relations
from graphmem.language.relation_words import (
    NOT_ENTITIES,
    PET_WORDS,
    ROLE_TYPES,
    TARGET_KINDS,
    VOCABULARY,
    org_word,
    verb_type,
)
from graphmem.language.timeparse import is_future
from graphmem.text import normalize

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Token

__all__ = ["Found", "find_relations"]

_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our"})
_SECOND_PERSON = frozenset({"you", "your", "yours", "yourself"})
_THIRD_PERSON = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_OBJECTS = frozenset({"dobj", "attr", "oprd", "dative"})
_NAMING = frozenset({"name", "call"})
_PLACE_TYPES = frozenset({"LIVES_IN", "MOVED_TO", "BORN_IN", "VISITED", "PLANS_TO_VISIT"})
_SCHOOL_WORDS = frozenset({"university", "college", "school", "academy", "conservatory"})
_GROUP_WORDS = frozenset({"choir", "orchestra", "band", "team", "club", "league", "society"})
_JOB_WORDS = frozenset({"job", "internship", "position", "role", "work", "shift", "office"})


@dataclass
class Found:
    """What :func:`find_relations` found: relations (source, TYPE, target, lemma),
    the pairs of names a clause relates (subject and object of one verb, typed or
    not: "went climbing with Sofia"), names known to be people, and kinds the text
    implies for names (a pet's name, a workplace, a place moved to)."""

    relations: dict[tuple[str, str, str], tuple[str, str, str, str]] = field(default_factory=dict)
    links: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    people: set[str] = field(default_factory=set)
    kinds: dict[str, str] = field(default_factory=dict)

    def link(self, names: list[str]) -> None:
        """Record every pair of ``names`` as related by the text."""
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                a, b = sorted((normalize(first), normalize(second)))
                if a != b:
                    self.links.setdefault((a, b), (first, second))

    def add(self, source: str | None, predicate: str, target: str | None, lemma: str) -> None:
        if source and target and normalize(source) != normalize(target):
            key = (normalize(source), predicate, normalize(target))
            self.relations.setdefault(key, (source, predicate, target, lemma))
            kind = TARGET_KINDS.get(predicate)
            if kind is not None:
                self.kinds[target] = kind
            if predicate not in ("MEMBER_OF",):
                self.people.add(source)
            if predicate not in TARGET_KINDS:
                self.people.add(target)


@dataclass
class _Context:
    doc: Doc
    names: dict[int, str]
    kinds: dict[str, str]
    speaker: str | None
    addressee: str | None
    found: Found

    def name_of(self, token: Token) -> str | None:
        if token.i in self.names:
            return self.names[token.i]
        word = token.lower_
        if word in _FIRST_PERSON:
            return self.speaker
        if word in _SECOND_PERSON:
            return self.addressee
        if word in _THIRD_PERSON:
            return self._person_before(token.i)
        # "my sister Priya": the appositive's name stands for the noun
        for child in token.children:
            if child.dep_ in ("appos", "compound") and child.i in self.names:
                return self.names[child.i]
        return _proper_name(token)

    def _person_before(self, index: int) -> str | None:
        """The last person named before token ``index`` (not the speaker or addressee)."""
        for i in range(index - 1, -1, -1):
            name = self.names.get(i) or _proper_name(self.doc[i])
            if name and (self.kinds.get(name) == "Person" or name in self.found.people):
                return name if name not in (self.speaker, self.addressee) else None
        return None

    def kind(self, name: str) -> str | None:
        return self.kinds.get(name)


def find_relations(
    doc: Doc,
    names: dict[int, str],
    kinds: dict[str, str],
    *,
    speaker: str | None,
    addressee: str | None,
) -> Found:
    """Relations between the names of ``doc`` (``names``: token index → entity
    name; ``kinds``: name → the kind the model or the namespace gives it)."""
    found = Found()
    ctx = _Context(doc, names, kinds, speaker, addressee, found)
    for sentence in doc.sents:
        future = is_future(sentence.text)
        asks = sentence.text.rstrip().endswith("?")  # a question states no verb relation
        for token in sentence:
            if token.pos_ in ("NOUN", "PROPN") and token.i not in names:
                _role(token, ctx, found)
            if token.dep_ in _SUBJECTS and not asks:
                subjects = (token, *token.conjuncts)
                for subject in subjects:
                    _verb(subject, token.head, ctx, found, future=future)
                _together(subjects, token.head, ctx, found)
    for rel in role_relations(doc.text, speaker, addressee=addressee, types=ROLE_TYPES):
        found.add(rel.source, rel.predicate, rel.target, rel.lemma or "")
    return found


def _together(subjects: tuple[Token, ...], verb: Token, ctx: _Context, found: Found) -> None:
    """ "Ioana and I got married": conjoined subjects of "marry" without an object are
    married to each other; a name conjoined with "I" or "you" is a person."""
    names = [n for s in subjects if (n := ctx.name_of(s))]
    if len(subjects) < 2 or len(names) != len(subjects):
        return
    if any(s.lower_ in ("i", "you", "we") for s in subjects):
        found.people.update(names)
    if _negated(verb):
        return
    found.link(names)  # "Caroline and Melanie went hiking"
    lemma = verb.lemma_.casefold()
    objects = any(c.dep_ in _OBJECTS for c in verb.children)
    if lemma in ("marry", "married", "wed") and not objects:
        found.add(names[0], "MARRIED_TO", names[1], lemma)


def _role(noun: Token, ctx: _Context, found: Found) -> None:
    """The role nouns: "Maya's sister Priya", "Nadia is Omar's sister", "my cat Miso",
    and a job's place ("my job at Shimizu Robotics")."""
    lemma = noun.lemma_.casefold()
    owner = next((c for c in noun.children if c.dep_ == "poss"), None)
    if lemma in _JOB_WORDS:
        for prep in noun.children:
            if owner is not None and prep.dep_ == "prep" and prep.lower_ in ("at", "with"):
                for obj in prep.children:
                    if obj.dep_ == "pobj" and (target := ctx.name_of(obj)) is not None:
                        found.add(ctx.name_of(owner), "WORKS_AT", target, lemma)
        return
    predicate = ROLE_TYPES.get(lemma)
    if predicate is None:
        return
    holder = _role_holder(noun, ctx.names)
    target = ctx.name_of(holder) if holder is not None else None
    if predicate == "OWNS" and target is not None:
        found.kinds[target] = "Animal"  # "my parents' dog Pepper": a pet, whoever owns it
    if owner is None or target is None or _negated(noun.head):
        return
    found.add(ctx.name_of(owner), predicate, target, noun.lemma_)


def _verb(subject_token: Token, verb: Token, ctx: _Context, found: Found, *, future: bool) -> None:
    subject = ctx.name_of(subject_token)
    trips: list[tuple[str, str, str]] = []
    companions: list[str] = []
    objects: list[str] = []
    for head, prep, obj in _objects(verb):
        named = _named(obj)  # "a parrot named Kiwi", "a puppy, Biscuit"
        target = ctx.name_of(named or obj)
        if target is None or target == subject:
            continue
        objects.append(target)
        kind = ctx.kind(target)
        if named is not None and obj.lemma_.casefold() in PET_WORDS:
            found.kinds[target] = "Animal"
        if prep == "with" and (kind == "Person" or target in found.people):
            companions.append(target)  # "flying to Ibadan with my brother Tobi"
        predicate = _typed(head, prep, obj, target, kind, future=future or _will(head))
        if predicate is None:
            continue
        if predicate == "OWNS" and named is not None and obj.lemma_.casefold() not in PET_WORDS:
            found.kinds[target] = "Organization"  # "a bakery called Pan de Casa"
        lemma = f"{head.lemma_} {prep}" if prep else head.lemma_
        if predicate == "MANAGER_OF":
            found.add(target, predicate, subject, lemma)  # owner first: X's manager is S
        else:
            found.add(subject, predicate, target, lemma)
        if predicate in ("VISITED", "PLANS_TO_VISIT"):
            trips.append((predicate, target, lemma))
    for companion in companions:  # a companion makes the same trip
        for predicate, target, lemma in trips:
            found.add(companion, predicate, target, lemma)
    if subject:
        for target in objects:  # the verb relates them, typed or not
            found.link([subject, target])


def _typed(
    head: Token, prep: str | None, obj: Token, target: str, kind: str | None, *, future: bool
) -> str | None:
    """The relation type of "``head`` [``prep``] ``obj``" (target ``target`` of model
    kind ``kind``), or None."""
    lemma = head.lemma_.casefold()
    last = target.casefold().split()[-1]
    if head.lemma_ == "be" and prep is None:
        return None  # "Dana is my manager": a role, read by _role
    if lemma == "be" or head.pos_ == "NOUN":
        # "X is the director of Orchard House", "X is friends with Y"
        noun = head if head.pos_ == "NOUN" else obj
        role = ROLE_TYPES.get(noun.lemma_.casefold())
        if role is not None and prep == "with":
            return role if role != "OWNS" else None
        if prep in ("of", "at", "for") and (kind == "Organization" or org_word(target)):
            return "WORKS_AT"
        return None
    if prep in ("in", "with", "for") and last in _GROUP_WORDS:
        return "MEMBER_OF"  # "sings in the Brixton Community Choir"
    if lemma in ("manage", "supervise") and prep is None and kind == "Person":
        return "MANAGER_OF"
    if lemma in ("have", "own", "adopt", "get", "buy", "rescue", "open", "run") and prep is None:
        if _named(obj) is None:
            return None
        role = ROLE_TYPES.get(obj.lemma_.casefold()) if lemma == "have" else None
        # "Lucía has one older sister, Rosa": a sister, not a possession
        return role if role is not None and kind != "Animal" else "OWNS"
    if lemma in ("manage", "run", "lead", "head", "direct") and prep in ("of", "at"):
        return "WORKS_AT"
    found = verb_type(lemma, prep, target, future=future)
    if lemma == "book" and prep is None:
        found = "PLANS_TO_VISIT" if future else "VISITED"
    if lemma == "do" and prep == "at":
        found = "WORKS_AT"
    if found in _PLACE_TYPES and ((kind == "Person" and prep is None) or org_word(target)):
        return None  # nobody visits a person (as a place) or is born in a bank
    if found in ("WORKS_AT", "STUDIES_AT"):
        if kind == "Place" and not org_word(target):
            return None  # "works in Chicago"
        if last in _SCHOOL_WORDS and lemma not in ("work", "teach", "intern"):
            return "STUDIES_AT"  # "started at Boğaziçi University"
        if kind == "Person" and prep != "at":
            return None  # "works with Dana"
    return found if found in VOCABULARY else None


def _named(obj: Token) -> Token | None:
    """The name a noun is given: "a parrot named Kiwi", "a puppy, Biscuit"."""
    if obj.pos_ != "NOUN":
        return None
    for child in obj.children:
        if child.dep_ == "acl" and child.lemma_.casefold() in _NAMING:
            for inner in child.children:
                if inner.dep_ in ("oprd", "attr", "dobj") and inner.pos_ == "PROPN":
                    return inner
        if child.dep_ == "appos" and child.pos_ == "PROPN":
            return child
    return None


def _will(verb: Token) -> bool:
    return any(c.lower_ in ("will", "'ll", "’ll", "shall") for c in verb.children)


def _negated(verb: Token) -> bool:
    """Whether ``verb`` or a verb it complements is negated ("did not start working")."""
    head: Token | None = verb
    for _ in range(4):
        if head is None:
            return False
        if any(c.dep_ == "neg" or c.lower_ in ("never", "not", "n't") for c in head.children):
            return True
        if head.dep_ not in ("xcomp", "ccomp", "conj", "advcl") or head.head.i == head.i:
            return False
        head = head.head
    return False


def _role_holder(noun: Token, names: dict[int, str]) -> Token | None:
    """Who holds the role ``noun`` names: a named appositive or compound ("my boss
    Dana"); the subject of the copula the noun completes ("Nadia is Omar's sister");
    the copula's named complement ("Omar's sister is Nadia"); the name it is called
    ("Yui's son is called Ren"); the name the noun is in apposition to ("Nadia,
    Omar's sister, …")."""
    for child in noun.children:
        if child.dep_ in ("appos", "compound") and (child.i in names or child.pos_ == "PROPN"):
            return child
    head = noun.head
    if head.lemma_ == "be" and head.i != noun.i:
        wanted = _SUBJECTS if noun.dep_ == "attr" else ("attr",) if noun.dep_ in _SUBJECTS else ()
        for child in head.children:
            if child.dep_ in wanted and child.i != noun.i:
                return child
    if head.lemma_.casefold() in _NAMING and noun.dep_ in _SUBJECTS:
        return next((c for c in head.children if c.dep_ in ("oprd", "attr")), None)
    if noun.dep_ == "appos" and head.i != noun.i:
        return head
    return None


def _proper_name(token: Token) -> str | None:
    """A proper noun with its proper-noun compounds ("Arlo", "Tessa Lind"), or None."""
    if token.pos_ != "PROPN" or not token.text[:1].isupper():
        return None
    words = [c for c in token.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"] + [token]
    name = " ".join(w.text for w in words).strip()
    if all(w.lower_ in NOT_ENTITIES for w in words):
        return None  # "March", "Monday", "Congrats"
    return name if 2 <= len(name) <= 512 else None


def _objects(verb: Token) -> Iterator[tuple[Token, str | None, Token]]:
    """(verb, preposition, object) reachable from a subject's head verb and not
    negated: direct objects and their conjuncts, prepositional objects (also those of
    a noun the verb takes: "works as a nurse at X", "is the director of X"), and
    those of open complements ("started working at X" → "work", "at", X)."""
    if _negated(verb):
        return
    if verb.dep_ == "relcl" and any(c.lower_ == "where" for c in verb.children):
        yield verb, "in", verb.head  # "Beirut, where his father was born"
    stack = [verb]
    seen: set[int] = set()
    while stack:
        head = stack.pop()
        if head.i in seen:
            continue
        seen.add(head.i)
        for child in head.children:
            if child.dep_ in _OBJECTS:
                yield head, None, child
                yield from ((head, None, c) for c in child.conjuncts)
                if child.pos_ == "NOUN":  # "the director of X", "friends with Y"
                    for inner in child.children:
                        if inner.dep_ == "prep":
                            yield from _prep_objects(child, inner)
            elif child.dep_ == "prep" or (child.dep_ == "advmod" and child.lower_ == "back"):
                yield from _prep_objects(head, child)
            elif child.dep_ in ("xcomp", "ccomp", "conj", "acomp") and child.pos_ in (
                "VERB",
                "AUX",
                "ADJ",
            ):
                if not _negated(child) and not any(c.dep_ in _SUBJECTS for c in child.children):
                    stack.append(child)
            elif child.dep_ == "agent":
                for obj in child.children:
                    if obj.dep_ == "pobj":
                        yield head, "by", obj


def _prep_objects(verb: Token, prep: Token) -> Iterator[tuple[Token, str | None, Token]]:
    for obj in prep.children:
        if obj.dep_ == "pobj":
            yield verb, prep.lower_, obj
            yield from ((verb, prep.lower_, c) for c in obj.conjuncts)
            if prep.lower_ == "as":  # "works as a nurse at St. Mary's": the noun's preposition
                for inner in obj.children:
                    if inner.dep_ == "prep":
                        yield from _prep_objects(verb, inner)
        elif obj.dep_ == "prep":  # "moved back to Lisbon"
            yield from _prep_objects(verb, obj)
