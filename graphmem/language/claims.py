"""Claim compatibility: may two near-duplicate claims be merged? (docs/spec.md §9.10).

The source rule that a cosine above 0.92 means the same fact is false for
one-token changes: "Sam's birthday is on 14 August" and "… 15 August", or
"allergic to penicillin" and "not allergic to penicillin", embed above 0.95.
Before dedup merges a near-duplicate (tier 2 or tier 3) the two claims must be
*compatible*; an incompatible near-duplicate is a conflict (docs/spec.md §2.11 as
amended by §9.9), and the consolidation's consistency scan (docs/spec.md §10) reports
incompatible pairs that escaped the write path.

Two claims are compatible only when, in order of the check (the first failure
is the reason reported):

1. ``SUBJECT`` — they are about the same subject: explicit triple subjects
   agree, and otherwise the names that open the two sentences do. A claim about
   another subject is *distinct*, not a contradiction ("Sam's birthday …" vs
   "Dana's birthday …"); callers keep both.
2. ``OBJECT`` — when both carry a triple with the same subject and predicate,
   the same object.
3. ``NEGATION`` — no negation flip: one claim negates or ends what the other
   states ("not", "n't", "never", "no longer", "anymore", "stopped", "quit",
   "used to", "former", ...) and the other does not.
4. ``DATES`` — the same dates: day / month / year expressions, month and
   weekday names.
5. ``NUMBERS`` — the same numbers and quantities (digits, number words,
   ordinals; a phone number is its digit groups).
6. ``STATE`` — no two different values of one exclusive state: relationship
   status (single / dating / engaged / married / divorced / widowed), diet,
   employment, a like vs a dislike. "is engaged to" and "is married to" name
   the same people and differ only in such a state word.
7. ``ENTITIES`` — the same named entities, the object slot included: every
   name of one claim appears in the other (as a name, or as a word of its text),
   or contains a name of the other ("Northwind" and "Northwind Health" agree).

A restatement in other words ("Sam's birthday is 14 August" / "Sam was born on
August 14th") keeps the same subject, numbers, dates, names and polarity, so it
stays compatible and merges.

The rule is lexical on purpose: pure, fast, deterministic and explainable (the
reason names what differs). An LLM judge (docs/spec.md §11) can decide pairs it cannot.

>>> check(Claim("Sam's birthday is on 14 August"), Claim("Sam's birthday is on 15 August"))
Compatibility(reason=<Reason.DATES: 'dates'>, detail="dates differ: ['*-08-14'] vs ['*-08-15']")
>>> bool(check(Claim("Sam is allergic to penicillin"), Claim("Sam is allergic to penicillin.")))
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from graphmem.language.claim_reading import (
    WORD,
    Claim,
    ClaimLike,
    Features,
    clean,
    features,
    named_user,
    opening_subject,
)
from graphmem.language.frames import frame_overlap
from graphmem.language.voice import (
    USER_ALIAS,
    governed,
    kin_owner,
    kin_subject,
    modifies_a_noun,
    owner_governed,
    speaks_for_user,
    voice_at,
)
from graphmem.language.words import stem
from graphmem.text import normalize

__all__ = [
    "Claim", "ClaimLike", "Compatibility", "EntityLookup", "EntityRef", "NamedEntity", "Reason",
    "StoredClaim", "check", "claim_of", "frame_overlap", "names_agree", "one_sided",
    "same_subject", "subject_of",
]  # fmt: skip


class Reason(StrEnum):
    """Why two claims are not compatible (the first failed check, docs/spec.md §9.10)."""

    SUBJECT = "subject"
    OBJECT = "object"
    NEGATION = "negation"
    DATES = "dates"
    NUMBERS = "numbers"
    STATE = "state"
    ENTITIES = "entities"

    @property
    def is_conflict(self) -> bool:
        """True when the two claims contradict each other (same subject, another
        value); ``SUBJECT`` means two claims about different things — distinct."""
        return self is not Reason.SUBJECT


@dataclass(frozen=True, slots=True)
class Compatibility:
    """The verdict of :func:`check`: ``reason`` is ``None`` when compatible.

    Truthy exactly when compatible; ``detail`` says in words what differs
    ("numbers differ: ['14'] vs ['15']"), empty when compatible.
    """

    reason: Reason | None
    detail: str = ""

    @property
    def compatible(self) -> bool:
        """Whether the claims may be merged."""
        return self.reason is None

    def __bool__(self) -> bool:
        return self.reason is None


class NamedEntity(Protocol):
    """An entity as the rule reads it (:class:`~graphmem.models.Entity`): its name, other
    names and kind ("Person", "Place", ...)."""

    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> Sequence[str]: ...
    @property
    def kind(self) -> str: ...


class EntityLookup(Protocol):
    """The namespace's entities by id, and its user (docs/spec.md §9.14):
    :class:`~graphmem.entities.EntityDictionary`."""

    def get(self, ident: str) -> NamedEntity | None: ...
    def user(self) -> NamedEntity | None: ...


class EntityRef(Protocol):
    """A mention of an entity (:class:`~graphmem.models.Mention`)."""

    @property
    def entity_id(self) -> str: ...


class StoredClaim(ClaimLike, Protocol):
    """A stored claim with the entities it mentions (:class:`~graphmem.models.Memory`)."""

    @property
    def mentions(self) -> Sequence[EntityRef]: ...


def claim_of(memory: StoredClaim, dictionary: EntityLookup) -> Claim:
    """The claim of a stored memory, the names of the entities it mentions included
    (those ``dictionary`` knows), and the namespace's user."""
    entities = [e for m in memory.mentions if (e := dictionary.get(m.entity_id)) is not None]
    user = dictionary.user()
    claim = Claim.of(
        memory,
        dict.fromkeys(e.name for e in entities),
        user.name if user is not None else None,
    )
    aliases = tuple((alias, e.name) for e in entities for alias in e.aliases if alias != USER_ALIAS)
    places = tuple(dict.fromkeys(e.name for e in entities if e.kind == "Place"))
    people = tuple(dict.fromkeys(e.name for e in entities if e.kind == "Person"))
    return replace(claim, aliases=aliases, places=places, people=people)


def _same_name(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two names agree when one's words contain the other's ("Northwind" ⊂
    "Northwind Health"), compared by stem."""
    sa, sb = {stem(w) for w in a}, {stem(w) for w in b}
    return sa <= sb or sb <= sa


def _name_found(name: tuple[str, ...], other: Features) -> bool:
    if all(w in other.words or stem(w) in other.words for w in name):
        return True
    return any(_same_name(name, theirs) for theirs in other.names)


def _norm_slot(value: str | None) -> tuple[str, ...]:
    return tuple(stem(clean(w)) for w in WORD.findall(normalize(value or "")))


def _slot_agrees(a: str | None, b: str | None) -> bool:
    wa, wb = set(_norm_slot(a)), set(_norm_slot(b))
    return wa <= wb or wb <= wa


def _predicate_key(value: str | None) -> str:
    return normalize((value or "").replace("_", " ").replace("-", " "))


def _subject_object(a: Claim, b: Claim, fa: Features, fb: Features) -> Compatibility | None:
    """The first two checks of :func:`check`: the subjects (the slots, else the names the
    sentences open with), then the objects of one subject and predicate; ``None`` when
    both pass."""
    if a.subject and b.subject:
        if not _slot_agrees(a.subject, b.subject):
            return Compatibility(Reason.SUBJECT, f"subjects differ: {a.subject!r} vs {b.subject!r}")
    elif (
        fa.opener
        and fb.opener
        and not _same_name(fa.opener, fb.opener)
        and not _name_found(fa.opener, fb)
        and not _name_found(fb.opener, fa)
    ):
        return Compatibility(
            Reason.SUBJECT,
            f"subjects differ: {' '.join(fa.opener)!r} vs {' '.join(fb.opener)!r}",
        )
    if (
        a.subject
        and b.subject
        and a.predicate
        and b.predicate
        and _predicate_key(a.predicate) == _predicate_key(b.predicate)
        and (a.object or b.object)
        and not (a.object and b.object and _slot_agrees(a.object, b.object))
    ):
        return Compatibility(
            Reason.OBJECT,
            f"same subject and predicate, objects differ: {a.object!r} vs {b.object!r}",
        )
    return None


def check(a: Claim, b: Claim) -> Compatibility:
    """May ``a`` and ``b`` be merged as one claim? (docs/spec.md §9.10)

    Parameters
    ----------
    a, b : Claim
        The two claims (order does not matter for the verdict; ``detail`` lists
        ``a``'s value first).

    Returns
    -------
    Compatibility
        ``reason`` ``None`` when compatible, else the first failed check of the
        module docstring's list with a ``detail`` naming what differs.
    """
    fa, fb = features(a), features(b)
    slots = _subject_object(a, b, fa, fb)
    if slots is not None:
        return slots
    if fa.negated != fb.negated:
        which = "first" if fa.negated else "second"
        return Compatibility(Reason.NEGATION, f"negation flip: only the {which} claim negates")
    if fa.dates != fb.dates:
        return Compatibility(Reason.DATES, f"dates differ: {list(fa.dates)} vs {list(fb.dates)}")
    if Counter(fa.numbers) != Counter(fb.numbers):
        return Compatibility(
            Reason.NUMBERS, f"numbers differ: {list(fa.numbers)} vs {list(fb.numbers)}"
        )
    if fa.states and fb.states and fa.states != fb.states:
        return Compatibility(
            Reason.STATE, f"states differ: {sorted(fa.states)} vs {sorted(fb.states)}"
        )
    if len(fa.sentiment) == 1 and len(fb.sentiment) == 1 and fa.sentiment != fb.sentiment:
        return Compatibility(
            Reason.STATE, f"states differ: {sorted(fa.sentiment)} vs {sorted(fb.sentiment)}"
        )
    for ours, theirs, label in ((fa, fb, "first"), (fb, fa, "second")):
        missing = [" ".join(n) for n in ours.names if not _name_found(n, theirs)]
        if missing:
            return Compatibility(
                Reason.ENTITIES, f"only the {label} claim names {', '.join(missing)}"
            )
    objects = [(a.object, fb, "first"), (b.object, fa, "second")]
    for value, other, label in objects:
        slot = tuple(clean(w) for w in WORD.findall(value or ""))
        if (
            slot
            and not _name_found(slot, other)
            and not (a.object and b.object and _slot_agrees(a.object, b.object))
        ):
            return Compatibility(
                Reason.ENTITIES, f"the {label} claim's object {value!r} is not in the other"
            )
    return Compatibility(None)


def one_sided(a: Claim, b: Claim) -> bool:
    """Is ``a`` and ``b``'s incompatibility only detail one of them adds?

    True when :func:`check` fails on dates, numbers or names and only one claim carries
    them: "Alice moved to Berlin in 2021" / "Alice lives in Berlin" (a date on one
    side), "Alice works at Google" / "Alice works at Google with Bob" (a name on one
    side). Such a pair must not merge (§9.10) but states no two values of one thing:
    the consistency scan (docs/spec.md §10) does not supersede it on this rule alone. False for
    compatible claims, different subjects, and every other reason (a negation flip,
    another object or state, two different dates, numbers or names).
    """
    verdict = check(a, b)
    if verdict.reason not in (Reason.DATES, Reason.NUMBERS, Reason.ENTITIES):
        return False
    fa, fb = features(a), features(b)
    if verdict.reason is Reason.DATES:
        return not fa.dates or not fb.dates
    if verdict.reason is Reason.NUMBERS:
        return not fa.numbers or not fb.numbers
    only_a = [n for n in fa.names if not _name_found(n, fb)]
    only_b = [n for n in fb.names if not _name_found(n, fa)]
    return not only_a or not only_b


def subject_of(claim: Claim) -> tuple[str, ...] | None:
    """Who or what the claim is about, as lower-cased words; ``None`` when unknown.

    The triple's subject when it has one; else the given name (``claim.names``: a
    candidate's entities, a stored memory's mentioned entities) that the text names first,
    not as the owner of a preposition's object; else the name that opens the text. "Alma
    works with Tomas" is about Alma, "Elif moved into Yusuf's flat" about Elif.

    >>> subject_of(Claim("Alma works with Tomas.", names=("Tomas", "Alma")))
    ('alma',)
    >>> subject_of(Claim("Tomas's birthday is on 20 August."))
    ('tomas',)
    """
    if claim.subject:
        return tuple(clean(w) for w in WORD.findall(claim.subject)) or None
    kin = kin_subject(claim.content)
    if kin is not None:  # "Lena's sister Mia lives in Denver" is about Mia
        return tuple(clean(w) for w in WORD.findall(kin)) or None
    owner = kin_owner(claim.content)  # "Inês is my fiancée now" is about me
    if owner is not None:
        return named_user(claim) if not owner else tuple(clean(w) for w in WORD.findall(owner))
    opener = opening_subject(claim)  # "I …", "User …", "User says Silje has a dog"
    if opener is not None:
        return opener
    if claim.user is not None and claim.people is not None and _PRONOUN_OPENER.match(claim.content):
        # "She rents a small flat in Vienna": in one person's namespace, a pronoun opener is them
        return named_user(claim)
    text = claim.content.casefold().replace("’", "'")
    voiced = bool(claim.places) and speaks_for_user(claim.content)
    best: tuple[int, tuple[str, ...]] | None = None
    owned = False  # "Elif has moved into Yusuf's old flat": Yusuf owns the flat, Elif moved
    for name, canonical in (*((n, n) for n in claim.names), *claim.aliases):
        if voiced and canonical in claim.places:
            continue  # "Handed the Osaka flat back. I'm renting …": the user's, not Osaka's
        if canonical in claim.places and modifies_a_noun(text, name):
            continue  # "New Nova Scotia number is …": a place naming a thing, not a subject
        if (
            claim.people is not None
            and canonical not in claim.people
            and text.find(name.casefold()) > 0
        ):
            continue  # "Night shifts at the University Hospital": a place of work, not a subject
        words = tuple(clean(w) for w in WORD.findall(name))
        found = re.search(r"\b" + re.escape(name.casefold()) + r"\b", text)
        if found is None and len(words) > 1 and len(words[0]) > 2:
            # "Elena" in the text, linked to the entity "Elena Petrova" by first name
            found = re.search(r"\b" + re.escape(words[0]) + r"\b", text)
        if not words or found is None:
            continue
        held = owner_governed(text, found.start(), found.end()) and bool(features(claim).opener)
        owned |= held
        if held or (claim.user and claim.people is not None and governed(text, found.start())):
            continue  # "quit the bakery. doing deliveries for Rappi now": an object, not a subject
        if best is None or found.start() < best[0]:
            best = (found.start(), tuple(clean(w) for w in WORD.findall(canonical)))
    if best is None and owned:
        return features(claim).opener
    voice = voice_at(claim.content) if claim.user is not None else None
    if best is not None:  # unless the user's voice comes first ("…, user moved to Roma Norte")
        return best[1] if voice is None or best[0] < voice else named_user(claim)
    user = named_user(claim)
    if not claim.subject and speaks_for_user(claim.content):
        # no known name, the user's voice: "Doctor's got me on warfarin for my heart"
        return user
    if claim.people is not None:
        # the namespace's entities are known and the text names none of them: a note
        # without its subject ("Strictly vegetarian, and no eggs either.") is the user's
        return user
    return features(claim).opener


_PRONOUN_OPENER = re.compile(r"^\s*(?:he|she|his|her|him)\b(?!['’]s\s+(?:sister|brother))", re.I)


def names_agree(a: Sequence[str], b: Sequence[str]) -> bool:
    """Do two names, as lower-cased words, name one subject (one's words within the
    other's, compared by stem: "lena" / "lena park")?"""
    return bool(a) and bool(b) and _same_name(tuple(a), tuple(b))


def same_subject(a: Claim, b: Claim) -> bool:
    """Are the two claims about one subject (:func:`subject_of`, compared by stem,
    one name's words within the other's)? False when either subject is unknown."""
    sa, sb = subject_of(a), subject_of(b)
    return sa is not None and sb is not None and _same_name(sa, sb)
