"""The memory a question is clearly most similar to comes first (docs/updates.md "At recall").

Weighted RRF fuses ranks, not scores: a memory the semantic retriever puts first by a
wide margin ("What's the name of Lucía's horse?" against "Lucía's horse is a criollo mare
called Canela", name-masked cosine 0.87, the next 0.62) counts the same as one first by a
hair, and a memory that BM25 or the temporal retriever puts first on a shared word or
date can land above it. :func:`semantic_lead` moves that memory to the front when its
name-masked cosine to the question leads every memory fused above it by at least
``semantic_lead_margin`` (``settings.read.rescoring``). It only reorders the memories a
recall returns (nothing enters or leaves them), and runs before the rules about the
asked attribute and newer claims, which still decide between a value and its update.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["LEAD_REASON", "semantic_lead"]

#: What ``recall --explain`` says of the memory the rule moved first.
LEAD_REASON = "moved up: by far the most similar to the question"


def semantic_lead(
    ids: Sequence[str], cosines: Mapping[str, float], depth: int, margin: float
) -> tuple[list[str], str | None]:
    """``ids`` with the clear semantic leader of its first ``depth`` moved first.

    Parameters
    ----------
    ids : sequence of str
        Memory ids, fused order, best first.
    cosines : mapping of str to float
        Name-masked cosine to the question per id, in [-1, 1] (the semantic retriever's
        scores); an id it does not hold counts as -1.
    depth : int
        How many of ``ids`` the rule looks at (the recall's k).
    margin : float
        The least lead over every memory fused above it, in cosine; 0 or less: off.

    Returns
    -------
    (list of str, str or None)
        The new order, and the id moved first (None when none was).
    """
    head = list(ids[:depth])
    if margin <= 0.0 or not cosines or len(head) < 2:
        return list(ids), None
    scores = [cosines.get(i, -1.0) for i in head]
    lead = max(range(len(head)), key=lambda j: (scores[j], -j))
    if lead == 0 or scores[lead] - max(scores[:lead]) < margin:
        return list(ids), None
    leader = head[lead]
    return [leader, *(i for i in ids if i != leader)], leader
