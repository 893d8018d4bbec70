"""Question-side relation linking: entities a question names through a relation ("Maya's
sister" → Priya Raman when ``Maya —SISTER_OF→ Priya Raman`` is stored; docs/spec.md §3
"Graph traversal"). The recall pipeline follows them before it plans
(:func:`follow_relations`); the graph retriever walks from the entities they link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.entities import EntityDictionary, EntityLink
from graphmem.language.predicates import role_match
from graphmem.language.words import FUNCTION_WORDS
from graphmem.models import Relation
from graphmem.store.base import MemoryStore

__all__ = ["follow_relations", "relational_links"]

# "Maya's sister", and "my brother" where "my" links the namespace's user
# (the noun is looked ahead: "what's my brother" holds "'s my" and "my brother")
_POSSESSIVE_NOUN = re.compile(r"(?P<mark>['’]s|\b(?i:my|our))\s+(?=(\w+))")


def relational_links(
    store: MemoryStore,
    namespace: str,
    text: str,
    links: Sequence[EntityLink],
    dictionary: EntityDictionary | None = None,
) -> tuple[EntityLink, ...]:
    """Entities the question names through a relation: "Maya's sister" → Priya Raman
    when ``Maya —SISTER_OF→ Priya Raman`` is stored ("my brother" from the user that "my"
    links), and chained: "Maya's sister's manager" → the manager of Priya Raman (one
    1-hop subgraph query per possessive on a linked name; none when the question has no
    "X's <noun>" or "my <noun>" on one).

    Each link's confidence is ``min(owner's link confidence, relation confidence)``;
    its surface is the phrase ("Maya's sister (Priya Raman)"). Entities already
    linked are skipped. Use :func:`follow_relations` for the question's links with
    these in place of their owners.
    """
    # surface (case-folded, as written in the question) -> the link it names
    by_surface = {link.surface.casefold(): link for link in links}
    have = {link.entity_id for link in links}
    out: dict[str, EntityLink] = {}
    around: dict[str, list[Relation]] = {}  # one subgraph read per owner ("my sister and my son")
    for match in _POSSESSIVE_NOUN.finditer(text):
        mark = match.group("mark")
        end = match.start() if mark.startswith(("'", "’")) else match.end("mark")
        before, noun = text[:end].casefold(), match.group(2).lower()
        if noun in FUNCTION_WORDS:
            continue
        key = next(
            (k for k in sorted(by_surface, key=len, reverse=True) if before.endswith(k)), None
        )
        if key is None:
            continue
        owner = by_surface[key]
        best: EntityLink | None = None
        if owner.entity_id not in around:
            around[owner.entity_id] = store.relation_subgraph(namespace, [owner.entity_id], 1)
        for r in around[owner.entity_id]:
            if not role_match(r.predicate, noun):
                continue
            other = r.target_id if r.source_id == owner.entity_id else r.source_id
            if other == owner.entity_id or other in have:
                continue
            confidence = min(owner.confidence, r.confidence)
            forward = r.source_id == owner.entity_id
            # "Hiro's manager" is Hiro —MANAGED_BY→ Lena, not Alice —MANAGED_BY→ Hiro:
            # a relation from the owner wins over one into it
            if best is None or (forward, confidence, other) > (
                best.via_forward,
                best.confidence,
                best.entity_id,
            ):
                entity = dictionary.get(other) if dictionary is not None else None
                best = EntityLink(
                    other,
                    _phrase(owner, noun) + (f" ({entity.name})" if entity else ""),
                    confidence,
                    via=r.predicate,
                    owner=owner.entity_id,
                    via_forward=forward,
                    via_memory=r.memory_id,
                )
        if best is not None:
            out[best.entity_id] = best
            # "Maya's sister's manager": the phrase as written now names the sister
            by_surface[key + text[end : match.end(2)].casefold()] = best
    return tuple(out.values())


def _phrase(owner: EntityLink, noun: str) -> str:
    surface = owner.surface.split(" (")[0]
    return f"{surface} {noun}" if surface.casefold() in ("my", "our") else f"{surface}'s {noun}"


def follow_relations(
    store: MemoryStore,
    namespace: str,
    text: str,
    links: Sequence[EntityLink],
    dictionary: EntityDictionary | None = None,
) -> tuple[EntityLink, ...]:
    """The question's links, where "Maya's sister" names Priya Raman through a stored
    relation, with Priya Raman in Maya's place: the question is about the sister
    (Maya's memories matter only as the relation's evidence, which the graph
    retriever returns). Links without such a relation are returned unchanged."""
    related = relational_links(store, namespace, text, links, dictionary)
    if not related:
        return tuple(links)
    owners = {link.owner for link in related}
    return tuple(link for link in links if link.entity_id not in owners) + related
