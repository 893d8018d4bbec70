"""Entities and relations of a write (SPEC §2 steps 10–11, §11): the mentions a
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
_MAX_CO_OCCURRING = 6


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
                None,
            )
            extraction = self._extractor.analyse(candidate.content, known, speaker=speaker)
            extracted = list(extraction.entities)
            state.extracted[id(candidate)] = extraction.relations
        else:
            extracted = self._extractor.extract(candidate.content, known)
        have = {m.name.casefold() for m in named}
        named.extend(m for m in extracted if m.name.casefold() not in have)
        for rel in (*candidate.relations, *state.extracted.get(id(candidate), ())):
            for name in (rel.source, rel.target):
                if name.casefold() not in have:
                    have.add(name.casefold())
                    named.append(EntityMention(name=name))
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
        """Explicit relations, else co-occurrence edges between the memory's
        entities with the memory's confidence (issue 2, step 6). A superseded memory's
        relations are written already ended (SPEC §9.9)."""
        when = candidate.event_time or memory.last_observed_at
        pairs: list[tuple[str, str, str]] = []
        # Caller-given relations win; else those the extractor parsed from the text
        # (strong inference, SPEC §11: their confidence is capped by that level's).
        given = candidate.relations or state.extracted.get(id(candidate), ())
        cap = 1.0 if candidate.relations else inferred_relation_cap(self._settings, memory)
        for rel in given:
            source, target = known.resolve(rel.source), known.resolve(rel.target)
            if source is not None and target is not None:
                pairs.append((source[0], rel.predicate.upper().replace(" ", "_"), target[0]))
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
        if not given and not pairs:
            entity_ids = list(dict.fromkeys(m.entity_id for m in mentions))[:_MAX_CO_OCCURRING]
            pairs.extend((a, CO_OCCURS, b) for a, b in itertools.combinations(entity_ids, 2))
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
            )


_PREDICATE = re.compile(r"^[A-Z_][A-Z0-9_]*$")


def _first_person_subject(
    candidate: MemoryCandidate, known: EntityDictionary
) -> EntityMention | None:
    """The namespace's user as the subject of a claim in the first person or in Mem0's
    "User …" style (SPEC §9.14): the named user, else the implicit one ("User").
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
