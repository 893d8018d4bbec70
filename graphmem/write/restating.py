"""What else a correction corrects: the current claims that restate the one it names
(docs/spec.md §9.15; docs/updates.md "A correction corrects the claim wherever it was
said")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import attributes_of
from graphmem.language.claims import claim_of, same_subject
from graphmem.language.endings import wrong_value
from graphmem.language.voice import is_transcript
from graphmem.models import Memory
from graphmem.write.about import stated_attribute

__all__ = ["restatements"]


def restatements(
    corrected: Memory, pool: Iterable[Memory], known: EntityDictionary, correction: str = ""
) -> list[tuple[Memory, str]]:
    """The current claims of ``pool`` (the corrected claim's subject's) that restate the
    claim a correction corrects, each with why, sorted by id: the same subject and the same
    value of the same attribute ("I'm on that warfarin, mind" when "Doctor's got me on
    warfarin" is corrected to apixaban), or the words of the value the ``correction`` names
    as wrong, as the corrected claim has them, in a claim that states no attribute the
    corrected one does not ("According to Hương nothing beats a bowl of mì Quảng" when
    "Hương's favourite dish is mì Quảng" is corrected with "…, not mì Quảng";
    :func:`graphmem.language.endings.wrong_value`). Transcript turns never take part."""
    stated = stated_attribute(corrected)
    wrong = wrong_value(correction, corrected.content) if correction else None
    if (stated is None or not stated.value) and wrong is None:
        return []
    claim = claim_of(corrected, known)
    keys = {a.key for a in attributes_of(corrected.content)}
    out: list[tuple[Memory, str]] = []
    for other in pool:
        if other.id == corrected.id or not other.is_current:
            continue
        if is_transcript(other.extractor, other.content):
            continue
        if not same_subject(claim, claim_of(other, known)):
            continue
        theirs = stated_attribute(other)
        if (
            stated is not None
            and stated.value
            and theirs is not None
            and (theirs.key, theirs.value) == (stated.key, stated.value)
        ):
            out.append((other, f"restates the corrected claim ({stated.label} {stated.value})"))
        elif (
            other.type != "Event"
            and wrong is not None
            and re.search(rf"(?<![\w]){re.escape(wrong)}(?![\w])", other.content.casefold())
            # it says nothing the corrected claim does not: "Ramón lives in Tlaquepaque"
            # is no restatement of "opened his practice in Tlaquepaque"
            and {a.key for a in attributes_of(other.content)} <= keys
        ):
            out.append((other, f"says what the correction names as wrong ({wrong})"))
    return sorted(out, key=lambda pair: pair[0].id)
