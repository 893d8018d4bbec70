"""Updates no rule names, found by resemblance (docs/updates.md "Updates by
resemblance").

The attribute rules (:mod:`graphmem.language.attributes`) know where someone lives,
works, what they are called, their diet …; people say what changed in many more ways:
"Made senior ranger! I run the biodiversity team now." after "Ranger, for eleven years
now."; "The Kombi finally died and Rafael bought a Fiat Strada pickup instead." after
"Rafael drives an old VW Kombi to the market." When no rule decides, a newer claim
that carries a change word (read strictly) updates the one older claim of its subject
that it resembles clearly most: the two embeddings' cosine at least
``settings.write.resemblance_floor`` and ahead of the next-nearest by
``settings.write.resemblance_margin``. Claims the rules read as two attributes stay
two; one-off events, claims given as triples, and what keeps a person safe
(allergies, diet, medication, health) are never updated this way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from graphmem.language.attributes import attributes_of, is_eventlike, primary
from graphmem.language.endings import ending_cue
from graphmem.language.questions import SAFETY
from graphmem.models.memories import Memory

__all__ = ["resembled", "shift_cue"]

#: words that say a state changed, read strictly: "not", "from" or "took" are in too
#: many sentences that change nothing ("a gift from Nate", "took her kids to a park").
_SHIFT = re.compile(
    r"\b(?:no longer|anymore|any more|no more|instead|(?<!for )now|these days|switched|changed|"
    r"moved|left|quit|stopped|gave up|given up|sold|dropped|hung up|cancell?ed|"
    r"handed (?:in|back)|as of|promoted|bumped)\b",
    re.IGNORECASE,
)


def shift_cue(text: str) -> bool:
    """Does ``text`` say that something changed ("now", "no longer", "instead",
    "sold", "switched", "handed in")?"""
    return _SHIFT.search(text) is not None


def _unit(vector: Sequence[float]) -> np.ndarray:
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def _keeps_safe(text: str) -> bool:
    return any(a.key in SAFETY for a in attributes_of(text))


def resembled(
    memory: Memory, older: Sequence[Memory], floor: float, margin: float
) -> tuple[Memory, str] | None:
    """The older claim ``memory`` updates by resemblance, with why, or ``None``.

    ``older``: current, older claims about the same subject that no rule related to
    ``memory`` (the caller checks). ``floor`` and ``margin`` are cosines in [0, 1]
    (docs/updates.md "Updates by resemblance"). ``None`` when ``memory`` has no
    embedding, a triple or no change word, when it keeps someone safe, or when no
    claim is clearly the nearest; claims given as triples are left to the triple rules.
    """
    if memory.embedding is None or memory.predicate or not shift_cue(memory.content):
        return None  # a claim given as a triple says its attribute: the triple rules decide
    if is_eventlike(memory.content) and not ending_cue(memory.content):
        return None
    if _keeps_safe(memory.content):
        return None
    mine = primary(memory.content)
    vector = _unit(memory.embedding)
    scored: list[tuple[float, str, Memory]] = []
    for other in older:
        if other.embedding is None or other.predicate or is_eventlike(other.content):
            continue
        if _keeps_safe(other.content):
            continue
        if mine is not None and primary(other.content) is not None:
            continue  # the rules read both: two attributes, or an addition to one
        scored.append((float(vector @ _unit(other.embedding)), other.id, other))
    if len(scored) < 2:
        return None  # nearest among one: no evidence that it is the one it updates
    scored.sort(key=lambda row: (-row[0], row[1]))
    best, _, found = scored[0]
    runner_up = scored[1][0]
    if best < floor or best - runner_up < margin:
        return None
    return found, (
        f"the older claim about the subject it resembles most (cosine {best:.2f}, the next"
        f" {runner_up:.2f}), the newer one with a change word"
    )
