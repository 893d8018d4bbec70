"""Entities and relations of a write (docs/spec.md §2 steps 10–11, §11): the mentions a
candidate resolves to, and the relations its memory asserts."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from graphmem.entities import (
    EntityDictionary,
    EntityExtractor,
    RelationExtractor,
    resolve_mentions,
    with_nickname,
)
from graphmem.language.voice import (
    IMPLICIT_USER,
    is_first_person,
    is_transcript,
    possessive_other,
)
from graphmem.models import EntityMention, Memory, MemoryCandidate, Mention, Relation
from graphmem.settings import Settings
from graphmem.text import relation_id
from graphmem.write.batch import BatchState
from graphmem.write.scores import inferred_relation_cap

CO_OCCURS = "CO_OCCURS_WITH"


class Relater:
    """Resolves a candidate's entities (given, extracted, named by its relations) and
    builds the relations its memory asserts.

    Parameters
    ----------
    settings : Settings
        For the confidence cap of extracted relations.
    extractor : EntityExtractor
        Finds entities (and, a :class:`RelationExtractor`, relations) in the text.
    """

    def __init__(self, settings: Settings, extractor: EntityExtractor) -> None:
        self._settings = settings
        self._extractor = extractor

    def prepare(self, candidates: Sequence[MemoryCandidate]) -> None:
        """Let the extractor parse a write batch's texts at once when it can (the ner
        extractor's ``prepare``: spaCy's batched ``pipe``), before :meth:`resolve` is
        called for each; the results are the same."""
        prepare = getattr(self._extractor, "prepare", None)
        if callable(prepare):
            prepare([c.content for c in candidates])

    def resolve(
        self,
        namespace: str,
        candidate: MemoryCandidate,
        known: EntityDictionary,
        state: BatchState,
    ) -> list[Mention]:
        named = list(candidate.entities)
        user = _first_person_subject(candidate, known)
        if user is not None and user.name.casefold() not in {m.name.casefold() for m in named}:
            named.insert(0, user)
        if isinstance(self._extractor, RelationExtractor):
            speaker = next(
                (m.name for m in candidate.entities if m.role == "subject" and m.kind == "Person"),
                user.name if user is not None else None,  # "I" of a first-person note
            )
            extraction = self._extractor.analyse(candidate.content, known, speaker=speaker)
            extracted = list(extraction.entities)
            state.extracted[id(candidate)] = extraction.relations
            if extraction.links is not None:
                state.linked[id(candidate)] = extraction.links
        else:
            extracted = self._extractor.extract(candidate.content, known)
        have = {m.name.casefold() for m in named}
        named.extend(m for m in extracted if m.name.casefold() not in have)
        for rel in (*candidate.relations, *state.extracted.get(id(candidate), ())):
            for name in (rel.source, rel.target):
                if name.casefold() not in have:
                    have.add(name.casefold())
                    named.append(EntityMention(name=name))
        named = with_nickname(named, candidate.content)  # "Everyone calls him Moncho"
        owner = _implied_user(candidate, named, known)
        if owner is not None:
            named.insert(0, owner)
        resolved, changed = resolve_mentions(namespace, named, known)
        for entity in changed:
            state.entities[entity.id] = entity
        return list(dict.fromkeys(Mention(entity_id=ident, role=m.role) for ident, m in resolved))

    def relate(
        self,
        namespace: str,
        memory: Memory,
        candidate: MemoryCandidate,
        mentions: list[Mention],
        known: EntityDictionary,
        state: BatchState,
    ) -> None:
        """Explicit relations, and co-occurrence edges between the names the text
        relates with no typed relation (docs/extraction.md "Co-occurrence"), with the
        memory's confidence. A superseded memory's relations are written already
        ended (docs/spec.md §9.9)."""
        when = candidate.event_time or memory.last_observed_at
        pairs: list[tuple[str, str, str]] = []
        lemmas: dict[tuple[str, str, str], str] = {}  # the wording each type was read from
        # Caller-given relations win; else those the extractor parsed from the text
        # (strong inference, docs/spec.md §11: their confidence is capped by that level's).
        given = candidate.relations or state.extracted.get(id(candidate), ())
        cap = 1.0 if candidate.relations else inferred_relation_cap(self._settings, memory)
        for rel in given:
            source, target = known.resolve(rel.source), known.resolve(rel.target)
            if source is not None and target is not None:
                pairs.append((source[0], rel.predicate.upper().replace(" ", "_"), target[0]))
                if rel.lemma:
                    lemmas[pairs[-1]] = rel.lemma
        if not candidate.relations:
            # a caller-given triple whose subject and object are both entities is a
            # relation ("Arlo" sister_of "Dana"): a question can walk it ("Dana's sister");
            # it stands beside what the extractor parsed ("works with" → WORK_WITH); an
            # extracted relation of the same type between the same two entities the other
            # way round ("Dana —SISTER_OF→ Arlo", the extractors' owner → holder) gives
            # way to the caller's direction
            triple = _triple_relation(candidate, known)
            reversed_ = {(b, p, a) for a, p, b in triple}
            pairs = [pair for pair in pairs if pair not in reversed_] + triple
        most = self._settings.write.max_co_occurring
        pairs.extend(
            _co_occurring(candidate, mentions, known, state, most, related=bool(given or pairs))
        )
        typed = {frozenset((a, b)) for a, p, b in pairs if p != CO_OCCURS}
        pairs = [x for x in pairs if x[1] != CO_OCCURS or frozenset((x[0], x[2])) not in typed]
        for src, predicate, dst in pairs:
            if src == dst:
                continue
            ident = relation_id(namespace, src, predicate, dst)
            previous = state.relations.get(ident)
            conf = max(min(memory.confidence, cap), previous.confidence if previous else 0.0)
            state.relations[ident] = Relation(
                id=ident,
                namespace=namespace,
                source_id=src,
                target_id=dst,
                predicate=predicate,
                confidence=conf,
                memory_id=memory.id,
                valid_from=when,
                valid_until=memory.valid_until if memory.superseded_by else None,
                lemma=lemmas.get((src, predicate, dst)) or (previous.lemma if previous else None),
            )


_PREDICATE = re.compile(r"^[A-Z_][A-Z0-9_]*$")


def _co_occurring(
    candidate: MemoryCandidate,
    mentions: list[Mention],
    known: EntityDictionary,
    state: BatchState,
    most: int,
    *,
    related: bool,
) -> list[tuple[str, str, str]]:
    """``[(entity id, CO_OCCURS_WITH, entity id)]`` of a memory (docs/extraction.md
    "Co-occurrence"): the pairs the extractor says its text relates ("went climbing
    with Sofia"; not a name merely mentioned beside the speaker, "How is your brother
    Ravi?", nor a negated clause), and, when nothing typed relates them, the entities
    the caller named together. An extractor that cannot tell which names its text
    relates (``Extraction.links`` None) links all the memory's entities when no
    relation is typed. At most ``most`` entities' pairs (``settings.write.max_co_occurring``)."""
    links = state.linked.get(id(candidate))
    if links is None:
        if related:
            return []
        ids = list(dict.fromkeys(m.entity_id for m in mentions))[:most]
        return [(a, CO_OCCURS, b) for a, b in itertools.combinations(ids, 2)]
    out: list[tuple[str, str]] = []
    if not related:
        given = [hit[0] for m in candidate.entities if (hit := known.resolve(m.name))]
        out.extend(itertools.combinations(list(dict.fromkeys(given)), 2))
    for first, second in links:
        a, b = known.resolve(first), known.resolve(second)
        if a is not None and b is not None:
            out.append((a[0], b[0]))
    limit = most * (most - 1) // 2
    return [(a, CO_OCCURS, b) for a, b in dict.fromkeys(out) if a != b][:limit]


def _first_person_subject(
    candidate: MemoryCandidate, known: EntityDictionary
) -> EntityMention | None:
    """The namespace's user as the subject of a claim in the first person or in Mem0's
    "User …" style (docs/spec.md §9.14): the named user, else the implicit one ("User").
    Transcript turns ("Caroline: I …") are about their speaker, not the user."""
    if is_transcript(candidate.extractor, candidate.content) or not is_first_person(
        candidate.content
    ):
        return None
    user = known.user()
    role = "mention" if possessive_other(candidate.content) else "subject"  # "my sister Marit"
    if user is None:
        return EntityMention(name=IMPLICIT_USER, kind="Person", role=role)
    return EntityMention(name=user.name, kind=user.kind, role=role)


_OPENS_WITH_PRONOUN = re.compile(r"^\W*(?:He|She)\b")


def _implied_user(
    candidate: MemoryCandidate, named: Sequence[EntityMention], known: EntityDictionary
) -> EntityMention | None:
    """The namespace's named user as the subject of a note that names no person ("Strictly
    vegetarian, and no eggs either.", "Shifted to Taupō for the new role."): in a
    namespace about one person, a claim about nobody else is theirs (docs/spec.md §9.14);
    so is one that opens with "He" or "She" whoever else it names ("He holds a Wisła
    Kraków season ticket": the pronoun has nobody before it to stand for). Transcript
    turns and claims with a triple's subject are left as they are."""
    user = known.user()
    if user is None or candidate.subject or is_transcript(candidate.extractor, candidate.content):
        return None
    if any(m.name.casefold() == user.name.casefold() for m in named):
        return None
    if _OPENS_WITH_PRONOUN.match(candidate.content) is None and any(
        m.kind == "Person" for m in named
    ):
        return None
    return EntityMention(name=user.name, kind=user.kind, role="subject")


def _triple_relation(
    candidate: MemoryCandidate, known: EntityDictionary
) -> list[tuple[str, str, str]]:
    """``[(subject entity id, PREDICATE, object entity id)]`` when the candidate's
    triple names a known entity at both ends and its predicate is a relation type
    (letters, digits, ``_``, ``-`` or spaces), else ``[]``."""
    if not (candidate.subject and candidate.predicate and candidate.object):
        return []
    predicate = re.sub(r"[\s-]+", "_", candidate.predicate.strip()).upper()
    if not _PREDICATE.match(predicate):
        return []
    source, target = known.resolve(candidate.subject), known.resolve(candidate.object)
    if source is None or target is None or source[0] == target[0]:
        return []
    return [(source[0], predicate, target[0])]
