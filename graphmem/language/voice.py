"""Who is speaking, and whether a text is a transcript record (docs/spec.md §9.13–§9.14).

A *claim* is a statement an agent or a person makes about someone ("Lena moved to
Denver.", "I work at AKH Wien now"); whatever door it came through, conflict
handling applies to it. A *transcript record* is a turn stored as said, with its
speaker's label ("Caroline: I went to the support group yesterday"): a record of
what was said, kept out of supersession. The extractor name ``verbatim`` alone does
not decide: it only says that the stored text is the source text (docs/spec.md §9.8).

First-person text ("I", "my", "me", "we") and Mem0's "User …" statements are about
the namespace's user (:data:`USER_ALIAS`, docs/updates.md).
"""

from __future__ import annotations

import re

from graphmem.language.vocabulary import CAPITAL

__all__ = [
    "FIRST_PERSON_WORDS",
    "IMPLICIT_USER",
    "USER_ALIAS",
    "governed",
    "is_first_person",
    "is_transcript",
    "kin_owner",
    "kin_subject",
    "modifies_a_noun",
    "names_someone_close",
    "nickname",
    "owner_governed",
    "possessive_other",
    "speaker_label",
    "speaks_for_user",
    "voice_at",
]

#: The alias that marks a namespace's user entity ("User" in Mem0's style of notes).
USER_ALIAS = "User"
#: The user entity's name when the namespace names none.
IMPLICIT_USER = "User"
#: Words of a question or claim that stand for the user.
FIRST_PERSON_WORDS = frozenset(
    {"i", "me", "my", "mine", "myself", "i'm", "i’m", "i've", "i’ve", "i'd", "i’d", "i'll", "i’ll",
     "im", "ive"}  # chat spelling: "oh also im seeing someone!"
)

_VERBATIM = "verbatim"
_SPEAKER = re.compile(r"^\s*(" + CAPITAL + r"[\w'’.-]*(?:\s+" + CAPITAL + r"[\w'’.-]*){0,3})\s*:\s+\S")
_OPENS_FIRST_PERSON = re.compile(
    # a short exclamation before it is no subject ("Keys in hand! Niamh and I bought a
    # house", "Finally out of Yaba!! Got a mini flat in Gbagada")
    r"^\s*(?:[^.!?:\n]{1,30}!+\s+)?"
    r"(?:(?:so|well|oh|ok|okay|yes|yeah|actually|also|btw|and|but|update|fyi|note|"
    r"big news|news|guess what|good news|bad news|correction|reminder|remember|forgot to tell you)"
    r"\b[,:!]?\s*)*(?:" + CAPITAL + r"[\w'’-]+ and )?"
    r"(?:i|i'm|i’m|im|ive|i've|i’ve|i'd|i’d|i'll|i’ll|my|me|myself|we|we're|we’re|we've|we’ve|our|"
    r"user|user's|user’s|the user|the user's|the user’s|"
    # a note that opens with its verb has the speaker as its subject ("Sold the Corolla.")
    r"stopped|sold|started|moved|got|went|quit|left|finished|passed|ran|bought|switched|"
    r"joined|changed|gave|took|visited|booked|adopted|forgot|decided|signed|ordered|tried|"
    r"made|did|had|saw|met|lost|won|picked|dropped|missed|spent|tested|cooked|baked|"
    r"just got|just had|just finished|"
    # "(I've) been seeing Shira for a couple of months"
    r"been)\b",
    re.IGNORECASE,
)


_KIN = (
    r"(?:(?:little|big|older|younger|elder|baby|twin|best|old|new|late|step|half|dear|close|"
    r"good|childhood|[a-z]+est|[a-z]{3,}ing|work|gym|school|uni|college|band|club)\s+)*"
    r"(?:sister|brother|sibling|mother|father|mum|mom|mam|mamma|mama|dad|papa|parents?|wife|"
    r"eldest|oldest|youngest|"
    r"husband|partner|spouse|son|daughter|kids?|children|child|friend|boss|manager|colleague|"
    r"mate|pal|buddy|bestie|"
    r"co-?worker|co-?driver|labmate|flatmate|roommate|housemate|neighbou?r|cousin|aunt|auntie|"
    r"uncle|niece|nephew|grandma|grandmother|gran|nan|grandpa|grandfather|grandson|"
    r"granddaughter|ex|ex-\w+|fianc[ée]e?|girlfriend|boyfriend|team|teammate|mentor|"
    r"doctor|landlord|sister-in-law|brother-in-law|mother-in-law|father-in-law)"
)
_POSSESSIVE_OTHER = re.compile(
    r"^\s*(?:my|our|user's|user’s|the user's|the user’s)\s+" + _KIN + r"\b",
    re.IGNORECASE,
)


def possessive_other(text: str) -> bool:
    """Does a first-person text open with someone close to the user ("My sister Marit
    works at Haukeland", "User's co-driver Marek lives in Swarzędz")? Such a claim
    mentions the user but is about the other person.

    >>> possessive_other("My sister Marit works at Haukeland in Bergen.")
    True
    >>> possessive_other("My dog is called Pixel.")
    False
    """
    return _POSSESSIVE_OTHER.match(text) is not None


_OTHER_ANYWHERE = re.compile(
    r"\b(?:my|our|user's|user’s|the user's|the user’s|his|her|their|"
    r"(?-i:" + CAPITAL + r"[\w-]*)['’]s)\s+" + _KIN + r"s?\b",
    re.IGNORECASE,
)


_KIN_NAMED = re.compile(
    # "Kwame and Efua's eldest, Kofi, …": a couple's child
    r"^\s*(?:" + CAPITAL + r"[\w'’-]*(?:\s+(?:and\s+|&\s+)?" + CAPITAL + r"[\w'’-]*)*['’]s?|my|our|his|her|their|"
    r"user's|user’s)\s+"
    + _KIN + r",?\s+(?P<name>(?-i:" + CAPITAL + r"[\w'’-]*(?:\s+" + CAPITAL + r"[\w'’-]*)?))",
    re.IGNORECASE,
)


_KIN_OWNED = re.compile(
    r"^\s*(?-i:" + CAPITAL + r"[\w'’-]*)(?:\s+(?-i:" + CAPITAL + r"[\w'’-]*))?\s+is\s+(?:now\s+)?"
    r"(?P<owner>my|our|(?-i:" + CAPITAL + r"[\w'’-]*)['’]s?)\s+" + _KIN + r"\b",
    re.IGNORECASE,
)


def kin_owner(text: str) -> str | None:
    """Whose someone a claim naming them first says they are: "Inês is my fiancée now"
    → ``""`` (the user's); "Georgi is Elena's dad" → ``"Elena"``; else ``None``. The
    claim is the owner's (docs/updates.md "The namespace's user").

    >>> kin_owner("Inês is my fiancée now.")
    ''
    >>> kin_owner("Georgi is Elena's dad.")
    'Elena'
    """
    match = _KIN_OWNED.match(text)
    if match is None:
        return None
    owner = match.group("owner")
    return "" if owner.casefold() in ("my", "our") else re.sub(r"['’]s?$", "", owner)


def kin_subject(text: str) -> str | None:
    """The person a claim opening with someone close to another is about: "Lena's
    sister Mia lives in Denver." → "Mia"; "My co-driver Marek …" → "Marek".

    >>> kin_subject("Lena's sister Mia lives in Denver.")
    'Mia'
    >>> kin_subject("Lena lives in Denver.") is None
    True
    """
    match = _KIN_NAMED.match(text)
    if match is None:
        return None
    name = match.group("name")
    return name if name[:1].isupper() else None


def names_someone_close(text: str) -> bool:
    """Does ``text`` ask or speak about someone close to a person ("Where does my sister
    work?", "Where does Maya's sister work?")? Then that person is its subject."""
    return _OTHER_ANYWHERE.search(text) is not None


#: Words that head a note rather than name a speaker ("Correction: …", "Promotion: …",
#: "Health update: …"): a label whose last word is one of them is a heading.
_NOT_SPEAKERS = frozenset(
    ["correction", "update", "reminder", "remember", "note", "notes", "fyi", "btw", "news", "ps", "edit", "important", "warning", "summary", "also", "again", "actually", "context", "info", "todo", "question", "answer", "re",
     "fix", "confession", "promotion", "clarification", "addendum", "recap", "background", "change", "changes", "status", "latest", "heads-up", "tip", "plan", "plans", "story", "detail", "details", "follow-up", "followup", "health", "diet", "work", "job", "home", "family", "medical", "allergy", "allergies", "meds", "medication", "birthday", "travel", "trip", "pets", "hobbies", "milestone", "announcement", "preference", "fact", "event"]
)


def speaker_label(text: str) -> str | None:
    """The speaker label a transcript turn opens with ("Caroline: …" → "Caroline"); a
    note's heading ("Correction: …", "Update: …") is none."""
    match = _SPEAKER.match(text)
    if match is None or match.group(1).split()[-1].casefold() in _NOT_SPEAKERS:
        return None
    return match.group(1)


def is_transcript(extractor: str | None, content: str) -> bool:
    """A transcript record: verbatim text that opens with a speaker's label.

    >>> is_transcript("verbatim", "Caroline: I went to a support group yesterday.")
    True
    >>> is_transcript("verbatim", "Alice works at Microsoft.")
    False
    """
    return (extractor or "").strip().lower() == _VERBATIM and speaker_label(content) is not None


def is_first_person(text: str) -> bool:
    """Does the claim open in the user's own voice ("I …", "My …", "We …") or in
    Mem0's style ("User …")?

    >>> is_first_person("I live in Basel with Anke now")
    True
    >>> is_first_person("User is no longer vegetarian")
    True
    >>> is_first_person("Lena lives in Basel")
    False
    """
    return _OPENS_FIRST_PERSON.match(text) is not None


# The user's voice anywhere in a text ("both of us", "all of us" count the user in a
# group and say nothing in their voice) … and Mem0's "user" past a fronted clause ("With
# no office to go to, user moved …")
_FIRST_PERSON_WORD = re.compile(
    r"\b(?:I|I'm|I’m|I've|I’ve|I'd|I’d|i|im|ive|me|my|mine|we|we're|our)\b|(?<!\bof )\bus\b|,\s+(?:the\s+)?user\b"
)


def speaks_for_user(text: str) -> bool:
    """Does ``text`` speak in the user's voice anywhere, not only at its start ("Rhian
    checked the box: it's apixaban I take, not warfarin.")? Someone close to the user
    opening it ("My sister Marit …") makes it theirs.

    >>> speaks_for_user("Rhian checked the box: it's apixaban I take, not warfarin.")
    True
    >>> speaks_for_user("With no office to go to, user moved to Roma Norte.")
    True
    >>> speaks_for_user("My sister Marit works at Haukeland.")
    False
    >>> speaks_for_user("Rhian lives in Cardiff.")
    False
    """
    if possessive_other(text):
        return False
    return is_first_person(text) or _FIRST_PERSON_WORD.search(text) is not None


def voice_at(text: str) -> int | None:
    """Where ``text`` first speaks in the user's voice (a character offset into it,
    ≥ 0), or ``None`` when it does not (:func:`speaks_for_user`); a note whose voice
    comes before any name is the user's (docs/updates.md "The namespace's user")."""
    if not speaks_for_user(text):
        return None
    opens = _OPENS_FIRST_PERSON.match(text)
    if opens is not None:
        return opens.start()
    found = _FIRST_PERSON_WORD.search(text)
    return found.start() if found is not None else None


_NICKNAME = re.compile(
    r"\b(?:(?i:everyone|everybody|people|friends|we|they|the kids|most people)\s+(?i:calls?)\s+"
    r"(?i:him|her|them|me)|(?i:known as|goes by|go by|nicknamed|nickname is))\s+"
    r"(?:just\s+)?['\"“‘]?(?P<name>" + CAPITAL + r"[\w'’-]+)"
)


def nickname(text: str) -> str | None:
    """The other name a claim gives its subject ("Ramón is a vet. Everyone calls him
    Moncho." → "Moncho"; "She goes by Peggy"), or ``None``.

    >>> nickname("Ramón is a large-animal vet. Everyone calls him Moncho.")
    'Moncho'
    >>> nickname("My dog is called Pixel.") is None
    True
    """
    match = _NICKNAME.search(text)
    return match.group("name").rstrip("'’") if match else None


# After a place's name, a thing it qualifies ("the Toronto one", "Nova Scotia number",
# "the Osaka flat"): the place names the thing, it is no subject. A closed list: a name
# mistaken for a place ("Rafi made the move too") is followed by a verb.
_MODIFIES = re.compile(
    r"\s+(?:ones?|number|phone|mobile|cell|landline|flat|apartment|house|home|place|office|"
    r"branch|address|job|shop|studio|team|club|campus|clinic|school|lease|contract)\b"
)


def modifies_a_noun(text: str, name: str) -> bool:
    """Is ``name``'s first occurrence in ``text`` followed by a noun it qualifies ("New
    Nova Scotia number is 902-555-4417" → True; "Halifax is lovely" → False)? Case is
    ignored; False when ``name`` is absent or ends the text. Such a place is not the
    claim's subject (docs/updates.md "At recall")."""
    lowered = text.casefold()
    at = lowered.find(name.casefold())
    return at >= 0 and _MODIFIES.match(lowered, at + len(name)) is not None


_GOVERNED = re.compile(r"\b(?:for|at|with|to|from|by|of|in|into|on|near|about)\s+(?:the\s+)?$")
_COPULA = re.compile(r"\b(?:is|are|was|were)\b")


def governed(text: str, at: int) -> bool:
    """Is the name at offset ``at`` of ``text`` a preposition's object in a note that
    states no one's being anything before it ("doing deliveries for Rappi now": the
    note's subject is someone else; "Peanuts are dangerous for Nora" is about Nora)?

    >>> governed("quit the bakery. doing deliveries for Rappi now", 38)
    True
    >>> governed("Peanuts are dangerous for Nora", 26)
    False
    """
    return _GOVERNED.search(text, 0, at) is not None and _COPULA.search(text, 0, at) is None


_POSSESSIVE = re.compile(r"['’]s\b")


def owner_governed(text: str, at: int, end: int) -> bool:
    """Is the name ``text[at:end]`` the owner of something a preposition governs, not
    the first word ("Elif has moved into Yusuf's old flat": the flat is Yusuf's, the
    note is about Elif)?

    >>> owner_governed("Elif has moved into Yusuf's old flat", 20, 25)
    True
    >>> owner_governed("Yusuf's new number is 0555", 0, 5)
    False
    """
    return (
        at > 0
        and _GOVERNED.search(text, 0, at) is not None
        and _POSSESSIVE.match(text, end) is not None
    )
