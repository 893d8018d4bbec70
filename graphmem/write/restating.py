"""What else a correction corrects: the current claims that restate the one it names
(docs/spec.md §9.15; docs/updates.md "A correction corrects the claim wherever it was
said")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import Attribute, attributes_of, is_eventlike
from graphmem.language.claims import claim_of, same_subject
from graphmem.language.endings import wrong_value
from graphmem.language.questions import SAFETY, WORK
from graphmem.language.vocabulary import SAFETY_TERMS
from graphmem.language.voice import is_transcript
from graphmem.models import Memory
from graphmem.write.about import stated_attribute

__all__ = ["restatements"]

#: attributes one claim may state where another states the other: what keeps a person
#: safe ("can't take penicillin" read as medication, "penicillin allergy" as allergy), and
#: work ("joined Galway Bay Vets" an employer, "a vet at the practice" a job title)
_FAMILIES = (SAFETY, WORK)


def restatements(
    corrected: Memory, pool: Iterable[Memory], known: EntityDictionary, correction: str = ""
) -> list[tuple[Memory, str]]:
    """The current claims of ``pool`` (the corrected claim's subject's) that restate the
    claim a correction corrects, or say what it names as wrong, each with why, sorted by id.
    A claim of the same subject is corrected with it when it

    - states the same value of the same attribute ("I'm on that warfarin, mind" when
      "Doctor's got me on warfarin" is corrected to apixaban);
    - holds the corrected claim's value in its words and states an attribute the corrected
      one does, and none it does not ("No shellfish, ever", read as health, when "I'm
      allergic to shellfish" is corrected; safety's attributes count as one, and so do
      employer and job title);
    - names the safety constraint the corrected claim states in other words ("dairy" for
      "lactose intolerant", "a blood thinner" for "warfarin": ``SAFETY_TERMS``) and
      states no attribute but safety's;
    - holds the words of the value the ``correction`` names as wrong, as the corrected claim
      has them, and states no attribute the corrected one does not ("According to Hương
      nothing beats a bowl of mì Quảng" when "Hương's favourite dish is mì Quảng" is
      corrected with "…, not mì Quảng"; :func:`graphmem.language.endings.wrong_value`);
    - or, when the corrected claim does not hold the value named as wrong, holds it as a
      name the correction capitalises, is no event and states no attribute that neither
      the corrected claim nor the correction does: the correction was aimed at an older
      claim of what a newer one says ("We ended up in Neukölln" when "I live in Kadıköy"
      is corrected with "our flat is in Kreuzberg, not Neukölln").

    Events and transcript turns never take part. docs/updates.md "A correction corrects
    the claim wherever it was said"."""
    stated = stated_attribute(corrected)
    wrong = wrong_value(correction, corrected.content) if correction else None
    value = stated.value.casefold() if stated is not None and stated.value else None
    if value is None and not correction:
        return []
    claim = claim_of(corrected, known)
    keys = _widened({a.key for a in attributes_of(corrected.content)})
    named = keys | _widened({a.key for a in attributes_of(correction)})
    out: list[tuple[Memory, str]] = []
    for other in pool:
        if other.id == corrected.id or not other.is_current or other.type == "Event":
            continue
        if is_transcript(other.extractor, other.content):
            continue
        if not same_subject(claim, claim_of(other, known)):
            continue
        theirs = stated_attribute(other)
        their_keys = {a.key for a in attributes_of(other.content)}
        if (
            stated is not None
            and stated.value
            and theirs is not None
            and (theirs.key, theirs.value) == (stated.key, stated.value)
        ):
            out.append((other, f"restates the corrected claim ({stated.label} {stated.value})"))
        elif their_keys <= keys and (said := _holds(other, wrong)):
            out.append((other, f"says what the correction names as wrong ({said})"))
        elif their_keys & keys and their_keys <= keys and (said := _holds(other, value)):
            out.append((other, f"says the corrected claim's value ({said})"))
        elif their_keys <= SAFETY and (said := _said_alike(other, stated)):
            out.append((other, f"says the corrected safety constraint in other words ({said})"))
        elif (
            wrong is None
            and their_keys <= named
            and not is_eventlike(other.content)
            and (said := wrong_value(correction, other.content))
            and _a_name(correction, said)
        ):
            out.append((other, f"says what the correction names as wrong ({said}) in another claim"))
    return sorted(out, key=lambda pair: pair[0].id)


def _a_name(text: str, phrase: str) -> bool:
    """Is ``phrase`` written as a name in ``text`` (its first letter a capital: "not
    Neukölln", not "not far from")?"""
    found = re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", text, re.IGNORECASE)
    return found is not None and found.group(0)[:1].isupper()


def _said_alike(memory: Memory, stated: Attribute | None) -> str | None:
    """The word of ``memory`` that names the safety constraint ``stated`` names in other
    words ("dairy" for "lactose intolerant": :data:`SAFETY_TERMS`), else None."""
    if stated is None or not stated.value or stated.key not in SAFETY:
        return None
    value, text = stated.value.casefold(), memory.content.casefold()
    for group in SAFETY_TERMS:
        if any(_term(term).search(value) for term in group):
            for term in group:
                if _term(term).search(text):
                    return term
    return None


@lru_cache(maxsize=128)
def _term(term: str) -> re.Pattern[str]:
    """``term`` as words, singular or plural."""
    return re.compile(rf"(?<![\w]){re.escape(term)}(?:e?s)?(?![\w])")


def _widened(keys: set[str]) -> set[str]:
    """``keys`` with every attribute of a family one of them is in (:data:`_FAMILIES`)."""
    out = set(keys)
    for family in _FAMILIES:
        if keys & family:
            out |= family
    return out


def _holds(memory: Memory, value: str | None) -> str | None:
    """``value`` when ``memory``'s text holds it as words, else None."""
    if value is None or len(value) < 3:
        return None
    found = re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", memory.content.casefold())
    return value if found else None
