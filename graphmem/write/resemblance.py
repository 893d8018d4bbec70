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
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from graphmem.language.attributes import is_eventlike, primary
from graphmem.models.memories import Memory
from graphmem.write.about import keeps_safe

__all__ = ["resembled", "shift_cue", "vector_cosines"]

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
    "sold", "switched", "handed in")? The strict list of docs/updates.md "Updates by
    resemblance"."""
    return _SHIFT.search(text) is not None


def vector_cosines(memory: Memory, others: Sequence[Memory]) -> dict[str, float]:
    """The cosine (in [-1, 1]) of each of ``others`` that carries its embedding to
    ``memory``'s, by id (the subject's memories are read with their vectors)."""
    if memory.embedding is None:
        return {}
    mine = np.asarray(memory.embedding, dtype=np.float64)
    out: dict[str, float] = {}
    for other in others:
        if other.embedding is not None:
            theirs = np.asarray(other.embedding, dtype=np.float64)
            norms = float(np.linalg.norm(mine) * np.linalg.norm(theirs))
            out[other.id] = float(mine @ theirs) / norms if norms > 0 else 0.0
    return out


def resembled(
    memory: Memory,
    older: Sequence[Memory],
    cosines: Callable[[Sequence[Memory]], Mapping[str, float]],
    floor: float,
    margin: float,
) -> tuple[Memory, str] | None:
    """The older claim ``memory`` updates by resemblance, with why, or ``None``.

    ``memory``: a claim, neither a transcript turn nor a one-off event (the caller
    checks). ``older``: current, older claims about the same subject that no rule
    related to ``memory`` (the caller checks). ``cosines`` gives their cosines to
    ``memory`` by id (:func:`vector_cosines`); it is asked only for the claims that
    may take part. ``floor`` and ``margin`` are cosines in [0, 1] (docs/updates.md
    "Updates by resemblance"). ``None`` when ``memory`` has no embedding, a triple or
    no change word, when it keeps someone safe, or when no claim is clearly the
    nearest; claims given as triples are left to the triple rules.
    """
    if memory.embedding is None or memory.predicate or not shift_cue(memory.content):
        return None  # a claim given as a triple says its attribute: the triple rules decide
    if keeps_safe(memory):
        return None
    mine = primary(memory.content)
    candidates = [
        other
        for other in older
        if not other.predicate
        and not is_eventlike(other.content)
        and not keeps_safe(other)
        # the rules read both: two attributes, or an addition to one
        and (mine is None or primary(other.content) is None)
    ]
    if len(candidates) < 2:
        return None  # nearest among one: no evidence that it is the one it updates
    found = cosines(candidates)
    scored = sorted((-found[o.id], o.id, o) for o in candidates if o.id in found)
    if len(scored) < 2:
        return None
    best, runner_up, nearest = -scored[0][0], -scored[1][0], scored[0][2]
    if best < floor or best - runner_up < margin:
        return None
    return nearest, (
        f"the older claim about the subject it resembles most (cosine {best:.2f}, the next"
        f" {runner_up:.2f}), the newer one with a change word"
    )
