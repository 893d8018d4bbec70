"""The word lists of the claim-compatibility rule (docs/spec.md §9.10), one per check:
the words that count things (NUMBERS), negate or end a claim (NEGATION), name an
exclusive state or a like / dislike (STATE), and the capitalised words that are no
names (ENTITIES). :mod:`graphmem.language.claim_reading` reads claims with them.
"""

from __future__ import annotations

import re

from graphmem.language.vocabulary import NUMBER_WORDS, ORDINALS

__all__ = [
    "COUNT_WORDS",
    "COUNT_WORDS_ALSO_STATES",
    "DISLIKES",
    "LIKES",
    "NEGATIONS",
    "NEGATION_PHRASES",
    "NOT_NAMES",
    "STATE_CANON",
    "STATE_GROUPS",
    "STATE_WORDS",
]

# The cardinals, every ordinal, and the words that count things (§9.10 NUMBERS).
COUNT_WORDS: dict[str, float] = {
    **NUMBER_WORDS,
    **ORDINALS,
    "million": 1_000_000, "once": 1, "twice": 2, "thrice": 3, "half": 0.5,
    "single": 1, "both": 2, "couple": 2, "pair": 2, "triple": 3,
}  # fmt: skip
# "single" also names a relationship status; the state check reports that case.
COUNT_WORDS_ALSO_STATES = {"single"}
NEGATIONS = frozenset(
    {
        "not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "nowhere",
        "cannot", "anymore", "longer", "stopped", "quit", "quitted", "ceased", "former",
        "formerly", "ex", "without", "gave",
    }
)  # fmt: skip
NEGATION_PHRASES = (
    re.compile(r"\bno\s+longer\b"),
    re.compile(r"\bused\s+to\b"),
    re.compile(r"\bgave\s+up\b"),
    re.compile(r"\bany\s+more\b"),
)
# Exclusive states: two different members of one group cannot both hold.
STATE_GROUPS: tuple[frozenset[str], ...] = (
    frozenset(
        {
            "single", "dating", "engaged", "fiance", "fiancee", "married", "wife", "husband",
            "spouse", "divorced", "separated", "widowed", "widow", "widower", "girlfriend",
            "boyfriend", "partner",
        }
    ),
    frozenset({"vegetarian", "vegan", "pescatarian", "omnivore", "carnivore", "keto"}),
    frozenset(
        {"employed", "unemployed", "retired", "freelance", "freelancer", "intern", "student"}
    ),
    frozenset({"alive", "dead", "deceased", "died"}),
    frozenset({"pregnant"}),
)  # fmt: skip
STATE_WORDS = frozenset().union(*STATE_GROUPS)
# Merge the spelled-out members of a state into one value ("wife" and "married" agree).
STATE_CANON = {
    "fiance": "engaged", "fiancee": "engaged", "wife": "married", "husband": "married",
    "spouse": "married", "widow": "widowed", "widower": "widowed", "girlfriend": "dating",
    "boyfriend": "dating", "partner": "dating", "freelancer": "freelance",
    "deceased": "dead", "died": "dead",
}  # fmt: skip
LIKES = frozenset(
    {"like", "likes", "liked", "love", "loves", "loved", "enjoy", "enjoys", "enjoyed", "prefer",
     "prefers", "preferred", "fond", "adore", "adores", "favourite", "favorite"}
)  # fmt: skip
DISLIKES = frozenset(
    {"hate", "hates", "hated", "dislike", "dislikes", "disliked", "detest", "detests", "loathe",
     "loathes", "despise", "despises", "avoid", "avoids"}
)  # fmt: skip
# Capitalised words that are not names (sentence openers, pronouns, titles of days are dates).
NOT_NAMES = frozenset(
    {
        "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "our", "us", "you", "your",
        "he", "him", "his", "she", "her", "hers", "they", "them", "their", "it", "its", "this",
        "that", "these", "those", "there", "here", "the", "a", "an", "and", "or", "but", "so",
        "if", "when", "while", "after", "before", "since", "until", "because", "as", "at", "in",
        "on", "of", "for", "to", "from", "with", "by", "about", "yes", "no", "not", "now",
        "today", "yesterday", "tomorrow", "tonight", "last", "next", "every", "each",
        "all", "some", "any", "what", "who", "whom", "whose", "which", "where", "why", "how",
        "also", "just", "still", "then", "well", "oh", "hey", "hi", "hello", "thanks", "ok",
        "okay", "sure", "mr", "mrs", "ms", "dr", "st", "mt",
        # sentence openers of notes and chat that are no names
        "correction", "update", "reminder", "remember", "note", "fyi", "btw", "news", "big",
        "good", "bad", "great", "sadly", "unfortunately", "luckily", "finally", "guess",
        "went", "did", "ran", "got", "had", "made", "took", "sold", "bought", "moved",
        "started", "stopped", "passed", "finished", "visited", "tried", "forgot", "found",
        "decided", "quit", "left", "joined", "booked", "turns", "turned", "apparently",
        "both", "everyone", "nobody", "somebody", "second", "first", "another", "new", "old",
    }
)  # fmt: skip
