"""Read-time faithfulness: is an agent's answer supported by the memories it was given?
(docs/spec.md §10: ``faithfulness = supported /
total`` and the risk levels.)

The answer is split into claims (:func:`graphmem.guards.claims.split_claims`). A claim
is supported when some given memory entails it:

- offline (default): the cosine of the claim to the memory — to its stored embedding,
  or to one of its sentences when it has several — is at least
  ``faithfulness_similarity`` (0.80) **and** every number, date and named entity of
  the claim is present in that memory (its content, its event time, or — for a name —
  an entity the memory mentions under that name or an alias);
- with a :class:`~graphmem.guards.judge.ClaimJudge`: the judge's verdict, given the
  claim's closest memories.

Before embedding, a claim cut from its sentence gets its subject back (a leading
"she" / "his" becomes the earlier claim's name, :func:`graphmem.guards.claims.resolve_pronouns`)
and a first name the entity dictionary knows becomes the entity's full name
(:func:`canonical_names`), so the claim embeds like the memories that name it in full.
Each claim reports the memory that supports it (or the closest one) and why.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from graphmem.embedding import Embedder
from graphmem.entities import EntityDictionary
from graphmem.guards.claims import (
    ClaimTerms,
    claim_terms,
    is_critical,
    resolve_pronouns,
    risk_level,
    split_claims,
    text_words,
)
from graphmem.guards.judge import ClaimJudge
from graphmem.models import Memory
from graphmem.reports import ClaimCheck, FaithfulnessReport

__all__ = ["JUDGE_CANDIDATES", "canonical_names", "check_faithfulness", "missing_terms"]

#: Closest memories a judge is shown per claim.
JUDGE_CANDIDATES = 5

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True, slots=True)
class _Evidence:
    """What a memory offers a claim: its words, numbers and dates (content and event
    time) and the entity ids it mentions."""

    memory: Memory
    words: frozenset[str]
    terms: ClaimTerms
    entity_ids: frozenset[str]


def _evidence(memory: Memory) -> _Evidence:
    text = memory.content
    if memory.event_time is not None:
        when = memory.event_time
        text = f"{text} {when.day} {when:%B} {when.year} {when:%A}"
    return _Evidence(
        memory=memory,
        words=frozenset(text_words(text)),
        terms=claim_terms(text),
        entity_ids=frozenset(m.entity_id for m in memory.mentions),
    )


def missing_terms(
    terms: ClaimTerms, evidence: _Evidence, dictionary: EntityDictionary | None = None
) -> list[str]:
    """The claim's numbers, dates and names that ``evidence`` lacks (empty: all present).

    A name is present when its words are words of the memory, or when it resolves in
    ``dictionary`` to an entity the memory mentions (an alias, a first name)."""
    missing = sorted(terms.numbers - evidence.terms.numbers)
    missing += sorted(terms.dates - evidence.terms.dates)
    for name in terms.names:
        if text_words(name) <= evidence.words:
            continue
        hit = dictionary.resolve(name) if dictionary is not None else None
        if hit is not None and hit[0] in evidence.entity_ids:
            continue
        missing.append(name)
    return missing


def _similarities(
    claims: Sequence[str], memories: Sequence[Memory], embedder: Embedder
) -> np.ndarray:
    """(claims × memories) cosines: the best of the memory's own embedding and, for a
    memory of several sentences, each sentence's (a claim restates one of them)."""
    texts = list(claims)
    owners: list[int] = []
    for j, memory in enumerate(memories):
        sentences = [s for s in _SENTENCE.split(memory.content.strip()) if s.strip()]
        if memory.embedding is None:
            sentences = [memory.content, *sentences] if len(sentences) > 1 else [memory.content]
        elif len(sentences) < 2:
            continue
        texts.extend(sentences)
        owners.extend([j] * len(sentences))
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    claim_vectors = vectors[: len(claims)]
    sims = np.full((len(claims), len(memories)), -1.0, dtype=np.float32)
    for j, memory in enumerate(memories):
        if memory.embedding is not None:
            stored = np.asarray(memory.embedding, dtype=np.float32)
            norm = float(np.linalg.norm(stored)) or 1.0
            sims[:, j] = claim_vectors @ (stored / norm)
    for offset, j in enumerate(owners):
        column = claim_vectors @ vectors[len(claims) + offset]
        sims[:, j] = np.maximum(sims[:, j], column)
    return sims


def canonical_names(claim: str, dictionary: EntityDictionary) -> str:
    """``claim`` with each name that resolves to an entity under a shorter form (a first
    name, an alias) replaced by the entity's name ("Liam has 2 kids" → "Liam Brandt has
    2 kids"): the claim then embeds like the memories, which name the entity in full."""
    for name in claim_terms(claim).names:
        hit = dictionary.resolve(name)
        entity = None if hit is None else dictionary.get(hit[0])
        if entity is None or entity.name.casefold() == name.casefold():
            continue
        if name.casefold() in entity.name.casefold().split():
            claim = re.sub(rf"\b{re.escape(name)}\b(?!\s+{re.escape(entity.name.split()[-1])})",
                           entity.name, claim, count=1)  # fmt: skip
    return claim


def check_faithfulness(
    answer: str,
    memories: Sequence[Memory],
    embedder: Embedder,
    *,
    similarity: float,
    dictionary: EntityDictionary | None = None,
    judge: ClaimJudge | None = None,
) -> FaithfulnessReport:
    """Check ``answer`` against ``memories``; see the module docstring.

    Parameters
    ----------
    answer : str
        The agent's answer, as it would be shown.
    memories : sequence of Memory
        What the answer may rest on (embeddings used when present, else computed).
    embedder : Embedder
        Embeds the claims (and memory sentences); the store's model.
    similarity : float
        Offline cosine threshold, in [0, 1] (``Settings.guards.faithfulness_similarity``, docs/spec.md
        §10: 0.80).
    dictionary : EntityDictionary, optional
        The namespace's entities: a claim's name matches a memory mentioning the entity
        under another alias.
    judge : ClaimJudge, optional
        Decides each claim instead of the offline rule.

    Returns
    -------
    FaithfulnessReport
        Per claim: supported or not, critical or not, the memory and the reason;
        ``faithfulness`` in [0, 1] and the risk level.
    """
    claims = split_claims(answer)
    checked = resolve_pronouns(claims)
    if dictionary is not None:
        checked = [canonical_names(c, dictionary) for c in checked]
    evidence = [_evidence(m) for m in memories]
    sims = (
        _similarities(checked, memories, embedder)
        if claims and memories
        else np.zeros((len(claims), len(memories)), dtype=np.float32)
    )
    checks: list[ClaimCheck] = []
    for i, claim in enumerate(claims):
        terms = claim_terms(checked[i])
        critical = is_critical(checked[i], terms)
        order = sorted(range(len(memories)), key=lambda j: (-float(sims[i, j]), memories[j].id))
        if judge is not None:
            ordered = [memories[j] for j in order]
            by_id = {m.id: float(sims[i, j]) for j, m in enumerate(memories)}
            checks.append(_judged(judge, claim, checked[i], critical, ordered, by_id))
        else:
            checks.append(
                _offline(claim, terms, critical, order, evidence, sims[i], similarity, dictionary)
            )
    supported = sum(c.supported for c in checks)
    unsupported_critical = sum(1 for c in checks if not c.supported and c.critical)
    total = len(checks)
    return FaithfulnessReport(
        answer=answer,
        claims=tuple(checks),
        supported=supported,
        total=total,
        faithfulness=supported / total if total else 1.0,
        unsupported_critical=unsupported_critical,
        risk=risk_level(total - supported, unsupported_critical),
        method="offline" if judge is None else judge.name,
        memory_ids=tuple(m.id for m in memories),
    )


def _offline(
    claim: str,
    terms: ClaimTerms,
    critical: bool,
    order: Sequence[int],
    evidence: Sequence[_Evidence],
    sims: np.ndarray,
    threshold: float,
    dictionary: EntityDictionary | None,
) -> ClaimCheck:
    if not order:
        return ClaimCheck(
            claim=claim,
            supported=False,
            critical=critical,
            memory_id=None,
            similarity=None,
            reason="no memory to check against",
        )
    closest: tuple[int, list[str]] | None = None
    for j in order:
        sim = float(sims[j])
        if sim < threshold:
            break
        missing = missing_terms(terms, evidence[j], dictionary)
        if not missing:
            return ClaimCheck(
                claim=claim,
                supported=True,
                critical=critical,
                memory_id=evidence[j].memory.id,
                similarity=round(sim, 4),
                reason=f"memory says it (cosine {sim:.2f} >= {threshold:.2f}"
                + (", with every number, date and name)" if terms else ")"),
            )
        if closest is None:
            closest = (j, missing)
    if closest is not None:
        j, missing = closest
        sim = float(sims[j])
        return ClaimCheck(
            claim=claim,
            supported=False,
            critical=critical,
            memory_id=evidence[j].memory.id,
            similarity=round(sim, 4),
            missing=tuple(missing),
            reason=f"the closest memory (cosine {sim:.2f}) does not contain "
            + ", ".join(repr(m) for m in missing),
        )
    best = order[0]
    sim = float(sims[best])
    lacking = missing_terms(terms, evidence[best], dictionary)
    return ClaimCheck(
        claim=claim,
        supported=False,
        critical=critical,
        memory_id=evidence[best].memory.id,
        similarity=round(sim, 4),
        missing=tuple(lacking),
        reason=f"no memory says it: the closest has cosine {sim:.2f} < {threshold:.2f}"
        + (" and lacks " + ", ".join(repr(m) for m in lacking) if lacking else ""),
    )


def _judged(
    judge: ClaimJudge,
    claim: str,
    checked: str,
    critical: bool,
    ordered: Sequence[Memory],
    sims: dict[str, float],
) -> ClaimCheck:
    verdict = judge.judge_claim(checked, ordered[:JUDGE_CANDIDATES])
    memory_id = verdict.memory_id if verdict.memory_id in sims else None
    if memory_id is None and not verdict.supported and ordered:
        memory_id = ordered[0].id  # the closest, for the reader
    return ClaimCheck(
        claim=claim,
        supported=verdict.supported and memory_id is not None,
        critical=critical,
        memory_id=memory_id,
        similarity=None if memory_id is None else round(sims[memory_id], 4),
        reason=verdict.reason,
    )
