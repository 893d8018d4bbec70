"""The fallback extractor without the ``nlp`` extra: capitalised-word names (docs/spec.md §11).

:class:`CapitalizedNameExtractor` links the namespace's known names in raw text,
proposes capitalised multi-word names ("Pacific Northwest", "Bank of America")
as new entities, and relates two names where the text states a role between
them ("Nadia is Omar's sister" → ``Omar —SISTER_OF→ Nadia``, see
:mod:`graphmem.extract.roles`); nothing else becomes a relation.
"""

from __future__ import annotations

import re

from graphmem.entities import EntityDictionary, Extraction
from graphmem.extract.roles import role_relations
from graphmem.models import EntityMention
from graphmem.text import normalize

__all__ = ["CapitalizedNameExtractor"]

# A capitalised word, or a title abbreviation with its dot ("St. Mary's Hospital" is one name).
_CAP_WORD = r"(?:(?:St|Mt|Ft|Dr|Mr|Mrs|Ms|Jr|Sr)\.|[A-Z][\w'’-]*)"
_CAPITALISED_RUN = re.compile(rf"(?<![\w.])({_CAP_WORD}(?:\s+(?:of\s+|the\s+|de\s+)?{_CAP_WORD})+)")
# Words that start a sentence or a greeting but never a name ("So I'm", "Thanks Mel",
# "Last Friday", "Happy Birthday"): dropped from the front of a capitalised run.
_NOT_NAME_START = frozenset(
    [
        "so",
        "i",
        "i'm",
        "i've",
        "i'll",
        "i'd",
        "im",
        "ive",
        "thanks",
        "thank",
        "hey",
        "hi",
        "hello",
        "oh",
        "ok",
        "okay",
        "yes",
        "yeah",
        "yep",
        "no",
        "well",
        "wow",
        "and",
        "but",
        "or",
        "also",
        "anyway",
        "then",
        "now",
        "last",
        "next",
        "this",
        "that",
        "these",
        "those",
        "the",
        "a",
        "an",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "its",
        "we",
        "you",
        "he",
        "she",
        "they",
        "it",
        "me",
        "us",
        "them",
        "what",
        "when",
        "where",
        "who",
        "why",
        "how",
        "today",
        "tonight",
        "yesterday",
        "tomorrow",
        "happy",
        "congrats",
        "congratulations",
        "dear",
        "good",
        "great",
        "sure",
        "please",
        "sorry",
        "omg",
        "lol",
        "haha",
        "hmm",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "weekend",
        "morning",
        "evening",
        "night",
    ]
)
_SENTENCE_START = re.compile(r"(^|[.!?:]\s+)$")
_SPEAKER_PREFIX = re.compile(r"^\s*([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})\s*:\s+")
_MAX_WORDS = 5
_MAX_NAME = 200


class CapitalizedNameExtractor:
    """Fallback extractor (a :class:`~graphmem.entities.RelationExtractor`): known
    names and aliases, capitalised multi-word names proposed as new entities, and
    role statements as relations.

    Single capitalised words are not proposed (sentence starts would flood the
    graph); they are linked when already known, or when a role statement names
    them ("Nadia is Omar's sister": both are people).
    """

    name = "capitalized"

    def analyse(
        self, text: str, known: EntityDictionary, *, speaker: str | None = None
    ) -> Extraction:
        """Entity mentions (:meth:`extract`) and the role statements' relations of ``text``.

        Parameters
        ----------
        text : str
            Raw text; a ``"Name: "`` prefix names the speaker when ``speaker`` is
            not given.
        known : EntityDictionary
            The namespace's names.
        speaker : str, optional
            Who said ``text``: "my" and "I" in a role statement stand for this name.

        Returns
        -------
        Extraction
            Mentions (the related names as ``Person`` unless already known),
            relations ``owner —NOUN_OF→ person``; no dates (this extractor does
            not parse them).
        """
        prefix = _SPEAKER_PREFIX.match(text)
        if prefix is not None:
            speaker = speaker or prefix.group(1)
        mentions = {normalize(m.name): m for m in self.extract(text, known)}
        relations = role_relations(text[prefix.end() :] if prefix else text, speaker)
        for relation in relations:
            for name in (relation.source, relation.target):
                hit = known.resolve(name)
                entity = known.get(hit[0]) if hit is not None else None
                if entity is not None:
                    mentions.setdefault(normalize(entity.name), EntityMention(name=entity.name))
                    continue
                # a role relates people: "Dana Whitfield is my boss"
                mention = mentions.get(normalize(name))
                mentions[normalize(name)] = (
                    mention.model_copy(update={"kind": "Person"})
                    if mention is not None
                    else EntityMention(name=name, kind="Person")
                )
        return Extraction(tuple(mentions.values()), tuple(relations))

    def extract(self, text: str, known: EntityDictionary) -> list[EntityMention]:
        mentions: dict[str, EntityMention] = {}
        for link in known.link(text):
            entity = known.get(link.entity_id)
            name = entity.name if entity is not None else link.surface
            mentions[normalize(name)] = EntityMention(name=name)
        for match in _CAPITALISED_RUN.finditer(text):
            words = match.group(1).split()
            if _SENTENCE_START.search(text[: match.start()]) and len(words) > 2:
                words = words[1:]  # "Yesterday Mount Hood": drop the sentence's first word
            while words and normalize(words[0]).replace("’", "'") in _NOT_NAME_START:
                words = words[1:]  # "Thanks Mel", "So I'm": an interjection or pronoun
            while words and normalize(words[-1]) in _NOT_NAME_START:
                words = words[:-1]  # "Last Friday": a time word is not a name
            if len(words) > _MAX_WORDS or len(" ".join(words)) > _MAX_NAME:
                continue  # shouted text, not a name
            if any(known.resolve(w) is not None for w in words) or len(words) < 2:
                continue  # part of a known name, or a capitalised word before one
            name = " ".join(words)
            if normalize(name) not in mentions:
                mentions[normalize(name)] = EntityMention(name=name)
        return list(mentions.values())
