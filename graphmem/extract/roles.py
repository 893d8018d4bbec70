"""Role statements: "Nadia is Omar's sister" and its other forms.

A possessive relation noun between two names is a typed relation, written the
way the extractors, the demo and the graph retriever read it: **owner
—NOUN_OF→ person**, "the owner's NOUN is the person":

=====================================  ==================================
text                                   relation
=====================================  ==================================
Nadia is Omar's sister.                ``Omar —SISTER_OF→ Nadia``
Omar's sister is Nadia.                ``Omar —SISTER_OF→ Nadia``
Nadia, Omar's sister, works at …       ``Omar —SISTER_OF→ Nadia``
Omar's older sister Nadia …            ``Omar —SISTER_OF→ Nadia``
Dana is my boss. (said by Caroline)    ``Caroline —BOSS_OF→ Dana``
Lena is Hiro's mother-in-law.          ``Hiro —MOTHER_IN_LAW_OF→ Lena``
=====================================  ==================================

so "Omar's sister" in a question walks ``SISTER_OF`` forward from Omar
(:func:`graphmem.retrieval.planning.relations.relational_links`).

The spaCy extractor finds these forms in the dependency parse for any common
noun; :func:`role_relations` finds them with patterns for the nouns of
:data:`PERSON_ROLES` (the capitalised-word fallback, which cannot tell a noun
from another word).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from graphmem.models import RelationInput
from graphmem.text import normalize

__all__ = ["PERSON_ROLES", "is_person_role", "role_predicate", "role_relations"]

#: Nouns that name a person by their relation to another: family, partners,
#: friends and neighbours, work, study and care. General English, not one
#: data set's words; both spellings where British and American differ.
PERSON_ROLES: frozenset[str] = frozenset(
    [
        "mother",
        "father",
        "mom",
        "mum",
        "dad",
        "mommy",
        "mummy",
        "daddy",
        "mama",
        "papa",
        "parent",
        "stepmother",
        "stepfather",
        "stepmom",
        "stepdad",
        "sister",
        "brother",
        "sibling",
        "twin",
        "stepsister",
        "stepbrother",
        "half-sister",
        "half-brother",
        "son",
        "daughter",
        "child",
        "kid",
        "baby",
        "stepson",
        "stepdaughter",
        "grandmother",
        "grandfather",
        "grandma",
        "grandpa",
        "granny",
        "grandparent",
        "grandson",
        "granddaughter",
        "grandchild",
        "grandkid",
        "aunt",
        "auntie",
        "uncle",
        "niece",
        "nephew",
        "cousin",
        "godmother",
        "godfather",
        "godson",
        "goddaughter",
        "godchild",
        "mother-in-law",
        "father-in-law",
        "sister-in-law",
        "brother-in-law",
        "son-in-law",
        "daughter-in-law",
        "wife",
        "husband",
        "spouse",
        "partner",
        "fiance",
        "fiancee",
        "girlfriend",
        "boyfriend",
        "ex",
        "ex-wife",
        "ex-husband",
        "friend",
        "bestie",
        "buddy",
        "pal",
        "roommate",
        "flatmate",
        "housemate",
        "neighbor",
        "neighbour",
        "classmate",
        "schoolmate",
        "teammate",
        "bandmate",
        "boss",
        "manager",
        "supervisor",
        "colleague",
        "coworker",
        "co-worker",
        "workmate",
        "employee",
        "employer",
        "assistant",
        "intern",
        "mentor",
        "mentee",
        "apprentice",
        "cofounder",
        "co-founder",
        "founder",
        "client",
        "customer",
        "landlord",
        "landlady",
        "tenant",
        "teacher",
        "professor",
        "tutor",
        "student",
        "pupil",
        "coach",
        "trainer",
        "advisor",
        "adviser",
        "doctor",
        "physician",
        "therapist",
        "counselor",
        "counsellor",
        "dentist",
        "nurse",
        "lawyer",
        "accountant",
        "caregiver",
        "carer",
        "nanny",
        "babysitter",
    ]
)

_NAME_WORD = r"(?:(?:St|Mt|Dr|Mr|Mrs|Ms)\.|[A-Z][\w’'-]*)"
# one to four capitalised words ("Nadia", "Priya Raman", "Dr. Lena Vogel")
_NAME = rf"{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}}"
# the owner: a name with its possessive "'s", or "my" (the speaker)
_OWNER = rf"(?:(?P<owner>{_NAME})['’]s?|(?P<my>\b[Mm]y)|(?P<your>\b[Yy]our))"
# up to two modifiers before the noun ("older", "best", "new"), then the noun
_ROLE = r"(?:[a-z]+\s+){0,2}?(?P<role>[a-z][a-z-]*[a-z])"
_BE = r"(?:is|was|has\s+been|had\s+been|became|remains|will\s+be)"
# the noun ends its phrase: punctuation, the end, or a word that starts no noun phrase
_END = (
    r"(?=\s*(?:[.,;:!?)\]]|$)|\s+(?:and|but|or|who|whom|whose|which|that|from|in|at|of|for|"
    r"since|until|till|now|too|as|with|on|by|before|after|when|while|because|so|then|again|"
    r"already|still|though|although|here|there|yet|back|anymore|either|also)\b)"
)


# "Nadia is Omar's sister", "I am Omar's sister"
_NAMED_IS_ROLE = re.compile(
    rf"(?<![\w’'])(?:(?P<me>I)\s+(?:am|was|have\s+been)|(?P<person>{_NAME})\s+{_BE})\s+"
    rf"{_OWNER}\s+{_ROLE}{_END}"
)
# "Omar's sister is Nadia", "My boss Dana", "Omar's older sister, Nadia,"
_ROLE_IS_NAMED = re.compile(
    rf"(?<![\w’']){_OWNER}\s+{_ROLE}"
    rf"(?:\s+{_BE}\s+|,?\s+)(?P<person>{_NAME})"
)
# "Nadia, Omar's sister, ..."
_NAMED_COMMA_ROLE = re.compile(rf"(?<![\w’'])(?P<person>{_NAME}),\s+{_OWNER}\s+{_ROLE}\s*,")
_PREDICATE_CLEAN = re.compile(r"[^A-Z0-9]+")
# words that open a sentence or stand for someone but are never a name
_NOT_A_NAME = frozenset(
    [
        "i",
        "i'm",
        "he",
        "she",
        "it",
        "they",
        "we",
        "you",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "what",
        "who",
        "which",
        "my",
        "his",
        "her",
        "our",
        "their",
        "your",
        "its",
        "the",
        "a",
        "an",
        "and",
        "but",
        "so",
        "then",
        "if",
        "when",
        "while",
        "also",
        "maybe",
        "yes",
        "no",
        "oh",
        "hey",
        "hi",
        "thanks",
        "well",
        "now",
        "today",
        "yesterday",
        "tomorrow",
    ]
)


def role_predicate(noun: str) -> str:
    """The relation type of a role noun: ``"sister"`` → ``"SISTER_OF"``,
    ``"mother-in-law"`` → ``"MOTHER_IN_LAW_OF"``."""
    text = _PREDICATE_CLEAN.sub("_", noun.strip().upper()).strip("_")
    return f"{text}_OF" if text else "RELATED_TO"


def is_person_role(noun: str) -> bool:
    """Whether ``noun`` (any case, plural "s" allowed) names a person by a relation."""
    word = normalize(noun).replace("’", "'")
    return word in PERSON_ROLES or (word.endswith("s") and word[:-1] in PERSON_ROLES)


def _clean_name(name: str) -> str | None:
    words = name.split()
    while words and normalize(words[0]) in _NOT_A_NAME:
        words = words[1:]
    return " ".join(words) if words else None


def role_relations(
    text: str,
    speaker: str | None = None,
    *,
    addressee: str | None = None,
    types: Mapping[str, str] | None = None,
) -> list[RelationInput]:
    """Relations stated with a possessive role noun of :data:`PERSON_ROLES`.

    Parameters
    ----------
    text : str
        Raw text (one message or a few sentences).
    speaker : str, optional
        Who wrote ``text``: "my" and "I" stand for this name; without it,
        statements about "my" or "I" yield nothing.
    addressee : str, optional
        To whom: "your" stands for this name (else such statements yield nothing).
    types : mapping, optional
        Role noun → relation type (the ner extractor's vocabulary,
        :data:`graphmem.language.relation_words.ROLE_TYPES`): only these nouns count,
        typed so ("my cat Miso" → ``OWNS``). Default: every person role, typed
        ``NOUN_OF``.

    Returns
    -------
    list of RelationInput
        ``owner —TYPE→ person`` in text order, each once; source and target
        are names as written (pronoun-led spans and self-relations dropped).
    """
    out: dict[tuple[str, str, str], RelationInput] = {}
    for pattern in (_NAMED_IS_ROLE, _ROLE_IS_NAMED, _NAMED_COMMA_ROLE):
        for match in pattern.finditer(text):
            role = match.group("role")
            noun = role[:-1] if role not in PERSON_ROLES and role.endswith("s") else role
            if types is not None:
                predicate = types.get(role) or types.get(noun)
            else:
                predicate = role_predicate(noun) if is_person_role(role) else None
            if predicate is None:
                continue
            groups = match.groupdict()
            owner = _clean_name(groups["owner"]) if groups.get("owner") else None
            if groups.get("my"):
                owner = speaker
            elif groups.get("your"):
                owner = addressee
            person = _clean_name(groups["person"]) if groups.get("person") else None
            if groups.get("me"):
                person = speaker
            if person and person[-2:] in ("'s", "’s"):
                continue  # "Omar's brother is Lena's boss": a chain, not a name
            if not owner or not person or normalize(owner) == normalize(person):
                continue
            key = (normalize(owner), predicate, normalize(person))
            relation = RelationInput(source=owner, predicate=predicate, target=person, lemma=noun)
            out.setdefault(key, relation)
    return list(out.values())
