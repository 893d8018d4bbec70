"""What a stored claim is about, for the write path's rules (docs/updates.md): the
entities it is about, the attribute it states, whether it keeps its subject safe."""

from __future__ import annotations

import re

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import Attribute, primary, replaces
from graphmem.language.claim_reading import named_user
from graphmem.language.claims import Claim, same_subject, subject_of
from graphmem.language.endings import ends
from graphmem.language.questions import SAFETY
from graphmem.language.triples import attribute_predicate, claimed_attributes, triple_attribute
from graphmem.language.voice import is_transcript, kin_subject, speaks_for_user
from graphmem.language.words import stem
from graphmem.models import Memory

__all__ = [
    "job_changes",
    "keeps_safe",
    "name_each_other",
    "outlives",
    "partner_ended",
    "stated_attribute",
    "stated_predicate",
    "subject_ids",
]


def subject_ids(memory: Memory, known: EntityDictionary, claim: Claim | None = None) -> list[str]:
    """The entity ids ``memory`` is about: its subject mentions, else every mention,
    and the namespace's user when it speaks in the user's voice ("it's apixaban I
    take, not warfarin"; "Handed the Osaka flat back. I'm renting in Fukuoka now.")
    or ``claim`` is about them ("She rents a flat in Vienna" in Olena's namespace)."""
    subjects = [m.entity_id for m in memory.mentions if m.role == "subject"]
    subjects = subjects or [m.entity_id for m in memory.mentions]
    user = known.user()
    if user is None or user.id in subjects:
        return subjects
    about_user = claim is not None and subject_of(claim) == named_user(claim)
    if about_user or speaks_for_user(memory.content):
        subjects = [*subjects, user.id]
    return subjects


def stated_attribute(memory: Memory) -> Attribute | None:
    """The attribute a memory states: its triple's predicate when that names one, else
    the main attribute of its text (docs/updates.md) — unless the text is about someone
    close to the triple's subject ("My sister Kasia … lives with our parents in Tarnów"
    given as Marta's sibling states no home of Marta's)."""
    given = triple_attribute(memory.predicate, memory.object)
    if given is not None or (memory.predicate and kin_subject(memory.content) is not None):
        return given
    return primary(memory.content)


def stated_predicate(memory: Memory) -> str | None:
    """The predicate of the attribute ``memory`` states: its own, else the one naming its
    text's main attribute ("I'm in Galata now" → "lives_in"). A correction carries its
    corrected memory's, so it states what it corrects however it is worded ("Correction:
    the studio is in Galata, not Cihangir"; docs/updates.md "correct follows the chain")."""
    if memory.predicate:
        return memory.predicate
    stated = stated_attribute(memory)
    return None if stated is None else attribute_predicate(stated.key)


def keeps_safe(memory: Memory) -> bool:
    """Does ``memory`` state what keeps its subject safe: an allergy, a diet, a
    medication or a health condition (docs/spec.md §9.5), in its text or its triple?
    Transcript turns are records, not claims: never."""
    if is_transcript(memory.extractor, memory.content):
        return False
    stated = claimed_attributes(memory.content, memory.predicate, memory.object)
    return any(a.key in SAFETY for a in stated)


#: A job's title and its workplace change apart: a promotion at the same firm, the same
#: work at another (docs/updates.md "Updates recognised by attribute").
_JOB = frozenset({"job_title", "employer"})


def outlives(old: Memory, new: Memory) -> bool:
    """Does ``old`` keep saying something true after ``new`` updates it? It states both
    a job title and a workplace and ``new`` only one of them ("Amina is an architect at
    Dar Al-Handasah" / "Amina made associate"): superseding it would lose the other,
    and the newer claim ranks first for the one it changes anyway (docs/updates.md "At
    recall")."""
    theirs = {a.key for a in claimed_attributes(old.content, old.predicate, old.object)} & _JOB
    new_keys = {a.key for a in claimed_attributes(new.content, new.predicate, new.object)}
    return theirs == _JOB and not theirs <= new_keys


def job_changes(old: Memory, new: Memory) -> str | None:
    """Why ``new`` updates ``old``'s job when both state a title and a workplace but
    open on different ones ("Ha-eun is a barista at Fritz Coffee" / "Ha-eun quit Fritz
    and started as a junior UX designer at Toss"): the workplace, else the title, read
    from each claim compared as :func:`~graphmem.language.attributes.replaces` compares
    two claims' first attributes, or ``None`` (docs/updates.md "Updates recognised by
    attribute")."""
    theirs = {a.key: a for a in reversed(claimed_attributes(old.content, old.predicate, old.object))}
    mine = {a.key: a for a in reversed(claimed_attributes(new.content, new.predicate, new.object))}
    if not (theirs.keys() >= _JOB and mine.keys() >= _JOB):
        return None
    for key in ("employer", "job_title"):
        why = replaces(mine[key], theirs[key], new.content, old.content)
        if why is not None:
            return why
    return None


# the user named in a claim: a first-person word anywhere ("My girlfriend Noa …", "Noa and
# I called it off", "me and cian are done" in chat), or "user" in a note about them
_USER_NAMED = re.compile(
    r"(?<![\w.])[Ii](?![\w.'’])|\b(?:[Mm]e|[Mm]y)\b|(?<![\w])[Ii]['’]|\b[Uu]ser\b"
)

# a pet no longer kept: "Mandu died in April", "no cat for me here", "i dont have a cat anymore"
_PET_LOST = re.compile(
    r"\b(?:died|passed away|was put down|put (?:him|her|it) down|rehomed|"
    r"no (?:cat|dog|pet|hamster|rabbit|bird|parrot|fish)s?\b|"
    r"(?:do|does)(?:n['’]?t| not) have (?:a|any) (?:cat|dog|pet|hamster|rabbit|bird)s?\b)",
    re.IGNORECASE,
)

#: a partner named in a claim ("My girlfriend Noa …", "User's partner is Andrés")
_PARTNER_WORD = re.compile(
    r"\b(?:partner|girlfriend|boyfriend|wife|husband|fianc[ée]e?|spouse)\b", re.IGNORECASE
)


def name_each_other(a: Claim, b: Claim) -> bool:
    """Do two claims about different subjects each name the other's subject? "My
    girlfriend Noa is a nurse" (about Noa, naming me) and "Noa and I called it off" (about
    me, naming Noa); "Siti has a ginger cat called Kopi" and "Kopi stayed with Siti's
    parents, so there's no cat in Siti's room". The write path relates such a pair only
    as a partnership or a pet that ended (:func:`partner_ended`; docs/updates.md "Updates
    recognised by attribute"); False when they are about one subject
    (:func:`same_subject`) or either subject is unknown."""
    sa, sb = subject_of(a), subject_of(b)
    if sa is None or sb is None or same_subject(a, b):
        return False
    return _names(b, sa) and _names(a, sb)


def _names(claim: Claim, who: tuple[str, ...]) -> bool:
    """Does ``claim``'s text name ``who`` (a word of the name; the namespace's user also
    by a first-person word)?"""
    user = named_user(claim)
    is_user = user is not None and {stem(w) for w in who} <= {stem(w) for w in user}
    if is_user and _USER_NAMED.search(claim.content) is not None:
        return True
    text = claim.content.casefold()
    return any(
        len(word) > 2 and re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) is not None
        for word in who
    )


def partner_ended(
    memory: Memory,
    other: Memory,
    attribute: Attribute | None,
    subject_words: frozenset[str],
    people: frozenset[str],
) -> str | None:
    """Why ``memory`` ends the partnership or the pet the older ``other`` names, for two
    claims whose subjects name each other (:func:`name_each_other`), or None: both state a
    partner and the newer names none ("Noa and I called it off … I'm single now" after "My
    girlfriend Noa Levi and I have been together"); the older states a pet and the newer
    says it is no longer kept ("Mandu died in April" after "Ha-eun has a hamster called
    Mandu"); or the older names a partner and the newer ends what it says ("Tomek and I
    broke up" after "My boyfriend Tomek is a carpenter"). docs/updates.md "Updates
    recognised by attribute"."""
    theirs = stated_attribute(other)
    ends_one = attribute is not None and attribute.key == "partner" and not attribute.value
    if ends_one and theirs is not None and theirs.key == "partner":
        return replaces(attribute, theirs, memory.content, other.content)
    if theirs is not None and theirs.key == "pet" and (lost := _PET_LOST.search(memory.content)):
        return f"the pet the older claim names is no longer kept ({lost.group(0).casefold()})"
    if _PARTNER_WORD.search(other.content) is None:
        return None
    return ends(memory.content, other.content, subject_words, people)

