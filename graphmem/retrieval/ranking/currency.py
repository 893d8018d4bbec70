"""A newer claim outranks the older claim it contradicts (docs/spec.md §9.9 at read time).

The write path supersedes a contradicted memory when it sees the conflict
(same subject and predicate, or a near-duplicate the compatibility rule of
docs/spec.md §9.10 rejects). Many updates escape it: "Jonah is a paramedic at Northwind
Health" and "Jonah started a new job at Quarry Lane Studio" embed at cosine
0.41, far below any dedup threshold, and without triples nothing ties them.
Both stay current, and a question about Jonah's work finds both.

At read time the question ties them: when two memories a recall returns
contradict each other by the compatibility rule (same subject, another value:
:func:`graphmem.language.claims.check`), the one observed later is the one that
holds now (§9.9: updates win ties), so it is moved directly above the older
one — provided both state one named attribute (the same predicate, or the same
attribute read from their text: :mod:`graphmem.language.attributes`) and the newer
answers the question nearly as well: its cosine to the question is at most
``margin`` below the older one's. A newer memory about
something else (a weaker match: "Jonah enjoys cycling" for "where does Jonah
work?") stays where it is. Two claims close to each other (cosine at least
``near``: docs/spec.md §10's consistency-scan pair, default ``consolidation_similarity``)
need no help from the question: "Yuki is vegan" and "Yuki is not vegan anymore
and eats dairy again" are one attribute whatever the question, though the
shorter one matches "Is Yuki vegan?" better by 0.11. Both must be about the
same subject (:func:`same_slot`). Only order inside the returned window
changes; nothing is filtered (the older memory stays, below).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

import numpy as np
import numpy.typing as npt

from graphmem.language.attributes import (
    Attribute,
    attributes_of,
    is_eventlike,
    primary,
    update_cue,
)
from graphmem.language.claim_reading import features
from graphmem.language.claims import Claim, Reason, check, same_subject, subject_of
from graphmem.language.endings import ending_cue, ends, of_the_past, strong_ending, wrong_value
from graphmem.language.triples import triple_attribute
from graphmem.retrieval.rescoring.masking import MaskedEmbeddings, mask_names
from graphmem.store.base import Vector
from graphmem.text import normalize

__all__ = ["prefer_newer", "same_slot", "subject_masked"]


def same_slot(a: Claim, b: Claim) -> bool:
    """Could ``a`` and ``b`` be two values of one attribute of one subject?

    They must be about the same subject (:func:`graphmem.language.claims.same_subject`:
    "Alma works with Tomas" is about Alma, "Tomas is dating Reza now" about
    Tomas — two subjects, nothing to prefer), and when both carry a predicate,
    the same one. Which attribute a plain-text claim states is left to the
    question (see :func:`prefer_newer`'s ``margin``).

    >>> same_slot(Claim("Tomas lives in Boston."), Claim("Tomas lives in Denver now."))
    True
    >>> same_slot(Claim("Alma works with Tomas.", names=("Alma", "Tomas")),
    ...           Claim("Tomas is dating Reza now.", names=("Tomas", "Reza")))
    False
    """
    if not same_subject(a, b):
        return False
    if is_eventlike(a.content) and is_eventlike(b.content):
        return False  # two one-off events at their own times (docs/spec.md §9.15)
    first, second = primary(a.content), primary(b.content)
    if first is not None and second is not None and first.key != second.key:
        return False  # two attributes of one person ("lives in" / "works at")
    if a.predicate and b.predicate:
        key = [normalize(p.replace("_", " ").replace("-", " ")) for p in (a.predicate, b.predicate)]
        return key[0] == key[1]
    return True


def prefer_newer(
    order: Sequence[str],
    claims: Mapping[str, Claim],
    observed: Mapping[str, datetime],
    closeness: Mapping[str, float],
    *,
    margin: float,
    vectors: Mapping[str, npt.NDArray[np.float32]] | None = None,
    near: float = 1.0,
    related: float = -1.0,
    related_vectors: Mapping[str, npt.NDArray[np.float32]] | None = None,
    present: bool = False,
    masked_near: float = 1.1,
    asked: frozenset[str] = frozenset(),
    voted: Mapping[str, str] | None = None,
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
        one's minus ``margin`` ...
    vectors : mapping of str to ndarray, optional
        ... or when the two claims' unit embeddings have cosine ``>= near``
        (ids without a vector: the question decides alone).
    near : float
        In [-1, 1]; 1 (default) leaves the question to decide every pair.
    related : float
        In [-1, 1]: when the question decides, the two claims' cosine must be at
        least this (two claims of one person about different things — "Marcus's
        phone number is now 555-0735" / "Marcus lives in Toronto now" — are far
        apart even when a vague question matches both alike). -1 (default): no
        test; ids without a vector pass.
    related_vectors : mapping of str to ndarray, optional
        The vectors the ``related`` test compares (default: ``vectors``): the claims
        with their subject's name masked (:mod:`graphmem.retrieval.rescoring.masking`), since
        two claims about one person are close by the name alone.
    present : bool
        The question asks about the present ("now", "these days", "still":
        :func:`graphmem.language.questions.asks_present`): then a newer claim of the
        same subject that answers it nearly as well moves above the older one even
        where no attribute or conflict is recognised — what holds now is what the
        question wants.
    masked_near : float
        Two claims whose ``related_vectors`` have cosine at least this say nearly the
        same thing of their subject ("On Sundays I teach English at the pagoda" / "I
        had to give up the Sunday class at the pagoda"): the newer then moves up
        however much better the question matches the older (no ``margin`` test); the
        other tests still apply. Above 1 (default): the margin always applies. The
        ranker passes the setting ``update_rank_masked_near`` for a question about the
        present only (``present``).
    asked : frozenset of str
        The attributes the question asks for (``"employer"``, ...; empty: any). A newer
        claim known to state another attribute and none of them does not move: "As of
        this month I'm charge nurse on ICU nights" (a job title) stays below "Took the
        ICU job at the university hospital in Wrocław" for "Which hospital am I
        working at these days?" (:func:`_off_the_question`).
    voted : mapping of str to str, optional
        The attribute each id's nearest labeled examples give
        (:meth:`~graphmem.retrieval.ranking.attribute_examples.AttributeExamples.votes`):
        a newer claim the patterns read nothing from but the examples read another
        attribute from is off the question too ("Swapped the football for sailing:
        joined a club in Gdańsk" for "Which city am I living in these days?").

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
    alike = vectors if related_vectors is None else related_vectors
    moved: dict[str, str] = {}
    i = 0
    while i < len(out):
        older = out[i]
        found = None
        for j in range(i + 1, len(out) if older in claims else i + 1):
            newer = out[j]
            if newer not in claims or observed[newer] <= observed[older]:
                continue
            if not same_slot(claims[older], claims[newer]):
                continue
            if _off_the_question(claims[newer], asked, (voted or {}).get(newer)):
                continue
            if present and of_the_past(claims[newer].content):
                continue  # "in Toronto I taught at Malvern": no answer to "now"
            if present and _ended_elsewhere(claims[older], claims[newer]):
                continue  # "no longer on the camogie team" is what holds now of camogie
            if not _near(vectors, older, newer, near) and (
                not (present or _one_attribute(claims[older], claims[newer]))
                or (
                    closeness.get(newer, -1.0) < closeness.get(older, -1.0) - margin
                    and not _near(alike, older, newer, masked_near)
                )
                or not _near(alike, older, newer, related, missing=True)
            ):
                continue
            reason = check(claims[older], claims[newer]).reason
            if reason is Reason.NEGATION and _wrong_elsewhere(claims[older], claims[newer]):
                reason = None  # "Lan's bakery is Lan Bakehouse, not Bánh Lan" / her allergy
            if present or (reason is not None and reason.is_conflict):
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


def _one_attribute(a: Claim, b: Claim) -> bool:
    """Do ``a`` and ``b`` state one named attribute: the same predicate, or the same
    attribute read from their text (:func:`graphmem.language.attributes.primary`)? Only
    then may the question decide that they are two values of it (one at a time: a
    single-valued attribute); where the patterns know the attribute of neither, the
    newer (``b``) must say that something changed ("now", "no longer", "instead",
    :func:`~graphmem.language.attributes.update_cue`); two claims of one
    person that name no attribute ("I still drive a little red Fiesta" / "I've kept
    racing pigeons since I was a boy") must be near each other themselves."""
    if a.predicate and b.predicate:
        return True  # same_slot has compared them
    first, second = _stated(a.content), _stated(b.content)
    if first is None and second is None:
        # an attribute the word patterns do not know: the newer must say it changes
        # something ("Kwame works for Oyo Ledger now"), and an ending must end something
        # the older says ("isn't dancing with the fraternidad anymore" ends no "has one
        # older sister, Rosa")
        if not update_cue(b.content):
            return False
        if not strong_ending(b.content):
            return True
        people = frozenset(w.casefold() for name in (*a.names, *b.names) for w in name.split())
        return ends(b.content, a.content, exclude=people) is not None
    if first is None or second is None:
        return False  # one states a known attribute, the other something else
    # a multi-valued one ("allergic to bee stings" / "the bee sting allergy") has many
    # values at once: two of them are no update
    return first.key == second.key and first.single


# "…, not Bánh Lan", "… – not the 14th": a value named as wrong, after a comma or a dash
_CONTRAST = re.compile(
    r"(?:,|\s[—–-])\s*not\s+(?!(?:only|just|even|yet|until|any ?more|any longer)\b)"
    r"(?:an?\s+|the\s+)?[\w'’-]+(?:\s+[\w'’-]+){0,3}",
    re.IGNORECASE,
)


def _wrong_elsewhere(older: Claim, newer: Claim) -> bool:
    """Is ``newer``'s only negation a value it names as wrong ("Correction: Lan's bakery
    is called Lan Bakehouse, not Bánh Lan") that ``older`` does not hold
    (:func:`~graphmem.language.endings.wrong_value`)? Then it negates nothing ``older``
    says ("Anything with mango is off-limits for Lan"), and is no conflict with it."""
    if _CONTRAST.search(newer.content) is None:
        return False
    if features(Claim(_CONTRAST.sub(" ", newer.content))).negated:
        return False  # another negation ("no longer …, not the Metropole")
    return wrong_value(newer.content, older.content) is None


def _ended_elsewhere(older: Claim, newer: Claim) -> bool:
    """Is ``older`` an ending ("Fiona tore her ACL and is no longer on the camogie team")
    that ``newer`` does not bear on ("Fiona has moved in with Aoife out in Moycullen")?
    The ending is the present state of what it ends: a newer claim about something else
    does not move above it for a question about the present."""
    return ending_cue(older.content) and not _one_attribute(older, newer)


def _off_the_question(newer: Claim, asked: frozenset[str], voted: str | None = None) -> bool:
    """Is ``newer`` known to be about something other than what the question asks
    (``asked``, attribute keys): it states an attribute the patterns know and none of
    ``asked``? False when nothing is asked. (One in words the patterns do not know —
    "Wanjiru is off the planes: she trains new cabin crew" for her job — may still be
    the asked attribute's new value, unless its nearest examples, ``voted``, say another.)"""
    if not asked or _states(newer, asked):
        return False
    if _stated(newer.content) is not None:
        return True
    # the examples tell a university job from studying at one no better than the patterns
    return voted is not None and voted not in asked and not (_NEAR_KEYS.get(voted, set()) & asked)


# attributes the nearest examples confuse: a post at a university reads as school
_NEAR_KEYS = {"school": {"employer", "job_title"}, "employer": {"school"}, "job_title": {"school"}}


def _states(claim: Claim, keys: frozenset[str]) -> bool:
    """Does ``claim`` state one of the attributes ``keys``, by its text or its triple?"""
    given = triple_attribute(claim.predicate, claim.object)
    if given is not None and given.key in keys:
        return True
    return any(a.key in keys for a in attributes_of(claim.content))


def _stated(text: str) -> Attribute | None:
    """The claim's primary attribute, else any attribute it states (a health claim,
    "no sesame for Chloe, it's a proper allergy", is about something known too)."""
    found = primary(text)
    if found is None:
        stated = attributes_of(text)
        found = stated[0] if stated else None
    return found


def _near(
    vectors: Mapping[str, npt.NDArray[np.float32]] | None,
    a: str,
    b: str,
    near: float,
    *,
    missing: bool = False,
) -> bool:
    """Cosine of ``a`` and ``b`` at least ``near`` (``missing`` when a vector is not
    given)."""
    if vectors is None or a not in vectors or b not in vectors:
        return missing
    return float(np.dot(vectors[a], vectors[b])) >= near


def subject_masked(
    masked: MaskedEmbeddings | None, claims: Mapping[str, Claim], stored: Mapping[str, Vector]
) -> dict[str, Vector] | None:
    """Each claim's unit vector with its subject's name masked (``masked`` caches them):
    whether two claims of one person are related is then not decided by the name they
    share (:func:`prefer_newer`'s ``related_vectors``). A claim whose text masking leaves
    unchanged keeps its ``stored`` vector (the embedding of that same text). None without
    a :class:`~graphmem.retrieval.rescoring.masking.MaskedEmbeddings` (the stored vectors
    decide)."""
    if masked is None or not claims:
        return None
    out: dict[str, Vector] = {}
    texts: dict[str, str] = {}
    for mid, claim in claims.items():
        subject = subject_of(claim)
        text = mask_names(claim.content, [" ".join(subject)] if subject else [])
        if text == claim.content and mid in stored:
            out[mid] = stored[mid]
        else:
            texts[mid] = text
    if texts:
        out.update(zip(texts, masked.embed(list(texts.values())), strict=True))
    return out
