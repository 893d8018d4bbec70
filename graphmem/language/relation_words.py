"""The relation vocabulary of the offline extractor and the words that are no
entity (docs/extraction.md "Vocabulary"; docs/spec.md §11 "Offline default").

Relations are typed from a small vocabulary, never invented from a verb:

- **verb + preposition** (:data:`VERB_TYPES`): "works at" → ``WORKS_AT``,
  "moved to" → ``MOVED_TO``; a verb + preposition the table lacks gives no
  relation;
- **role nouns** (:data:`ROLE_TYPES`): "my sister Elena" → ``SISTER_OF``,
  "Dana is my manager" → ``MANAGER_OF``, "my cat Miso" → ``OWNS``. Role
  relations are stored **owner → holder** (``Priya —SISTER_OF→ Elena``: Priya's
  sister is Elena), the direction the graph retriever walks "Priya's sister";
  :func:`reading` gives the English reading (Elena is Priya's sister). Person
  roles outside the vocabulary keep their noun (``COUSIN_OF``).
"""

from __future__ import annotations

from graphmem.language.vocabulary import MONTHS

__all__ = [
    "DATE_NAMES",
    "GREETINGS",
    "NOT_ENTITIES",
    "OWNER_FIRST",
    "ROLE_TYPES",
    "SYMMETRIC",
    "TARGET_KINDS",
    "VERB_TYPES",
    "VOCABULARY",
    "org_word",
    "reading",
    "verb_type",
]

#: The relation types the offline extractor writes (besides person roles outside it).
VOCABULARY: tuple[str, ...] = (
    "WORKS_AT", "LIVES_IN", "MOVED_TO", "BORN_IN", "STUDIES_AT", "MEMBER_OF",
    "PARTNER_OF", "MARRIED_TO", "SIBLING_OF", "SISTER_OF", "BROTHER_OF", "PARENT_OF",
    "CHILD_OF", "FRIEND_OF", "MANAGER_OF", "OWNS", "VISITED", "PLANS_TO_VISIT",
)  # fmt: skip
#: Types whose two ends can be read either way.
SYMMETRIC = frozenset({"SIBLING_OF", "FRIEND_OF", "PARTNER_OF", "MARRIED_TO"})
#: Role types stored owner → holder ("Priya's sister is Elena": Priya —SISTER_OF→ Elena).
OWNER_FIRST = frozenset(
    {"SISTER_OF", "BROTHER_OF", "SIBLING_OF", "PARENT_OF", "CHILD_OF", "FRIEND_OF",
     "MANAGER_OF", "PARTNER_OF", "MARRIED_TO"}
)  # fmt: skip

_ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "SISTER_OF": ("sister", "stepsister", "half-sister", "sis"),
    "BROTHER_OF": ("brother", "stepbrother", "half-brother", "bro"),
    "SIBLING_OF": ("sibling", "twin"),
    "PARENT_OF": ("mother", "father", "mom", "mum", "dad", "mommy", "mummy", "daddy",
                  "mama", "papa", "parent", "stepmother", "stepfather", "stepmom", "stepdad"),
    "CHILD_OF": ("son", "daughter", "child", "kid", "stepson", "stepdaughter"),
    "MARRIED_TO": ("wife", "husband", "spouse"),
    "PARTNER_OF": ("partner", "fiance", "fiancee", "fiancé", "fiancée", "girlfriend",
                   "boyfriend"),
    "FRIEND_OF": ("friend", "bestie", "buddy", "pal"),
    "MANAGER_OF": ("boss", "manager", "supervisor"),
    "OWNS": ("cat", "dog", "puppy", "kitten", "pet", "hamster", "parrot", "rabbit", "bunny",
             "horse", "pony", "turtle", "tortoise", "goldfish", "guinea", "ferret", "lizard",
             "snake", "budgie", "canary", "gecko"),
}  # fmt: skip
#: Role noun → relation type.
ROLE_TYPES: dict[str, str] = {word: kind for kind, words in _ROLE_WORDS.items() for word in words}
PET_WORDS = frozenset(_ROLE_WORDS["OWNS"])

_VERBS: dict[str, tuple[tuple[str, ...], tuple[str | None, ...]]] = {
    # type: (verb lemmas, prepositions; None: the direct object)
    "WORKS_AT": (("work", "intern", "teach", "start", "employ", "hire", "begin"),
                 ("at", "for", "with", "in", "by")),
    "LIVES_IN": (("live", "reside", "base", "settle"), ("in", "at")),
    "MOVED_TO": (("move", "relocate"), ("to", "into", "back")),
    "BORN_IN": (("bear",), ("in",)),
    "STUDIES_AT": (("study", "enroll", "enrol", "graduate"), ("at", "in", "from")),
    "MARRIED_TO": (("marry", "married", "wed"), (None, "to")),
    "PARTNER_OF": (("date", "engaged", "engage"), (None, "to")),
    "OWNS": (("adopt", "own"), (None,)),
    "VISITED": (("visit", "travel", "fly", "go", "head", "drive", "tour"), (None, "to")),
}  # fmt: skip
#: (verb lemma, preposition or None) → relation type.
VERB_TYPES: dict[tuple[str, str | None], str] = {
    (verb, prep): kind
    for kind, (verbs, preps) in _VERBS.items()
    for verb in verbs
    for prep in preps
}
# verbs whose direct object is only a relation in the table above ("visit X", "marry X")
_JOIN_GROUPS = ("club", "team", "band", "choir", "league", "society", "association", "union",
                "party", "orchestra", "group", "crew", "guild", "chapter")  # fmt: skip

#: The kind a relation type gives its target (when the namespace does not know it).
TARGET_KINDS: dict[str, str] = {
    "WORKS_AT": "Organization",
    "STUDIES_AT": "Organization",
    "MEMBER_OF": "Organization",
    "LIVES_IN": "Place",
    "MOVED_TO": "Place",
    "BORN_IN": "Place",
    "VISITED": "Place",
    "PLANS_TO_VISIT": "Place",
    "OWNS": "Animal",
}

# words that end an organisation's name ("St. Mary's Hospital", "Lumen Labs")
_ORG_TEXT = (
    "hospital clinic labs lab robotics university college school academy institute inc"
    " ltd llc corp corporation company co bank gym studio studios cafe café bakery club"
    " foundation agency group partners systems technologies tech software media press"
    " restaurant bistro bar pub hotel museum library church center centre team band"
    " choir society association union council ministry department firm store shop"
    " market barn works industries airlines airways network games entertainment records"
    " publishing pictures motors energy pharma pharmaceuticals health capital consulting"
    " solutions logistics foods brewery winery"
)
_ORG_WORDS = frozenset(_ORG_TEXT.split())

_GREETINGS = (
    "hi hey hello hiya howdy yo bye goodbye cheers thanks thank thx congrats congratulations"
    " wow whoa oh ooh ah aha ha haha hahaha lol lmao omg yay yeah yes yep nope no ok okay"
    " sure hmm um uh awesome cool great nice wonderful amazing sorry please welcome"
    " morning evening night afternoon dear hugs xoxo ugh oops happy merry boo yikes"
)
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday"
_DAY_WORDS = (
    "today tomorrow yesterday tonight weekend christmas easter thanksgiving halloween"
    " diwali eid ramadan hanukkah xmas"
)
#: Greetings and interjections (lower case): never an entity, and never a name's first word.
GREETINGS: frozenset[str] = frozenset(_GREETINGS.split())
#: Whole names that are dates, not entities ("New Year", "Christmas Eve").
DATE_NAMES: frozenset[str] = frozenset(
    {"new year", "new year's", "new year's eve", "new years", "christmas eve", "christmas day",
     "boxing day", "mother's day", "father's day", "valentine's day", "labor day", "labour day"}
)  # fmt: skip
#: Lower-case words that are never an entity name on their own (and never start one).
NOT_ENTITIES: frozenset[str] = frozenset(
    [*_GREETINGS.split(), *_WEEKDAYS.split(), *_DAY_WORDS.split(), *MONTHS]
)


def org_word(name: str) -> bool:
    """Whether ``name``'s last word names an organisation ("Lumen Labs", "St. Mary's Hospital")."""
    words = name.casefold().split()
    return bool(words) and words[-1].strip(".,") in _ORG_WORDS


def verb_type(lemma: str, prep: str | None, target: str, *, future: bool) -> str | None:
    """The relation type of "``lemma`` [``prep``] ``target``", or None (not in the vocabulary).

    "join X" is ``MEMBER_OF`` for a club or team, else ``WORKS_AT``; a trip
    ("go / fly / travel to X", "visit X") is ``PLANS_TO_VISIT`` in a sentence about
    the future, else ``VISITED``.
    """
    lemma = lemma.casefold()
    if lemma == "join" and prep is None:
        words = target.casefold().split()
        return "MEMBER_OF" if words and words[-1] in _JOIN_GROUPS else "WORKS_AT"
    found = VERB_TYPES.get((lemma, prep))
    if found == "VISITED" and future:
        return "PLANS_TO_VISIT"
    return found


def reading(source: str, predicate: str, target: str) -> tuple[str, str, str]:
    """A relation in the English reading "X PREDICATE Y" ("Elena SISTER_OF Priya":
    Elena is Priya's sister): role types (:data:`OWNER_FIRST`) turn around."""
    if predicate in OWNER_FIRST:
        return target, predicate, source
    return source, predicate, target
