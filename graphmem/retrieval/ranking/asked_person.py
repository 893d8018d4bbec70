"""Whom a question asks about, and that person's memories before those about someone close
to them (docs/updates.md "At recall").

:func:`question_subject` reads the person a question asks about ("I", "my" → the
namespace's user); :func:`owner_first` moves memories about someone close to that person
("Henrik's brother Lars has a boat too") below the person's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.entities import EntityDictionary, user_by_later_name
from graphmem.language.claim_reading import reported_person, reports
from graphmem.language.claims import claim_of, names_agree
from graphmem.language.voice import is_transcript, kin_subject, names_someone_close
from graphmem.models import Entity, Memory

__all__ = ["about_someone_else", "owner_first", "question_subject"]


def question_subject(question: str, known: EntityDictionary | None) -> tuple[str, ...] | None:
    """Whom the question asks about, as lower-cased name words: the first entity it
    links ("I", "my" → the namespace's user), passing over one that is not a person
    right after a preposition of place ("Which part of Chennai does Deepak live in?"
    asks about Deepak, "Flying to Málaga: which pills must I pack?" about the user)
    unless it links nothing else; when it links nothing but such places, the user by a
    later word of their name ("Khoa is flying to Singapore"), then the place; when it links
    nothing, that word or "we", "our"; ``None`` when it names nobody or asks
    about someone close to them (docs/updates.md "The namespace's user")."""
    entity = _first_linked(question, known)
    return None if entity is None else tuple(entity.name.casefold().split())


def _first_linked(question: str, known: EntityDictionary | None) -> Entity | None:
    """The entity :func:`question_subject` names, unless it asks about someone close to
    a person ("Where does my sister work?")."""
    if known is None or names_someone_close(question):
        return None
    linked = [
        (e, link.surface)
        for link in known.link(question)
        if (e := known.get(link.entity_id)) is not None
    ]
    # a destination or a setting ("Flying to Málaga", "Which part of Chennai") is not whom
    # the question is about when it names someone else; a name after "with" may be
    chosen = next(
        (e for e, surface in linked if _is_person(e) or not _placed(question, surface)), None
    )
    if chosen is not None:
        return chosen
    # "Which city does Khoa live in now?" when the user is Phạm Minh Khoa; so "Khoa is
    # flying to Singapore …", where Singapore is the only name linked
    for word in _CAPITALISED.findall(question):
        if (user := user_by_later_name(known, word)) is not None:
            return user
    if linked:
        return linked[0][0]
    if _WE.search(question):  # "Where do we live now?": the user's home, with those close
        return known.user()
    return None


def _placed(question: str, surface: str) -> bool:
    """Does ``surface`` follow a preposition of place in ``question`` ("to Málaga", "in
    Kyoto", "of Chennai")?"""
    return re.search(_PLACE_PREPOSITION + re.escape(surface) + r"\b", question) is not None


_PLACE_PREPOSITION = r"(?i:\b(?:to|in|into|of|at|from|near|around|through|across)\s+(?:the\s+)?)"
_CAPITALISED = re.compile(r"\b[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]+")
_WE = re.compile(r"\b(?:(?i:we|our|ours|we're|we’re|we've|we’ve)|[Uu]s)\b")  # not "the US"


def _is_person(entity: Entity) -> bool:
    return entity.kind.casefold() == "person"


def owner_first(
    order: Sequence[Memory], question: str, known: EntityDictionary | None
) -> tuple[list[Memory], list[str]]:
    """The asked person's memories before those about someone close to them.

    "What's Henrik's boat called?" asks about Henrik; "Henrik's brother Lars has a boat
    too" is about Lars (:func:`graphmem.language.voice.kin_subject`) and goes below
    every memory of the window that is not about someone else. Nothing leaves the
    window (the order inside it changes; what a recall returns does not). Off when
    the question itself asks about someone close ("Where does Maya's sister work?")
    or names nobody (:func:`question_subject`: "we" names the user).

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
        (others if about_someone_else(memory, subject, known) else own).append(memory)
    if not others or not own:
        return list(order), []
    return own + others, [m.id for m in others]


def about_someone_else(
    memory: Memory, subject: tuple[str, ...], known: EntityDictionary | None
) -> bool:
    """Is ``memory`` about someone other than ``subject`` (lower-cased name words, as
    :func:`question_subject` gives them): someone close to them by its text, or its
    triple's subject? Transcript records are about nobody in particular."""
    if is_transcript(memory.extractor, memory.content):
        return False
    kin = _someone(memory, known)
    return kin is not None and not names_agree(tuple(kin.casefold().split()), subject)


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


_ASKS_WHO = re.compile(r"^\W*(?:who|whom|whose)\b", re.IGNORECASE)


def _asked_person(question: str, known: EntityDictionary | None) -> tuple[str, ...] | None:
    """The person a question asks about: the entity :func:`question_subject` names when
    that is a person, and the question does not ask *who* ("Who lives in the condo now?"
    may well be someone close)."""
    entity = None if _ASKS_WHO.match(question) else _first_linked(question, known)
    if entity is None or not _is_person(entity):
        return None
    return tuple(entity.name.casefold().split())
