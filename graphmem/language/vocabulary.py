"""English word tables shared by the claim checks, the write path's compatibility
rules and the time parser: month and weekday names, number words, ordinals.

One table per kind of word. Each reader keeps its own selection next to its code
(which number words it reads, which extra words it takes), built from these
tables, so what each reader recognises is stated once and visibly.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "CAPITAL",
    "MONTHS",
    "MONTH_NAMES",
    "NUMBER_WORDS",
    "ORDINALS",
    "SAFETY_TERMS",
    "WEEKDAYS",
]

#: The regex class of a capital letter that opens a name, for the language patterns: ASCII
#: and the accented Latin capitals ("Ólafur", "Łukasz", "Đà Nẵng"; the Latin Extended-A
#: range takes its small letters too, which the patterns' case rules allow anyway).
CAPITAL = "[A-ZÀ-ÖØ-ÞĀ-Ž]"

#: Full month names, lower-case, January first (locale-independent).
MONTH_NAMES: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
)  # fmt: skip

#: Month names and their usual abbreviations ("sep" and "sept"), lower-case → 1..12.
#: "may" is also the verb: each reader decides when it counts (capitalised, mid-sentence).
MONTHS: Mapping[str, int] = MappingProxyType(
    {
        **{name: i for i, name in enumerate(MONTH_NAMES, start=1)},
        **{name[:3]: i for i, name in enumerate(MONTH_NAMES, start=1)},
        "sept": 9,
    }
)

#: Weekday names, lower-case → ISO weekday 1 (Monday) .. 7 (Sunday).
WEEKDAYS: Mapping[str, int] = MappingProxyType(
    {
        "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5,
        "saturday": 6, "sunday": 7,
    }
)  # fmt: skip

#: Cardinal number words zero..thousand and "dozen" → their value.
NUMBER_WORDS: Mapping[str, int] = MappingProxyType(
    {
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
        "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
        "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
        "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
        "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
        "hundred": 100, "thousand": 1000, "dozen": 12,
    }
)  # fmt: skip

#: Ordinal words first..twelfth → their value.
ORDINALS: Mapping[str, int] = MappingProxyType(
    {
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
        "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
    }
)  # fmt: skip


#: Words that name one and the same safety constraint, each group lower-case and singular:
#: "lactose intolerant" is said as "no dairy", "warfarin" as "a blood thinner"; words that
#: name other things too ("milk", "cream", "crab", "almond") are left out (docs/updates.md
#: "A correction corrects the claim wherever it was said").
SAFETY_TERMS: tuple[frozenset[str], ...] = (
    frozenset({"lactose", "dairy"}),
    frozenset({"gluten", "coeliac", "celiac"}),
    frozenset({"shellfish", "crustacean", "prawn", "shrimp", "lobster"}),
    frozenset({"peanut", "groundnut"}),
    frozenset({"tree nut", "walnut", "cashew", "hazelnut", "pecan", "pistachio"}),
    frozenset({"blood thinner", "anticoagulant", "warfarin", "coumadin", "apixaban",
               "eliquis", "rivaroxaban", "xarelto", "dabigatran", "heparin"}),
    frozenset({"insulin", "diabetic", "diabetes"}),
)  # fmt: skip
