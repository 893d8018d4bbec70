"""Claims of an agent's answer: splitting, the terms a claim must carry, criticality
(docs/spec.md §10 "Read-time faithfulness").

Pure functions over text, no model:

- :func:`split_claims` cuts an answer into sentences, then sentences into clauses at
  ``;`` and at a comma before a clause conjunction (", and", ", but", ", while", ...);
  a fragment of fewer than :data:`MIN_CLAIM_WORDS` words stays with its neighbour.
- :func:`claim_terms` are what the offline check requires a supporting memory to
  contain: numbers (digits or number words, "3" = "three", "1,200" = "1200", ordinal
  suffixes dropped), month and weekday names (a date is its day, month and year), and
  named entities (capitalised words that are not a sentence's ordinary first word, a
  month, a weekday or "I").
- :func:`is_critical`: a claim carrying a number, date or named entity, or a health,
  money or identity word (:data:`CRITICAL_WORDS`) — an unsupported critical claim
  raises the answer's risk level (:func:`risk_level`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.language.vocabulary import MONTH_NAMES, MONTHS, NUMBER_WORDS, ORDINALS, WEEKDAYS
from graphmem.reports import RiskLevel

__all__ = [
    "CRITICAL_WORDS",
    "MIN_CLAIM_WORDS",
    "ClaimTerms",
    "claim_terms",
    "is_critical",
    "resolve_pronouns",
    "risk_level",
    "split_claims",
]


#: Fewest words a clause needs to stand as a claim of its own.
MIN_CLAIM_WORDS = 3

_ABBREVIATIONS = (
    r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)"
)
_SENTENCE_END = re.compile(_ABBREVIATIONS + r"(?<=[.!?])\s+(?=[\"'“(]?[A-Z0-9])")
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*|,\s+(?=(?:and|but|while|whereas|although|though|so|yet)\s)", re.IGNORECASE
)
_WORD = re.compile(r"[A-Za-z0-9][\w'’.-]*")
_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_ORDINAL_SUFFIX = re.compile(r"^(\d+)(?:st|nd|rd|th)$", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’]s?$")

# The cardinals, "dozen", the ordinals third..tenth and "twice" ("first" and "second"
# are read as ordinary words here).
_NUMBER_WORDS = {
    **NUMBER_WORDS,
    **{word: value for word, value in ORDINALS.items() if 3 <= value <= 10},
    "twice": 2,
}
_MONTHS = {word: MONTH_NAMES[month - 1] for word, month in MONTHS.items()}
_WEEKDAYS = frozenset(WEEKDAYS)
# Capitalised only because they open a sentence (or are "I"): not names.
_ORDINARY_FIRST_WORDS = """a an the i i'm i've i'd i'll he she it they we you me my his her its their our your
    this that these those there here then yes no not on in at to of for from by with after
    before when while during since until so but and or also both each every some any all
    last next yesterday today tomorrow tonight recently once what who whom whose which why
    how where as if because though although however still yet just only even maybe perhaps
    sure well oh hey hi hello thanks thank great good nice wow ok okay sorry actually really
    one two three four five six seven eight nine ten many most more few several do does did
    is are was were be been has have had will would can could should may might must"""
_ORDINARY_FIRST = frozenset(_ORDINARY_FIRST_WORDS.split())

#: Words that make a claim critical on their own (docs/spec.md §10: health, money, identity).
#: This project's list; matched on lower-cased word stems (prefixes).
CRITICAL_WORDS: dict[str, tuple[str, ...]] = {
    "health": (
        "allerg", "medic", "diagnos", "disease", "illness", "sick", "pregnan", "surgery",
        "doctor", "hospital", "symptom", "blood", "insulin", "dose", "dosage", "pill",
        "prescri", "therap", "cancer", "diabet", "asthma", "injur", "vaccin", "health",
        "disorder", "depress", "anxiety", "vegan", "vegetarian", "gluten",
    ),
    "money": (
        "money", "salary", "salaries", "price", "cost", "paid", "pay", "owe", "debt", "loan",
        "bank", "account", "dollar", "euro", "pound", "budget", "invest", "income", "rent",
        "mortgage", "tax", "fee", "credit", "$", "€", "£",
    ),
    "identity": (
        "name", "birthday", "born", "birth", "age", "address", "password", "passport",
        "phone", "email", "nationality", "citizen", "gender", "married", "wife", "husband",
        "spouse", "daughter", "son", "mother", "father", "parent", "sibling", "brother",
        "sister", "religio", "social security", "ssn", "identity", "transgender",
    ),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ClaimTerms:
    """What a claim states that a supporting memory must state too.

    ``numbers`` are canonical decimal strings ("3", "1200", "2.5"); ``dates`` are month
    and weekday names, lower-cased (days and years are numbers); ``names`` are the
    named entities as written (possessive dropped).
    """

    numbers: frozenset[str]
    dates: frozenset[str]
    names: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.numbers or self.dates or self.names)


def split_claims(answer: str) -> list[str]:
    """An answer's claims: sentences, then clauses (see the module docstring).

    Returns
    -------
    list of str
        Stripped, non-empty, in order; ``[]`` for a blank answer.
    """
    claims: list[str] = []
    for sentence in _SENTENCE_END.split(answer.strip()):
        parts = [p.strip(" ,") for p in _CLAUSE_BREAK.split(sentence) if p and p.strip(" ,")]
        merged: list[str] = []
        for part in parts:
            part = re.sub(
                r"^(?:and|but|while|whereas|although|though|so|yet)\s+", "", part, flags=re.I
            )
            short = min(len(_WORD.findall(part)), len(_WORD.findall(merged[-1])) if merged else 9)
            if merged and short < MIN_CLAIM_WORDS:  # a fragment stays with its neighbour
                merged[-1] = f"{merged[-1]}, {part}"
            else:
                merged.append(part)
        claims.extend(m for m in merged if m)
    return claims


_LEADING_PRONOUN = re.compile(r"^(she|he|they|her|his|their)\b", re.IGNORECASE)
_POSSESSIVE_PRONOUNS = frozenset(("her", "his", "their"))


def resolve_pronouns(claims: Sequence[str]) -> list[str]:
    """Each claim as it is checked: a leading "she / he / they" replaced by the first
    name of the closest earlier claim that has one ("her / his / their" by its
    possessive). A claim cut from its sentence loses its subject; restoring it keeps
    the claim's cosine to the memory that states it (one sentence, one subject:
    the earlier claim's first name is the usual antecedent)."""
    out: list[str] = []
    subject: str | None = None
    for claim in claims:
        match = _LEADING_PRONOUN.match(claim)
        if match and subject is not None:
            pronoun = match.group(1).casefold()
            name = f"{subject}'s" if pronoun in _POSSESSIVE_PRONOUNS else subject
            claim = name + claim[match.end() :]
        out.append(claim)
        names = _names(claim)
        if names:
            subject = names[0]
    return out


def _number(token: str) -> str | None:
    """The canonical decimal string of a numeric token, else ``None``."""
    word = token.casefold().rstrip(".")
    if word in _NUMBER_WORDS:
        return str(_NUMBER_WORDS[word])
    ordinal = _ORDINAL_SUFFIX.match(word)
    if ordinal:
        return str(int(ordinal.group(1)))
    if _NUMBER.fullmatch(word):
        value = word.replace(",", "")
        if "." in value:
            return value.rstrip("0").rstrip(".")
        return str(int(value))
    return None


def _numbers(text: str) -> set[str]:
    found = {str(m.group(0)) for m in _NUMBER.finditer(text)}
    out = {n for n in (_number(f) for f in found) if n is not None}
    for token in _WORD.findall(text):
        for piece in token.split("-"):  # "twenty-five" counts its parts
            if piece[:1].isdigit():
                continue  # digits are read whole above ("1,200" is one number)
            value = _number(piece)
            if value is not None:
                out.add(value)
    return out


def _dates(text: str) -> set[str]:
    out: set[str] = set()
    for token in _WORD.findall(text):
        word = token.casefold().rstrip(".")
        if word in _WEEKDAYS:
            out.add(word)
        elif word in _MONTHS and (word != "may" or token[0].isupper()):
            out.add(_MONTHS[word])  # "may" the verb is lower-case
    return out


def _names(text: str) -> list[str]:
    """Capitalised words that are names (see the module docstring), as written."""
    names: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        for i, match in enumerate(_WORD.finditer(sentence)):
            token = _POSSESSIVE.sub("", match.group(0).rstrip("."))
            word = token.casefold()
            if not token or not token[0].isupper() or _number(token) is not None:
                continue
            if word in _MONTHS or word in _WEEKDAYS or word == "i":
                continue
            at_start = i == 0 or sentence[: match.start()].rstrip().endswith((":", '"', "“"))
            if at_start and word in _ORDINARY_FIRST:
                continue
            names.append(token)
    return list(dict.fromkeys(names))


def claim_terms(text: str) -> ClaimTerms:
    """Numbers, date words and named entities of ``text`` (module docstring)."""
    return ClaimTerms(
        numbers=frozenset(_numbers(text)),
        dates=frozenset(_dates(text)),
        names=tuple(_names(text)),
    )


def text_words(text: str) -> set[str]:
    """Lower-cased words of ``text``, possessives dropped (what names are matched in)."""
    return {_POSSESSIVE.sub("", w.casefold().rstrip(".")) for w in _WORD.findall(text)}


def is_critical(claim: str, terms: ClaimTerms | None = None) -> bool:
    """docs/spec.md §10: a claim is critical when it carries a number, date or named entity, or
    a health, money or identity word (:data:`CRITICAL_WORDS`)."""
    found = claim_terms(claim) if terms is None else terms
    if found:
        return True
    lowered = claim.casefold()
    words = text_words(claim)
    for stems in CRITICAL_WORDS.values():
        for stem in stems:
            if stem in ("$", "€", "£") or " " in stem:
                if stem in lowered:
                    return True
            elif any(w.startswith(stem) for w in words):
                return True
    return False


def risk_level(unsupported: int, critical_unsupported: int) -> RiskLevel:
    """The risk level (docs/spec.md §10).

    none: 0 unsupported; low: 1–2 unsupported, none critical; medium: 1–2 unsupported
    with at least one critical; high: 3 or more unsupported ("or many critical": more
    than 2 critical implies 3 or more unsupported).

    Raises
    ------
    ValueError
        For negative counts or more critical than unsupported claims.
    """
    if unsupported < 0 or not 0 <= critical_unsupported <= unsupported:
        raise ValueError(
            f"need 0 <= critical ({critical_unsupported}) <= unsupported ({unsupported})"
        )
    if unsupported == 0:
        return "none"
    if unsupported >= 3:
        return "high"
    return "medium" if critical_unsupported else "low"
