"""Text normalisation, tokenisation, hashing and ids shared by every layer.

``tokenize`` is the one tokeniser for BM25 on the embedded store, the
planner's lexical rarity and the bench baselines: lower-cased ``\\w+`` tokens.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"\w+", re.UNICODE)


def normalize(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed and stripped."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def tokenize(text: str) -> list[str]:
    """Lower-cased ``\\w+`` tokens of ``text`` (the BM25 and planner tokeniser)."""
    return _TOKEN.findall(text.casefold())


def content_hash(memory_type: str, subject: str | None, predicate: str | None, content: str) -> str:
    """SHA-256 hex of ``normalize(type | subject | predicate | content)`` (docs/spec.md §2.7 tier
    1)."""
    key = "|".join(normalize(part or "") for part in (memory_type, subject, predicate, content))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def surface_hash(text: str) -> str:
    """SHA-256 hex of the text as written (whitespace-normalised only; docs/spec.md §2.8)."""
    return hashlib.sha256(_WS.sub(" ", text).strip().encode("utf-8")).hexdigest()


def entity_id(surface: str) -> str:
    """uuid5(NAMESPACE_DNS, normalize(surface)) — the fallback id (docs/spec.md §1)."""
    return str(uuid.uuid5(uuid.NAMESPACE_DNS, normalize(surface)))


def memory_id(namespace: str, content_hash_hex: str) -> str:
    """Deterministic memory id: retries and concurrent writers of one claim agree."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"graphmem:{namespace}:{content_hash_hex}"))


def relation_id(namespace: str, source_id: str, predicate: str, target_id: str) -> str:
    """Deterministic relation id (one edge per source, predicate, target)."""
    return str(
        uuid.uuid5(uuid.NAMESPACE_URL, f"graphmem:{namespace}:{source_id}:{predicate}:{target_id}")
    )
