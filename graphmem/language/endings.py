"""Claims that end what an older claim states (docs/updates.md): "Elena doesn't do
the morning yoga anymore." ends "Elena does yoga every morning before rehearsal."
although the two give no values of one attribute."""

from __future__ import annotations

import re

from graphmem.language.vocabulary import MONTHS, WEEKDAYS
from graphmem.language.words import FUNCTION_WORDS, stem

__all__ = [
    "corrects_history",
    "ending_cue",
    "ends",
    "of_the_past",
    "strong_ending",
    "topics",
    "wrong_value",
]


def _ci(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# words that end what a claim stated ("no longer", "gave up", "done with")
_ENDING_WORDS = (
    r"no longer|anymore|any more|no more|quit|stopped|gave up|given up|sold|split up|"
    r"broke up|dropped out|done with|cut out|cancell?ed"
)
_ENDING = _ci(rf"\b(?:not|never|quitted|put away|{_ENDING_WORDS})\b|n't\b")
_STRONG_ENDING = _ci(
    rf"\b(?:{_ENDING_WORDS}|(?:has|have)n['’]t (?:touched|had)|"
    r"not (?:one|a single|a drop of|a sip of))\b|"
    # a note that opens by refusing a thing: "No aquavit this midsummer, or any other."
    r"^\s*no\s+(?!one\b|idea\b|problem\b|way\b|doubt\b|matter\b|need\b|worries\b)[a-z]"
)
# a claim that already keeps the subject from something: a refusal of it agrees
_RESTRICTION = _ci(
    r"\b(?:allerg\w*|intoleran\w*|coeliac|celiac|can(?:no|['’])t (?:eat|have|drink|take)|"
    r"dangerous|avoid\w*|react\w* badly|keep (?:off|away from)|stay away from|not to (?:eat|drink|"
    r"have|take))\b"
)
_REFUSAL = _ci(r"^\s*no\s+[a-z]")
_OTHER_ENDING = _ci(rf"\b(?:{_ENDING_WORDS})\b")
_GENERIC = frozenset(
    ["about", "after", "again", "also", "always", "anymore", "around", "back", "been", "before", "being", "better", "could", "didn't", "does", "doesn't", "doing", "done", "down", "each", "even", "ever", "every", "from", "going", "gone", "good", "great", "have", "having", "here", "into", "just", "know", "last", "like", "little", "long", "look", "made", "make", "many", "more", "most", "much", "must", "need", "never", "next", "night", "nothing", "only", "other", "over", "really", "right", "said", "same", "since", "some", "still", "such", "sure", "take", "than", "that", "their", "them", "then", "there", "these", "they", "thing", "think", "this", "those", "through", "time", "today", "told", "took", "turns", "until", "very", "want", "week", "weeks", "well", "went", "were", "what", "when", "which", "while", "will", "with", "without", "would", "year", "years", "months", "month", "days", "since", "because", "though", "instead", "now", "these", "days", "morning", "evening", "anyone", "everyone", "someone", "actually", "finally", "basically", "properly", "user", "user's", "take", "takes", "taking", "have", "keep", "keeps", "give", "gives", "come", "comes", "says", "tell", "tells", "gets", "does", "living", "call", "calls", "called"]
)  # fmt: skip
# times are no topic ("stopped the cello in August" ends no birthday in August), nor
# are the ending cues themselves
_TIME = (frozenset(MONTHS) | frozenset(WEEKDAYS) | {f"{d}s" for d in WEEKDAYS}) | frozenset(
    ["stopped", "quit", "sold", "gave", "given", "split", "broke", "dropped", "anymore", "longer"]
)
# a lower-case word in -ly says how, not what ("completely", "weekly"); these few are things
_ADVERB = re.compile(
    r"(?!(?:family|belly|jelly|lily|rally|ally|assembly|supply|bully)\b)[a-z]{3,}ly"
)
# what an older claim says of someone else it names: "engaged to Youssef, a ceramics
# teacher from Safi" — from the other person's name to the end of the clause
_APPOSITION = re.compile(r",\s+(?:an?|the|who|whose|his|her|their)\b[^.;]*")
# where the ended thing happened ("sold Asamoah at the Bantama livestock market", "no car
# for me in Accra", "gave up on the Enugu road") is not what ends: a name after in / at /
# on / off / along / near / from / around / outside. A home or a
# workplace that ends is the attribute rules' (docs/updates.md "Updates recognised by
# attribute"), which read "left the Bonfim flat" themselves.
_PLACE = re.compile(
    r"\b(?:in|at|on|off|along|near|from|around|outside)\s+(?:the\s+)?(?:[A-ZÀ-Þ][\w'’-]*\s*)+(?:[a-z]+\s+)?"
)
# "The Toronto one is cancelled" ends a thing the place qualifies (a number, a flat), not
# what an older claim says happens in Toronto
# ("the Toronto number", "User's Routakuu address doesn't work anymore": the address ends)
_QUALIFIED_ONE = re.compile(
    r"(?:\b(?i:the|my|his|her|their|our)|[\w-]+['’]s)\s+(?:[A-ZÀ-Þ][\w'’-]*\s+)+"
    r"(?=(?:ones?|address|e-?mail|number|phone|account|badge|card|pass|login|contract|laptop|"
    r"studio|flat|office|house|home|apartment|place|car|farm|cottage|shop)\b)"
)
# whom or where from a thing is done with ("football with the girls from the bakery") is
# not the thing: quitting the bakery ends no football
_COMPANY = re.compile(
    r"\b(?:from|with)\s+(?:the|my|his|her|our|their)\s+(?:(?!from\b|with\b)[a-z]+\s+)?(?!from\b|with\b)[a-z]+\b"
)
_REASON = re.compile(r"\b(?:because|since|as|after|due to|doctor's orders)\b", re.IGNORECASE)
# a dash (" - " typed as a hyphen too) opens an aside; ", no more road shifts" is a clause of its own
_CLAUSE = re.compile(
    r"[.;!?]\s+|,\s+(?:so|but|and)\s+|\s+[—–-]\s+|,\s+(?=(?:no more|no longer)\b)|"
    # "no more U16s for me, gonna miss those boys": a clause of its own after a comma
    r",\s+(?=(?:gonna|going to|I|I'm|I've|I'll|I'd|he|she|he's|she's|they|they're|we|"
    r"we're|it's|that's|which|who|though|honestly|still)\b)|"
    # "sold the restaurant and is opening Ocak Berlin": what follows starts something
    r"\s+and\s+(?=(?:is|are|has|have|now)\s+(?:now\s+)?\w+ing\b)|"
    # "no longer has a car and takes the agency van": what follows is what replaced it
    r"\s+and\s+(?=(?:takes|took|uses|used|gets|rides|rode|goes|went|walks|cycles|catches|"
    r"relies|started|starts|switched|joined|bought|buys|moved|moves|opened|opens|rented|"
    r"rents)\b)"
)
_TOPIC = re.compile(r"[A-Za-zÀ-ɏ][\w'’-]{3,}")


def topics(text: str, exclude: frozenset[str] = frozenset()) -> frozenset[str]:
    """The content words of ``text`` (four letters or more, not generic, not a lower-case
    adverb in -ly, no contraction), lower-cased, by stem (stemmed twice, so that
    "volunteering" and "volunteer" meet): what a negation can be about; ``exclude``:
    words never topics (the names of people, lower-cased)."""
    out: set[str] = set()
    for word in _TOPIC.findall(text):
        low = re.sub(r"'s$", "", word.casefold().replace("’", "'"))
        if len(low) < 4 or low in _GENERIC or low in _TIME or "'" in low:  # "I've", "don't"
            continue
        if low in exclude or _ADVERB.fullmatch(word):
            continue
        out.add(stem(stem(low)))  # twice: "volunteering" and "volunteer" meet at "volunt"
    return frozenset(out)


def _about_subject(old: str, people: frozenset[str]) -> str:
    """``old`` without what it says of another person it names: the apposition after a
    name in ``people`` (lower-cased name words), to the end of its clause."""
    out = old
    for match in reversed(list(_APPOSITION.finditer(old))):
        before = re.findall(r"[\w'’-]+", old[: match.start()])
        if before and before[-1].casefold() in people:
            out = out[: match.start()] + out[match.end() :]
    return out


def strong_ending(text: str) -> bool:
    """Whether ``text`` ends something for sure ("no longer", "anymore", "quit", "gave up",
    "sold", "cut out", "No aquavit this midsummer"): the cue :func:`ends` requires, and
    the one newer-over-older checks before asking whether an ending ends the older
    claim (docs/updates.md "Updates recognised by attribute" and "At recall")."""
    return _STRONG_ENDING.search(text) is not None


def ending_cue(text: str) -> bool:
    """Whether ``text`` ends something ("not", "no longer", "anymore", "quit", "sold")."""
    return _ENDING.search(text) is not None


def ends(
    new: str,
    old: str,
    subject_words: frozenset[str] = frozenset(),
    exclude: frozenset[str] = frozenset(),
) -> str | None:
    """Does the newer claim ``new`` end what the older ``old`` states? ("Elena doesn't do
    the morning yoga anymore." / "Elena does yoga every morning.") Both about one
    subject (the caller checks): ``new`` carries an ending cue, ``old`` none, and they
    share a content word other than the subject's name and ``exclude`` (people's names,
    lower-cased). Returns why, or ``None``."""
    if _STRONG_ENDING.search(old) is not None:
        return None
    if _RESTRICTION.search(old) is not None and _RESTRICTION.search(new) is None:
        # giving something up agrees with a claim that keeps the subject from things
        # ("stopped drinking" / "keep off organ meats and not drink heavily"); ending the
        # restriction itself names it ("not lactose intolerant anymore")
        return None
    # what it ends, not why ("… anymore, because of the diabetes"): the parts of its
    # clauses, cut at a reason, that carry the cue ("hasn't had a drink since summer and
    # says she's done with mezcal")
    restriction = _RESTRICTION.search(old) is not None
    parts = [
        part
        for clause in _CLAUSE.split(new)
        for part in _REASON.split(clause)
        if _STRONG_ENDING.search(part)
        # "No sesame for Chloe, please." restates an allergy; it ends nothing
        and not (restriction and _REFUSAL.match(part) and _OTHER_ENDING.search(part) is None)
    ]
    if not parts:
        return None
    ended = frozenset().union(
        *(
            topics(_COMPANY.sub(" ", _PLACE.sub(" ", _QUALIFIED_ONE.sub("the ", part))), exclude)
            for part in parts
        )
    )
    shared = (ended & topics(_COMPANY.sub(" ", _about_subject(old, exclude)), exclude)) - topics(
        " ".join(subject_words)
    )
    if not shared:
        return None
    return f"the newer claim ends what the older one states ({', '.join(sorted(shared)[:3])})"


# A claim about how things were ("in Toronto I taught at Malvern Collegiate", "my old
# school", "used to work at"), with no word of the present: it says nothing of now.
_PAST = re.compile(
    r"\b(?:used to|taught|worked|lived|was living|were living|previously|formerly|back then|"
    r"(?:my|his|her|their|our) (?:old|former|previous) (?:school|job|work|flat|house|home|"
    r"place|address|number|employer|company))\b",
    re.IGNORECASE,
)
# ... and a word of the present, or of a change that brought it ("lived in Leeds, moved
# to Hull"), says something of now
_NOW = re.compile(
    r"\b(?:now|these days|currently|at the moment|nowadays|still|moved|moving|relocated|joined|"
    r"started|starting|left|quit|switched|new|since)\b",
    re.IGNORECASE,
)


def of_the_past(text: str) -> bool:
    """Does ``text`` say how things were and nothing of now ("in Toronto I taught at
    Malvern Collegiate", "my old school")? It then updates no current claim by its
    attribute (docs/updates.md) and answers no question about the present."""
    return _PAST.search(text) is not None and _NOW.search(text) is None




_NOT_PHRASE = re.compile(r"\bnot\s+(?:an?\s+|the\s+)?(?P<v>[\w'’-]+(?:\s+[\w'’-]+){0,3})", re.IGNORECASE)
# what wrong_value reads as "not": also "isn't", "wasn't", "aren't" ("the school isn't the
# Colegio Alemán"), and a hedge after it ("I'm not actually DOC staff")
_WRONG_PHRASE = re.compile(
    r"(?:\bnot|\b(?:is|was|are|were)n['’]t)\s+(?:actually\s+)?"
    r"(?:an?\s+|the\s+)?(?P<v>[\w'’-]+(?:\s+[\w'’-]+){0,3})",
    re.IGNORECASE,
)


def corrects_history(replaced: str, current: str, correction: str) -> bool:
    """Does ``correction``, aimed at the ``replaced`` claim, correct the past rather than
    what holds now: it speaks of how things were (:func:`of_the_past`), and the wrong
    value it names ("…, not Riverdale") is in the replaced claim and not in
    ``current``, the value the claim that replaced it states ("I teach at Riverdale
    Collegiate" → "New job: English teacher at Citadel High School", corrected by "in
    Toronto I taught at Malvern Collegiate, not Riverdale")? False when ``current`` is
    empty, and for a correction in the present tense: the claim that replaced the
    target then said it again in other words ("I'm on warfarin" → "Don't forget I'm on
    a blood thinner", corrected by "Her blood thinner is apixaban, not warfarin").
    docs/updates.md ("correct follows the chain").

    >>> corrects_history("I teach at Riverdale Collegiate.", "citadel high school",
    ...                  "In Toronto I taught at Malvern Collegiate, not Riverdale.")
    True
    >>> corrects_history("I teach at Riverdale.", "riverdale", "It's Malvern, not Riverdale.")
    False
    >>> corrects_history("I'm on warfarin.", "blood thinner",
    ...                  "Her blood thinner is apixaban, not warfarin.")
    False
    """
    found = _NOT_PHRASE.search(correction)
    if found is None or not current or not of_the_past(correction):
        return False
    word = re.compile(rf"\b{re.escape(found['v'].split()[0].casefold())}\b")
    return word.search(replaced.casefold()) is not None and word.search(current.casefold()) is None




def wrong_value(correction: str, corrected: str) -> str | None:
    """The value ``correction`` names as wrong ("…, not mì Quảng as I had noted") as the
    ``corrected`` claim words it: the longest run of words after "not" ("isn't", "wasn't",
    "aren't", "weren't"; "actually" after it passed over) that the corrected claim holds ("mì
    quảng"), casefolded, not function words alone ("not with …"); None
    when it names none the claim holds. docs/updates.md ("A correction corrects the claim
    wherever it was said").

    >>> wrong_value("Her favourite dish is cao lầu, not mì Quảng as I had noted.",
    ...             "Hương's favourite dish is mì Quảng.")
    'mì quảng'
    >>> wrong_value("It's apixaban, not warfarin.", "I'm on a blood thinner.") is None
    True
    >>> wrong_value("The school isn't the Colegio Alemán.", "I teach at the Colegio Alemán.")
    'colegio alemán'
    >>> wrong_value("I'm not actually DOC staff.", "Still with DOC, ha.")
    'doc'
    >>> wrong_value("She's not with Tomek now.", "She lives with her sister.") is None
    True
    """
    held = corrected.casefold()
    for found in _WRONG_PHRASE.finditer(correction):
        words = found["v"].casefold().split()
        for n in range(len(words), 0, -1):
            phrase = " ".join(words[:n])
            if all(w in FUNCTION_WORDS for w in words[:n]) or len(phrase) < 3:
                continue  # "not with …", "not just …": no value
            if re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", held):
                return phrase
    return None
