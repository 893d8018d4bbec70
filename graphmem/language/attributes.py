"""Which attribute of its subject a claim states (docs/updates.md; docs/spec.md §9.15).

Two claims about one person conflict when they give two values to one
*single-valued* attribute — where the person lives or works, their job title,
diet, partner, phone number, birthday — however they are worded: "Lena lives in
Portland." and "Lena moved to Denver." share no value word and embed far apart,
yet the second replaces the first. *Multi-valued* attributes (pets, hobbies,
languages, allergies, siblings) accumulate; a new value replaces an old one only
when the new claim names the old value together with a change cue ("allergic to
cashews, not peanuts", "switched from metformin to insulin").

The rules are lexical, ordered, and explainable: :func:`attributes_of` returns
every attribute a text states with the value words it found, the first one
(:func:`primary`) being the one the sentence is about; :func:`replaces` says
whether a newer claim's attribute replaces an older one's and why, in words that
``recall --explain`` and the write report can show.

>>> primary("Lena moved to Denver last month.").key
'residence'
>>> primary("I'm a senior urban planner now.").key
'job_title'
>>> replaces(primary("Lena moved to Denver."), primary("Lena lives in Portland."), "Lena moved to Denver.")
'both say where the subject lives: denver replaces portland'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from graphmem.language.attribute_rules import RULES as _RULES
from graphmem.language.attribute_rules import case_insensitive as _ci
from graphmem.language.attribute_rules import not_stated
from graphmem.language.questions import SAFETY
from graphmem.language.vocabulary import CAPITAL, MONTHS, WEEKDAYS

__all__ = [
    "SINGLE_VALUED",
    "Attribute",
    "attributes_of",
    "change_cue",
    "clean_value",
    "corrects",
    "is_eventlike",
    "primary",
    "replaces",
    "update_cue",
]


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute a claim states.

    ``key``: the attribute ("residence", "employer", "diet", "pet", ...);
    ``single``: single-valued (a new value replaces the old) or multi-valued;
    ``value``: the value's words, lower-cased ("" when the text states the
    attribute without a value: "no longer works there"); ``position``: where in
    the text the match starts (the earliest is the claim's primary attribute).
    """

    key: str
    single: bool
    value: str
    position: int = 0
    ended: bool = False  # the claim ends the attribute ("left Acme", "no longer vegan")

    @property
    def label(self) -> str:
        """The attribute in words, for explanations."""
        return _LABELS.get(self.key.split(":")[0], self.key.replace("_", " "))


_LABELS = {
    "residence": "where the subject lives",
    "employer": "where the subject works",
    "job_title": "the subject's job",
    "diet": "the subject's diet",
    "allergy": "the subject's allergies",
    "medication": "the subject's medication",
    "health": "the subject's health",
    "partner": "the subject's partner",
    "phone": "the subject's phone number",
    "email": "the subject's email address",
    "birthday": "the subject's birthday",
    "school": "where the subject studies",
    "car": "what the subject drives",
    "favourite": "a favourite of the subject",
    "pet": "the subject's pets",
    "hobby": "the subject's hobbies",
    "language": "the languages the subject speaks",
    "habit": "what the subject no longer eats or drinks",
}


SINGLE_VALUED = {
    "residence", "employer", "job_title", "diet", "partner", "phone", "email", "birthday",
    "school", "car", "favourite", "medication",
}  # fmt: skip



_CHANGE = _ci(
    r"\b(?:not|no longer|anymore|any more|instead of|rather than|actually|now|switched|"
    r"changed|moved|left|quit|stopped|gave up|used to|former|formerly|ex-|no more|from)\b"
    r"|n't\b"
)
_EVENT_TIME = _ci(
    r"\b(?:on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)|yesterday|"
    r"last (?:week|weekend|night|month|year|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|this (?:morning|afternoon|evening|weekend)|today|tonight|"
    r"\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2}\b|\bon the \d{1,2}|"
    r"in (?:january|february|march|april|june|july|august|september|october|november|"
    r"december)|last (?:weekend|saturday|sunday)|again\b)"
)
_SPACE = re.compile(r"\s+")
_TIME_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS) | {"today", "tomorrow", "yesterday"}
_FROM_TO = re.compile(r"\bfrom\s+" + CAPITAL + r"[\w'’-]*(?:\s+" + CAPITAL + r"[\w'’-]*)*\s+to\s+" + CAPITAL)
_HOME = _ci(
    r"\b(?:live|lives|living|flat|apartment|house|home|neighbou?rhood|rent|bungalow|"
    r"villa|studio flat|place in|moved in|moved house)\b"
)


def clean_value(value: str, key: str = "") -> str:
    value = _SPACE.sub(" ", value.replace("’", "'")).strip(" .,'\"").casefold()
    for lead in ("the ", "a ", "an "):
        if value.startswith(lead):
            value = value[len(lead) :]
    value = re.sub(r"(?:\s+(?:at|in|for|with|on|of|to|from|and))+$", "", value)
    if value in _TIME_WORDS:
        return ""
    if key == "birthday":  # "21st of March", "March 21", "21 March": one value
        words = re.sub(r"(\d+)(?:st|nd|rd|th)\b|,|\bthe\b|\bof\b", r"\1", value).split()
        value = " ".join(sorted(words))
    return value


_WORK_CONTEXT = _ci(
    r"\b(?:job|jobs|ward|shifts?|office|company|firm|team|role|position|work|working|works|"
    r"colleagues?|boss|manager|contract|salary|promotion|hired|employer|clinic|practice|"
    r"studio|agency|startup|department|kitchen|restaurant|hospital|school|lab|rota|career)\b"
)


@lru_cache(maxsize=16384)
def attributes_of(text: str) -> tuple[Attribute, ...]:
    """Every attribute ``text`` states, earliest first, one per key (kept per text: a
    recall's newer-over-older rule reads each returned claim's many times).

    Parameters
    ----------
    text : str
        A claim as stored (any person: "I", "User", "Lena", "she").

    Returns
    -------
    tuple of Attribute
        Ordered by position in the text; empty when no rule matches.
    """
    found: dict[str, Attribute] = {}
    first_person = _FIRST_PERSON.match(text) is not None
    for key, pattern, ended in _RULES:
        for match in pattern.finditer(text):
            if first_person and _about_someone_else(text, match.start()):
                continue  # "I'm engaged! He's a structural engineer": his job, not mine
            names = match.groupdict()
            value = clean_value(names.get("v") or "", key)
            full_key = key
            if key == "favourite":
                full_key = f"favourite:{(names.get('k') or '').casefold()}"
            if not_stated(key, value, match, text):
                continue
            if (
                key == "residence"
                and _FROM_TO.search(text)
                and _WORK_CONTEXT.search(text)
                and not _HOME.search(text)
            ):
                full_key = key = "employer"  # "moved from Ullevål to Rikshospitalet, same job"
            at = match.start("at") if names.get("at") else match.start()  # see the rule's "at"
            attr = Attribute(full_key, key in SINGLE_VALUED, value, at, ended or _ends(text, match))
            have = found.get(full_key)
            if have is None or (not have.value and attr.value):
                found[full_key] = attr if have is None else _merge(have, attr, text)
            break
    return tuple(sorted(found.values(), key=lambda a: (a.position, a.key)))


_FIRST_PERSON = re.compile(r"^\W*(?:I|I'm|I’m|I've|My|We|We're|Our)\b")
_THIRD_CLAUSE = re.compile(
    r"^\W*(?:he|she|they|his|her|their|he's|she's|they're)\b|"
    # "…, meaning the drummer moved to Berlin": the drummer's move, not mine
    r"^\W*(?:(?:meaning|so|and|but|while|since)\s+)?the\s+[a-z-]+\s+$",
    re.I,
)


def _about_someone_else(text: str, at: int) -> bool:
    """In a first-person text, is the clause holding ``at`` about someone else (it opens
    with "he", "she", "they", "his", "her", or "the drummer" stands right before it)?"""
    start = max(text.rfind(c, 0, at) for c in ".;!?,") + 1
    return _THIRD_CLAUSE.match(text[start:at]) is not None


_STARTS = re.compile(r"\b(?:took|takes|started|starts|joined|hired|got|new|now)\b", re.I)


def _merge(old: Attribute, new: Attribute, text: str) -> Attribute:
    """The value read later, ended as the earlier reading says unless its own clause starts
    something or says "now" ("isn't freelancing anymore. She took a staff job at Bennani",
    "stopped freelancing; he's foreman at Snickeriet now"; "I'm retired now. Worked at
    Marine Colliery" ends the colliery)."""
    lead = _CLAUSE_BREAK.split(text[max(0, new.position - 40) : new.position])[-1]
    clause = lead + re.split(r"[,;:.!?]", text[new.position :], maxsplit=1)[0]
    ended = new.ended or (old.ended and _STARTS.search(clause) is None)
    return Attribute(old.key, old.single, new.value, min(old.position, new.position), ended)


_CLAUSE_BREAK = re.compile(r"[,;:.!?]|\b(?:now|but|then)\b")
_WHEN_NOT = re.compile(r"\b(?:when|whenever|while|if|unless)\b[^,;:.!?]*?\b(?:not|never)\b|"
                       r"\b(?:when|whenever|while|if)\b[^,;:.!?]*?n't\b")


def _ends(text: str, match: re.Match[str]) -> bool:
    """Does the clause around ``match`` end the attribute ("is no longer vegan",
    "doesn't eat meat anymore")?"""
    # a cue before "now", "but" or a comma belongs to another clause ("I left the uni lab
    # and now I teach at the Colegio Alemán")
    # "When I'm not counting tablets I play the violin": a time or a condition, no ending
    wide = _WHEN_NOT.sub(" ", text[max(0, match.start() - 80) : match.start()].casefold())
    lead = _CLAUSE_BREAK.split(wide[-30:])[-1]
    before = lead + text[match.start() : match.end()].casefold()
    after = text[match.end() : match.end() + 25].casefold()
    return bool(
        # "left Mexico City for Querétaro" starts what comes after "for"
        re.search(r"\b(?:no longer|not|never|stopped|gave up|quit|left(?![^.;]{0,40}\bfor\b)|lost)\b|"
                  r"n't\b", before)
        or re.search(r"\b(?:anymore|any more|no more)\b", after)
    )


_NEVER_PRIMARY = frozenset({"health", "habit"})

def primary(text: str) -> Attribute | None:
    """The claim's main attribute: the earliest :func:`attributes_of` reads, not health or habit."""
    found = [a for a in attributes_of(text) if a.key not in _NEVER_PRIMARY]
    return found[0] if found else None


def change_cue(text: str) -> bool:
    """Whether ``text`` carries a change or correction cue ("now", "no longer",
    "instead of", "actually", "not X", "moved", "switched")."""
    return _CHANGE.search(text) is not None


_UPDATE = _ci(
    r"\b(?:no longer|anymore|any more|instead|now|these days|switched|changed|moved|"
    r"left|quit|stopped|gave up|no more|new)\b"
)


def update_cue(text: str) -> bool:
    """Whether ``text`` says something changed ("works for Oyo Ledger now", "no longer",
    "instead", "a new job"): :func:`change_cue` without the words that also negate or
    restate ("not", "from", "actually")."""
    return _UPDATE.search(text) is not None


def is_eventlike(text: str) -> bool:
    """A one-off event at a time ("ran 8 km on Wednesday", "visited her aunt on 17 May"):
    two of them at different times are two events, never an update (docs/spec.md §9.15)."""
    first = primary(text)
    if first is not None and first.single:
        return False
    return _EVENT_TIME.search(text) is not None


_STATUS = re.compile(
    r"\b(?P<s>dating|girlfriend|boyfriend|fianc[ée]e?|engaged|married|wife|husband|"
    r"divorced|separated)\b",
    re.IGNORECASE,
)
_STATUS_OF = {"fiance": "engaged", "fiancé": "engaged", "fiancée": "engaged", "fiancee": "engaged",
              "wife": "married", "husband": "married", "girlfriend": "dating",
              "boyfriend": "dating"}  # fmt: skip


def _status(text: str) -> str | None:
    """The stage of a relationship a partner claim states ("dating", "engaged",
    "married", …), or ``None``."""
    found = _STATUS.search(text)
    if found is None:
        return None
    word = found.group("s").casefold()
    return _STATUS_OF.get(word, word)


def replaces(
    new: Attribute | None, old: Attribute | None, new_text: str, old_text: str = ""
) -> str | None:
    """Why a newer claim's attribute replaces an older one's, or ``None``.

    Single-valued: the same key and a different value (or the newer claim ends it:
    "left Acme", "no longer vegan"). Multi-valued: only when the newer claim names
    the older value with a change cue ("allergic to cashews, not peanuts").
    Both claims must already be about the same subject (the caller checks). A partner
    named again at another stage ("dating Inês" → "Inês is my fiancée now") is an
    update; a newer claim that ends something and names the older value ("I left the
    Bonfim flat, I'm in a studio in Foz do Douro now") ends it.
    """
    if new is None or old is None or new.key != old.key:
        return None
    if new.value and old.value and (new.value in old.value or old.value in new.value):
        if new.ended != old.ended:
            return f"both say {new.label}: the newer one ends it"
        if new.single and len(new.value) > len(old.value) and change_cue(new_text):
            return f"both say {new.label}: {new.value} refines {old.value}"  # "a senior X now"
        if new.key == "partner" and change_cue(new_text):
            status = _status(new_text)  # "dating Inês" → "Inês is my fiancée now"
            if status is not None and status != _status(old_text):
                return f"both say {new.label}: {new.value}, now {status}"
        return None  # the same value: a restatement, not an update
    if new.ended and old.ended:
        return None  # both say it ended ("lost her job" twice)
    if new.ended:  # "doesn't eat eggs anymore" ends eggs, not "is vegetarian"
        if not new.value or (old.value and new.value in old.value):
            return f"both say {new.label}: the newer one ends it"
        if old.value and re.search(r"\b" + re.escape(old.value) + r"\b", new_text.casefold()):
            # "I left the Bonfim flat, I'm in a studio in Foz do Douro now"
            return f"both say {new.label}: the newer one ends {old.value}"
        return None
    if new.single:
        if new.value and old.value:
            return f"both say {new.label}: {new.value} replaces {old.value}"
        if (new.value and new.key != "medication") or change_cue(new_text):  # "new pills"
            return f"both say {new.label}, the newer one with a change word"
        return None
    lowered = new_text.casefold()
    named = old.value and re.search(r"\b" + re.escape(old.value) + r"\b", lowered)
    if named and change_cue(new_text):
        return f"both say {new.label}: the newer one names {old.value} as no longer so"
    return None


#: ", not peanuts." — the value a correction says was wrong (up to three words, at the
#: end of its clause).
_CORRECTED = re.compile(
    r",\s+not\s+(?:an?\s+|the\s+)?(?P<v>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s*(?=[.;!)]|$)",
    re.IGNORECASE,
)


def corrects(new: Attribute | None, new_text: str, old_text: str) -> str | None:
    """Why a correction that names the wrong value ("tree nuts, not peanuts") replaces
    an older claim that says that value, or ``None``: the older one states the same
    attribute (anywhere in its text: :func:`attributes_of`), or both state something
    about the person's safety ("peanuts are dangerous for her ... keeps the EpiPen in
    her bag" is read as health, the correction as an allergy). The newer
    claim must say that something changed (:func:`change_cue`), both must already be
    about the same subject (the caller checks). A plural counts as its singular
    ("not eggs" corrects "egg allergy"). docs/updates.md ("A correction corrects the
    claim wherever it was said"), docs/spec.md §9.15.

    >>> print(corrects(primary("Hannah's allergy is sesame, not eggs."),
    ...          "Hannah's allergy is sesame, not eggs.", "Reminder: Hannah, egg allergy."))
    corrects eggs: the newer one says the subject's allergies are not eggs
    """
    if new is None or not change_cue(new_text):
        return None
    theirs = {a.key for a in attributes_of(old_text)}
    # what keeps a person safe: one claim may state it as an allergy, another as health
    if new.key not in theirs and not (new.key in SAFETY and theirs & SAFETY):
        return None
    found = _CORRECTED.search(new_text)
    if found is None:
        return None
    value = found["v"].casefold()
    stem = value[:-1] if value.endswith("s") else value
    if re.search(rf"\b{re.escape(stem)}(?:s|es)?\b", old_text.casefold()) is None:
        return None
    return f"corrects {value}: the newer one says {new.label} are not {value}"
