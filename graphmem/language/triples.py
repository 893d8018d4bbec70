"""The attribute a triple states by its predicate (docs/updates.md): with a triple,
"lives_in" says the residence whatever the text's wording, and a multi-valued
predicate ("pet", "did") never makes another object an update."""

from __future__ import annotations

from graphmem.language.attributes import SINGLE_VALUED, Attribute, clean_value

__all__ = ["accumulates", "triple_attribute"]


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


def triple_attribute(predicate: str | None, obj: str | None) -> Attribute | None:
    """The attribute a triple states by its predicate ("lives_in", "works_at", ...),
    with its object as the value; ``None`` for a predicate outside the table."""
    key = _PREDICATE_KEYS.get((predicate or "").casefold().replace("-", "_").replace(" ", "_"))
    if key is None:
        return None
    return Attribute(key, key in SINGLE_VALUED, clean_value(obj or "", key))

