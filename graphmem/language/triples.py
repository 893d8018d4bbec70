"""The attribute a triple states by its predicate (docs/updates.md): with a triple,
"lives_in" says the residence whatever the text's wording, and a multi-valued
predicate ("pet", "did") never makes another object an update."""

from __future__ import annotations

from typing import Protocol

from graphmem.language.attributes import (
    SINGLE_VALUED,
    Attribute,
    attributes_of,
    clean_value,
    is_eventlike,
)
from graphmem.language.claims import Compatibility, Reason
from graphmem.language.endings import ending_cue
from graphmem.text import normalize

__all__ = [
    "accumulates",
    "attribute_predicate",
    "claimed_attributes",
    "restates",
    "same_value",
    "triple_attribute",
]


# Triple predicates whose values accumulate (docs/spec.md §9.15): another object is one more
# value, not an update ("has a dog" and "has a cat"; two runs on two days).
_MANY = frozenset(
    ["pet", "pets", "hobby", "hobbies", "language", "languages", "allergy", "allergies", "sibling", "siblings", "sister", "brother", "child", "children", "son", "daughter", "parent", "friend", "friends", "plays", "owns", "did", "visited", "likes", "loves", "member_of", "studied", "speaks", "knows"]
)


def accumulates(predicate: str, memory_type: str = "Fact") -> bool:
    """Whether a triple's predicate is multi-valued, or the memory a one-off event:
    then another object with the same subject and predicate is no conflict.

    >>> accumulates("pet"), accumulates("lives_in"), accumulates("lives_in", "Event")
    (True, False, True)
    """
    key = predicate.casefold().replace("-", "_").replace(" ", "_")
    return memory_type == "Event" or key in _MANY or key.rstrip("s") in _MANY


_PREDICATE_KEYS = {
    "lives_in": "residence", "live_in": "residence", "residence": "residence",
    "works_at": "employer", "work_at": "employer", "employer": "employer",
    "job_title": "job_title", "job": "job_title", "title": "job_title",
    "diet": "diet", "allergy": "allergy", "medication": "medication", "partner": "partner",
    "married_to": "partner", "pet": "pet", "phone": "phone", "email": "email",
    "birthday": "birthday", "hobby": "hobby", "language": "language", "studies_at": "school",
    "drives": "car", "car": "car",
}  # fmt: skip


#: The predicate a triple names each attribute by (the first of the table's spellings).
_KEY_PREDICATES = {key: predicate for predicate, key in reversed(_PREDICATE_KEYS.items())}


def attribute_predicate(key: str) -> str | None:
    """The triple predicate that names attribute ``key`` ("residence" → "lives_in",
    "employer" → "works_at"); ``None`` for one no predicate names (health, a favourite).

    >>> attribute_predicate("residence"), attribute_predicate("school"), attribute_predicate("health")
    ('lives_in', 'studies_at', None)
    """
    return _KEY_PREDICATES.get(key)


def triple_attribute(predicate: str | None, obj: str | None) -> Attribute | None:
    """The attribute a triple states by its predicate ("lives_in", "works_at", ...),
    with its object as the value; ``None`` for a predicate outside the table."""
    key = _PREDICATE_KEYS.get((predicate or "").casefold().replace("-", "_").replace(" ", "_"))
    if key is None:
        return None
    return Attribute(key, key in SINGLE_VALUED, clean_value(obj or "", key))


def claimed_attributes(content: str, predicate: str | None, obj: str | None) -> list[Attribute]:
    """The attributes a claim states: its text's
    (:func:`~graphmem.language.attributes.attributes_of`), then its triple's
    (:func:`triple_attribute`) when its predicate names one (docs/updates.md "Updates
    recognised by attribute")."""
    given = triple_attribute(predicate, obj)
    return [*attributes_of(content), *([given] if given is not None else [])]


class _Stated(Protocol):
    @property
    def content(self) -> str: ...
    @property
    def object(self) -> str | None: ...


def same_value(new: _Stated, old: _Stated) -> bool:
    """Do two claims given with one subject and predicate give the same object, the newer
    not ending it? Then they are no conflict however their texts differ ("Henrik takes
    metformin twice a day with meals" / "Henrik again: he's on metformin and needs his
    meals at regular times", both (Henrik, medication, metformin)): neither supersedes the
    other. "Kwame is not vegetarian anymore" with (Kwame, diet, vegetarian) still does."""
    return (
        bool(new.object and old.object)
        and normalize(new.object or "") == normalize(old.object or "")
        and not ending_cue(new.content)
    )


def restates(new: _Stated, old: _Stated, memory_type: str, verdict: Compatibility) -> bool:
    """Does a claim given with the same subject, predicate and object as a stored one
    restate it, although their texts differ by the compatibility rule's word checks?

    The agent said which claim it is: "No sesame for Chloe, please. It's a proper
    allergy" and "Chloe is allergic to sesame", both (Chloe, allergy, sesame), are one
    claim; the first text's "no" is not a negation flip and its words name nothing new
    of weight. A one-off event (another time is another event: "ran 5 km on Monday"),
    other numbers or dates (a new dose, a new day) and a text that ends something
    ("doesn't … anymore") still decide as the text says (docs/updates.md "Updates
    recognised by attribute")."""
    return (
        memory_type != "Event"
        and verdict.reason in (Reason.NEGATION, Reason.ENTITIES)
        and same_value(new, old)
        and not (is_eventlike(new.content) or is_eventlike(old.content))
    )
