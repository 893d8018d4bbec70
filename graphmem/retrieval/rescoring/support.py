"""Session support: evidence that clusters in a session lifts that session's memories.

A memory recalled for a question is rarely alone: the turns around the answer,
and the other facts of the same conversation, are relevant too. After fusion,
each session gets the fused mass of its memories among the ``depth``
best-fused candidates, and every candidate gains ``weight ×`` the mass of its
session (a memory observed in several sessions: of their lenders, each counted
once). This is passage-level evidence in document retrieval, with a session as
the document. Within one session every memory gains the same, so the order
inside a session never changes; a memory of a session no strong candidate is
in keeps its fused score. Nothing is filtered.

Chosen on LoCoMo dev leave-one-conversation-out (``bench/calibrate.py``);
the numbers are in :class:`graphmem.settings.Settings` ``session_support``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Mapping


def session_support(
    scores: Mapping[str, float],
    sessions: Mapping[str, Collection[str]],
    *,
    weight: float,
    depth: int,
    above_chance: bool = False,
    noise: float = 0.0,
) -> dict[str, float]:
    """Support of each candidate from the best-fused candidates of its sessions.

    Parameters
    ----------
    scores : mapping of str to float
        Memory id → fused score (weighted RRF) ``>= 0``, the admitted candidates.
    sessions : mapping of str to collection of str
        Memory id → the sessions it was observed in (missing: none).
    weight : float
        Share of the session's fused mass added, ``>= 0``; 0 turns it off.
    depth : int
        How many of the best-fused candidates (score desc, id asc) lend support.
    above_chance : bool
        Count only what a session holds of the lenders' mass beyond its share of
        the candidates: a session holding 60% of the candidates is expected to hold
        60% of the best ones' mass, and only the excess is evidence. Without it,
        a namespace where one large session holds most memories (a person's first
        conversation) lifts that session's memories — stale ones included — above
        newer ones for every question. The excess is then scaled by the finite-
        population factor ``(N − d) / (N − 1)`` (``N`` candidates, ``d`` lenders):
        when the lenders are most of the candidates, holding many of them says
        little (all ``N`` lending says nothing).
    noise : float
        With ``above_chance``: first subtract ``noise`` standard deviations of the
        chance count (hypergeometric: a session holding share ``p`` of the ``N``
        candidates holds ``d·p ± sqrt(d·p·(1 − p)·(N − d)/(N − 1))`` of the ``d``
        lenders, each worth their mean score). In a namespace of a few sessions
        (one person's conversations: every memory a candidate for every question)
        some session always holds a little more than its share; that is no
        evidence. 0 (default) subtracts nothing.

    Returns
    -------
    dict of str to float
        Memory id → support ``> 0`` (ids without support are left out).

    Examples
    --------
    >>> scores = {"a": 0.3, "b": 0.2, "c": 0.1}
    >>> s = session_support(scores, {"a": ["s1"], "b": ["s1"], "c": ["s2"]}, weight=0.5, depth=2)
    >>> {k: round(v, 3) for k, v in sorted(s.items())}
    {'a': 0.25, 'b': 0.25}
    """
    if weight <= 0.0 or depth < 1:
        return {}
    top = sorted(scores, key=lambda m: (-scores[m], m))[:depth]
    lenders: dict[str, set[str]] = defaultdict(set)
    for m in top:
        for session in sessions.get(m, ()):
            lenders[session].add(m)
    excess: dict[str, float] = {}
    if above_chance:
        members: dict[str, int] = defaultdict(int)
        for m in scores:
            for session in sessions.get(m, ()):
                members[session] += 1
        total, size, lent_n = sum(scores[m] for m in top), len(scores), len(top)
        finite = (size - lent_n) / (size - 1) if size > 1 else 0.0
        for session, lent in lenders.items():
            share = members[session] / size
            spread = math.sqrt(lent_n * share * (1.0 - share) * finite) * total / lent_n
            gain = sum(scores[m] for m in lent) - share * total - noise * spread
            excess[session] = max(0.0, gain * finite)
    out: dict[str, float] = {}
    for m in scores:
        mine_sessions = [s for s in sessions.get(m, ()) if s in lenders]
        if above_chance:
            gain = weight * max((excess[s] for s in mine_sessions), default=0.0)
        else:
            mine = set().union(*(lenders[s] for s in mine_sessions))
            gain = weight * sum(scores[o] for o in mine)
        if gain > 0.0:
            out[m] = gain
    return out
