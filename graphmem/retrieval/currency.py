"""A newer claim outranks the older claim it contradicts (SPEC §9.9 at read time).

The write path supersedes a contradicted memory when it sees the conflict
(same subject and predicate, or a near-duplicate the compatibility rule of
SPEC §9.10 rejects). Many updates escape it: "Jonah is a paramedic at Northwind
Health" and "Jonah started a new job at Quarry Lane Studio" embed at cosine
0.41, far below any dedup threshold, and without triples nothing ties them.
Both stay current, and a question about Jonah's work finds both.

At read time the question ties them: when two memories a recall returns
contradict each other by the compatibility rule (same subject, another value:
:func:`graphmem.write.compat.check`), the one observed later is the one that
holds now (§9.9: updates win ties), so it is moved directly above the older
one — provided it answers the question nearly as well: its cosine to the
question is at most ``margin`` below the older one's. A newer memory about
something else (a weaker match: "Jonah enjoys cycling" for "where does Jonah
work?") stays where it is. Only order inside the returned window changes;
nothing is filtered (the older memory stays, below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from graphmem.write.compat import Claim, check

__all__ = ["prefer_newer"]


def prefer_newer(
    order: Sequence[str],
    claims: Mapping[str, Claim],
    observed: Mapping[str, datetime],
    closeness: Mapping[str, float],
    *,
    margin: float,
) -> tuple[list[str], dict[str, str]]:
    """Move each newer contradicting claim directly above the older one it contradicts.

    Parameters
    ----------
    order : sequence of str
        Memory ids, best first.
    claims : mapping of str to Claim
        The claim (text and triple) of each id the rule applies to; ids left out
        (verbatim source text such as a dialogue turn, which is not one claim)
        neither move nor are moved past.
    observed : mapping of str to datetime
        Each id's last independent observation (timezone-aware).
    closeness : mapping of str to float
        Each id's cosine to the question (missing: not a semantic match, -1).
    margin : float
        A newer claim moves up only when its closeness is at least the older
        one's minus ``margin``.

    Returns
    -------
    (list of str, dict of str to str)
        The new order, and each moved id → the older id it now ranks above.

    Examples
    --------
    >>> from datetime import UTC, datetime
    >>> claims = {"a": Claim("Sam's birthday is on 14 August"),
    ...           "b": Claim("Sam likes tea"),
    ...           "c": Claim("Sam's birthday is on 15 August")}
    >>> when = {"a": datetime(2025, 1, 1, tzinfo=UTC), "b": datetime(2025, 1, 1, tzinfo=UTC),
    ...         "c": datetime(2025, 6, 1, tzinfo=UTC)}
    >>> prefer_newer(["a", "b", "c"], claims, when, {"a": 0.62, "b": 0.3, "c": 0.6}, margin=0.05)
    (['c', 'a', 'b'], {'c': 'a'})
    """
    out = list(order)
    moved: dict[str, str] = {}
    i = 0
    while i < len(out):
        older = out[i]
        found = None
        for j in range(i + 1, len(out) if older in claims else i + 1):
            newer = out[j]
            if newer not in claims or observed[newer] <= observed[older]:
                continue
            if closeness.get(newer, -1.0) < closeness.get(older, -1.0) - margin:
                continue
            reason = check(claims[older], claims[newer]).reason
            if reason is not None and reason.is_conflict:
                found = j
                break
        if found is None:
            i += 1
            continue
        newer = out.pop(found)
        out.insert(i, newer)
        moved[newer] = older
        # position i now holds a strictly newer memory: re-examine it (terminates)
    return out, moved
