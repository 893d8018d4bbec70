"""What a stored claim is about, for the write path's rules (docs/updates.md): the
entities it is about, the attribute it states, whether it keeps its subject safe."""

from __future__ import annotations

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import Attribute, attributes_of, primary
from graphmem.language.claim_reading import named_user
from graphmem.language.claims import Claim, subject_of
from graphmem.language.questions import SAFETY
from graphmem.language.triples import triple_attribute
from graphmem.language.voice import is_transcript, kin_subject, speaks_for_user
from graphmem.models import Memory

__all__ = ["keeps_safe", "stated_attribute", "subject_ids"]


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


def keeps_safe(memory: Memory) -> bool:
    """Does ``memory`` state what keeps its subject safe: an allergy, a diet, a
    medication or a health condition (docs/spec.md §9.5), in its text or its triple?
    Transcript turns are records, not claims: never."""
    if is_transcript(memory.extractor, memory.content):
        return False
    given = triple_attribute(memory.predicate, memory.object)
    if given is not None and given.key in SAFETY:
        return True
    return any(a.key in SAFETY for a in attributes_of(memory.content))
