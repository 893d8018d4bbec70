"""Entity resolution and linking (docs/spec.md §2.12 write side, §3 query side).

One dictionary per namespace maps normalised surface forms (names, aliases,
and — for multi-word names — the first name) to entity ids. The write
pipeline resolves candidate mentions through it; the read pipeline links the
query's names, aliases, possessives ("Caroline's") and first names through
it. Names that resolve nowhere get the uuid5 fallback id (docs/spec.md §1).

The extractors that find mentions in raw text live in :mod:`graphmem.extract`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from graphmem.language.voice import FIRST_PERSON_WORDS, USER_ALIAS, nickname
from graphmem.models import Entity, EntityMention, RelationInput
from graphmem.settings import Settings, field_info
from graphmem.text import entity_id, normalize

_WORD = re.compile(r"[\w][\w'’.-]*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")
_MAX_NGRAM = 5
# kinds that take first-name aliases: people, and entities whose kind nobody gave
_UNTYPED = "Thing"
_PERSON_KINDS = frozenset({"Person", "PERSON", "person", "Thing"})
_STOP_FIRST_NAMES = frozenset({"the", "a", "an", "i", "my", "what", "when", "who", "how"})
# Initials that are words: a hyphenated first name ("Marie-Ève") is not "me"
_WORD_INITIALS = frozenset(
    {"me", "we", "us", "it", "is", "in", "on", "at", "an", "as", "be", "by", "do", "go", "he",
     "if", "my", "no", "of", "or", "so", "to", "up", "am", "hi", "ok", "ma", "pa"}
)


def initials(name: str) -> str | None:
    """The initials a hyphenated first name is called by ("Jean-François Tremblay" →
    "jf"), lower-cased; ``None`` when the first name has no hyphen or they spell a word."""
    parts = [p for p in normalize(name).split(" ")[0].split("-") if p]
    short = "".join(p[0] for p in parts)
    return short if len(parts) > 1 and short.isalpha() and short not in _WORD_INITIALS else None


@dataclass(frozen=True, slots=True)
class EntityLink:
    """A query span linked to an entity, with the link's confidence in [0, 1].

    ``via`` names the relation when the entity was linked through one ("Maya's
    sister" → Priya Raman via ``SISTER_OF``) and ``owner`` the entity
    it was reached from (Maya); both None for a name linked directly.
    """

    entity_id: str
    surface: str
    confidence: float
    via: str | None = None
    owner: str | None = None
    via_forward: bool = True  # the relation points from owner to entity
    via_memory: str | None = None  # the memory that asserted the relation
    is_user: bool = False  # the namespace's user (docs/spec.md §9.14): "I", "my", or their name


@dataclass(frozen=True)
class LinkConfidences:
    """Link confidence by how a surface matched, each in [0, 1] with ``first_name <=
    alias <= exact`` (settings ``read.planning.link_*``, docs/configuration.md; the
    entity-centric plan needs more than ``entity_plan_confidence``)."""

    exact: float
    alias: float
    first_name: float

    @classmethod
    def from_settings(cls, settings: Settings) -> LinkConfidences:
        """The link confidences ``settings`` give."""
        planning = settings.read.planning
        return cls(planning.link_exact, planning.link_alias, planning.link_first_name)


#: The link confidences of the default settings.
DEFAULT_LINKS = LinkConfidences(
    *(field_info(name).default for name in ("link_exact", "link_alias", "link_first_name"))
)


class EntityDictionary:
    """Surface form → entity id for one namespace.

    Parameters
    ----------
    entities : iterable of Entity
        The namespace's entities (``MemoryStore.list_entities``).
    links : LinkConfidences
        What a name, an alias and a first name link at (default: the default settings').
    """

    def __init__(
        self, entities: Iterable[Entity] = (), links: LinkConfidences = DEFAULT_LINKS
    ) -> None:
        self.links = links
        self._forms: dict[str, tuple[str, float]] = {}
        self._entities: dict[str, Entity] = {}
        # First words of the multi-word forms, and the most words in a form: link()
        # tries longer n-grams only where one can start (most words start none).
        self._first_words: set[str] = set()
        self._max_words = 1
        self._people: list[str] | None = None  # people(), sorted once per change
        # each word of a person's name → the ids of the people whose name has it
        self._name_words: dict[str, set[str]] = {}
        for entity in entities:
            self.add(entity)

    def add(self, entity: Entity) -> None:
        """Register ``entity``'s name, aliases and first name (weaker than exact)."""
        self._entities[entity.id] = entity
        self._people = None
        self._put(entity.name, entity.id, self.links.exact)
        for alias in entity.aliases:
            self._put(alias, entity.id, self.links.alias)
        words = normalize(entity.name).split()
        # first-name aliasing only for people (or kind unknown): "Priya" is Priya Raman,
        # "Lumen" is not Lumen Labs
        if entity.kind in _PERSON_KINDS and len(words) > 1 and words[0] not in _STOP_FIRST_NAMES:
            self._put(words[0], entity.id, self.links.first_name)
        if entity.kind in _PERSON_KINDS and (short := initials(entity.name)) is not None:
            self._put(short, entity.id, self.links.first_name)  # "JF" is Jean-François
        if entity.kind in _PERSON_KINDS:
            for word in words:
                self._name_words.setdefault(word, set()).add(entity.id)

    def _put(self, surface: str, ident: str, confidence: float) -> None:
        key = normalize(surface)
        if not key:
            return
        current = self._forms.get(key)
        if current is None or confidence > current[1]:
            self._forms[key] = (ident, confidence)
        words = key.split(" ")
        if len(words) > 1:
            self._first_words.add(words[0])
            self._max_words = max(self._max_words, len(words))

    def __len__(self) -> int:
        return len(self._entities)

    def people(self) -> list[str]:
        """Names of the entities of kind Person, sorted (a copy: recall asks once per
        question, so the sorted list is kept until :meth:`add` changes the dictionary)."""
        if self._people is None:
            self._people = sorted(
                e.name for e in self._entities.values() if e.kind.lower() == "person"
            )
        return list(self._people)

    def people_with(self, word: str) -> list[Entity]:
        """The people (kind Person, or unknown) whose name has the normalised ``word``
        anywhere (a list, empty when none): where a shorter form of a name is looked up
        (docs/updates.md "Shorter forms of a name")."""
        ids = self._name_words.get(word, ())
        return [
            e for i in ids if (e := self._entities.get(i)) is not None and e.kind in _PERSON_KINDS
        ]

    def get(self, ident: str) -> Entity | None:
        """The entity with this id, if known."""
        return self._entities.get(ident)

    def user(self) -> Entity | None:
        """The namespace's user (docs/spec.md §9.14): the entity named or aliased ``"User"``
        (:data:`graphmem.language.voice.USER_ALIAS`), if there is one."""
        hit = self._forms.get(normalize(USER_ALIAS))
        return None if hit is None else self._entities.get(hit[0])

    def resolve(self, surface: str) -> tuple[str, float] | None:
        """(entity id, link confidence) for an exact normalised surface form."""
        key = normalize(surface)
        hit = self._forms.get(key)
        if hit is None:
            stripped = _POSSESSIVE.sub("", key)
            if stripped != key:
                hit = self._forms.get(stripped)
        return hit

    def link(self, text: str) -> list[EntityLink]:
        """Link every known name in ``text`` (longest match first, no overlaps); when
        the namespace has a user (:meth:`user`), "I", "me", "my" link to it.

        Returns links in text order, one per entity (its best confidence).
        """
        words = _WORD.findall(text)
        found: dict[str, EntityLink] = {}
        user = self.user()
        i = 0
        while i < len(words):
            if user is not None and normalize(words[i]) in FIRST_PERSON_WORDS:
                if user.id not in found:  # "Where do I live?", "my dog": the user
                    found[user.id] = EntityLink(user.id, words[i], self.links.alias, is_user=True)
                i += 1
                continue
            matched = 0
            longest = min(_MAX_NGRAM, self._max_words, len(words) - i)
            first = normalize(words[i])
            if " " not in first and first not in self._first_words:
                longest = 1  # no multi-word form starts with this word
            for size in range(longest, 0, -1):
                surface = " ".join(words[i : i + size])
                hit = self.resolve(surface.rstrip(".,"))
                if hit is not None:
                    ident, confidence = hit
                    best = found.get(ident)
                    if best is None or confidence > best.confidence:
                        # "Maya's" links as "Maya": the possessive is not part of the name
                        found[ident] = EntityLink(
                            ident,
                            _strip_possessive(surface),
                            confidence,
                            is_user=user is not None and ident == user.id,
                        )
                    matched = size
                    break
            i += matched or 1
        return list(found.values())


def _strip_possessive(surface: str) -> str:
    stripped = _POSSESSIVE.sub("", surface.rstrip(".,"))
    return stripped or surface


@runtime_checkable
class EntityExtractor(Protocol):
    """Finds entity mentions in raw text, given the namespace's dictionary."""

    def extract(self, text: str, known: EntityDictionary) -> list[EntityMention]:
        """Mentions found in ``text`` (role ``mention``)."""


@dataclass(frozen=True, slots=True)
class Extraction:
    """What one text yields: entity mentions, relations between their names
    (source and target are mention names), date expressions (surface text), and
    the pairs of names the text relates, typed or not (``links``: a clause's
    subject and objects, "went climbing with Sofia"; ``None`` when the extractor
    cannot tell, and every pair of its names co-occurs; docs/extraction.md
    "Co-occurrence")."""

    entities: tuple[EntityMention, ...] = ()
    relations: tuple[RelationInput, ...] = ()
    dates: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] | None = None


@runtime_checkable
class RelationExtractor(Protocol):
    """An :class:`EntityExtractor` that also finds relations (docs/spec.md §11)."""

    def extract(self, text: str, known: EntityDictionary) -> list[EntityMention]:
        """Mentions found in ``text`` (role ``mention``)."""

    def analyse(
        self, text: str, known: EntityDictionary, *, speaker: str | None = None
    ) -> Extraction:
        """Entities, relations ("I / me / my" resolved to ``speaker``) and dates of ``text``."""


def with_nickname(mentions: Sequence[EntityMention], text: str) -> list[EntityMention]:
    """The mentions of a claim that gives its subject another name ("Everyone calls
    him Moncho", :func:`graphmem.language.voice.nickname`): the name becomes an alias
    of the subject (its first other mention, a person's when there is one), not an
    entity of its own, so "Moncho works at Los Altos" is about Ramón."""
    other = nickname(text)
    if other is None:
        return list(mentions)
    key = normalize(other)
    rest = [m for m in mentions if normalize(m.name) != key]
    people = [m for m in rest if m.kind == "Person"] or rest
    if not people:
        return list(mentions)
    subject = people[0]
    named = subject.model_copy(update={"aliases": tuple(dict.fromkeys((*subject.aliases, other)))})
    return [named if m is subject else m for m in rest]


def resolve_mentions(
    namespace: str,
    mentions: Sequence[EntityMention],
    known: EntityDictionary,
) -> tuple[list[tuple[str, EntityMention]], list[Entity]]:
    """Resolve mentions to entity ids (docs/spec.md §2.12).

    Returns ``([(entity_id, mention)], new_or_updated_entities)``. An exact
    normalised name or alias resolves to the existing entity (new aliases are
    added to it); otherwise a new entity gets ``uuid5(NAMESPACE_DNS,
    normalize(name))``. ``known`` is updated in place.
    """
    resolved: list[tuple[str, EntityMention]] = []
    changed: dict[str, Entity] = {}
    for mention in mentions:
        hit = known.resolve(mention.name)
        if hit is None:
            for alias in mention.aliases:
                hit = known.resolve(alias)
                if hit is not None:
                    break
        as_alias = known.links.alias
        if hit is None:
            shorter = _short_form_of_person(mention, known)
            hit = None if shorter is None else (shorter, as_alias)
        if hit is not None and hit[1] < as_alias and _first_name_of_person(mention, hit, known):
            hit = (hit[0], as_alias)  # "Alice's sister" of Alice Moreno: the same person
        if hit is not None and hit[1] >= as_alias:
            ident = hit[0]
            entity = known.get(ident)
            if entity is not None:
                update: dict[str, object] = {}
                new_aliases = _new_aliases(entity, mention)
                if new_aliases:
                    update["aliases"] = entity.aliases + tuple(new_aliases)
                if entity.kind == _UNTYPED and mention.kind != _UNTYPED:
                    update["kind"] = mention.kind  # a kind given later types it ("Organization")
                if update:
                    entity = entity.model_copy(update=update)
                    known.add(entity)
                    changed[ident] = entity
        else:
            ident = entity_id(mention.name)
            entity = Entity(
                id=ident,
                namespace=namespace,
                name=mention.name,
                kind=mention.kind,
                aliases=tuple(dict.fromkeys(mention.aliases)),
            )
            if known.get(ident) is None:
                known.add(entity)
                changed[ident] = entity
        resolved.append((ident, mention))
    return resolved, list(changed.values())


def _first_name_of_person(
    mention: EntityMention, hit: tuple[str, float], known: EntityDictionary
) -> bool:
    """A one-word mention that is a known person's first name ("Alice" for Alice Moreno,
    linked at its first-name confidence) is that person, not a new entity."""
    entity = known.get(hit[0])
    return (
        hit[1] >= known.links.first_name
        and len(mention.name.split()) == 1
        and mention.kind in _PERSON_KINDS
        and entity is not None
        and entity.kind in _PERSON_KINDS
    )


def user_by_later_name(known: EntityDictionary, word: str) -> Entity | None:
    """The namespace's user when ``word`` (one word, any case) is a later word of their
    name and of nobody else's: the given name of a name whose family name comes first
    ("Hương" for the user Mai Thị Hương, "Khoa" for Phạm Minh Khoa; not "Phạm" when
    Phạm Văn Lộc is known too); else None. docs/updates.md ("Shorter forms of a name")."""
    key = normalize(word)
    user = known.user()
    if user is None or not key or " " in key:
        return None
    holders = [e for e in known.people_with(key) if key in normalize(e.name).split()[1:]]
    return user if [e.id for e in holders] == [user.id] else None


def _short_form_of_person(mention: EntityMention, known: EntityDictionary) -> str | None:
    """The one known person whose full name a person mention shortens: a multi-word
    mention with the same first name and only words of that name ("Lucía Mamani" for
    Lucía Mamani Quispe, "Ana Souza" for Ana Paula Souza), or one later word of the
    namespace's user's name alone; else None."""
    words = normalize(mention.name).split()
    if not words or mention.kind not in _PERSON_KINDS:
        return None
    if len(words) == 1:
        user = user_by_later_name(known, words[0])
        return None if user is None else user.id
    people = known.people_with(words[0])
    found: list[str] = []
    for entity in people:
        full = normalize(entity.name).split()
        if len(full) > len(words) and full[0] == words[0] and set(words) <= set(full):
            found.append(entity.id)
    return found[0] if len(found) == 1 else None


def _new_aliases(entity: Entity, mention: EntityMention) -> list[str]:
    have = {normalize(entity.name), *(normalize(a) for a in entity.aliases)}
    out: list[str] = []
    for surface in (mention.name, *mention.aliases):
        if normalize(surface) not in have:
            have.add(normalize(surface))
            out.append(surface)
    return out
