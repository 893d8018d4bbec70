"""Shared data of the lifecycle suites: memories about Ada's workshop whose pairwise
cosines (numpy, the test embedder) put some pairs above the consolidation threshold."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from graphmem.models import Memory
from graphmem.store.base import association
from graphmem.text import entity_id
from tests.contract.builders import T0, cosine, make_memory

ADA = entity_id("Ada")
BOB = entity_id("Bob")


def ada(ns: str, content: str, **fields: Any) -> Memory:
    """A memory whose subject is Ada."""
    return make_memory(ns, content, mentions=[(ADA, "subject")], **fields)


TEXTS = {
    "day": "Ada builds looms in her workshop every day",
    "night": "Ada builds looms in her workshop every night",
    "old": "Ada builds looms in her old workshop",
    "evening": "Ada builds looms in her workshop every evening",
    "bob": "Ada builds looms in her workshop",
    "opera": "Ada likes opera music",
    "again": "Ada builds looms in her workshop every day again",
}


def workshop(ns: str) -> dict[str, Memory]:
    """Memories about Ada's workshop. Pairwise cosines (numpy, test embedder): day-night
    0.870, day-old 0.791, day-evening 0.870, night-old 0.802, night-evening 0.875,
    old-evening 0.802; "bob" is >= 0.85 to day/night but mentions only Bob; "opera" is
    below 0.3 to all; "again" is superseded; "evening" is cold and unretrievable (last
    observed 400 days ago: Fact freshness 2^(-400/180) = 0.214 < θ(0.8) = 0.3)."""
    made = {key: ada(ns, text) for key, text in TEXTS.items() if key not in {"bob", "evening"}}
    made["bob"] = make_memory(ns, TEXTS["bob"], mentions=[(BOB, "subject")])
    made["evening"] = ada(
        ns,
        TEXTS["evening"],
        observed_at=T0 - timedelta(days=400),
        tier="cold",
        retrievable=False,
    )
    made["again"] = made["again"].model_copy(update={"superseded_by": made["day"].id})
    return made


LINKED = [("day", "night"), ("day", "old"), ("day", "evening")]
LINKED += [("night", "old"), ("night", "evening"), ("old", "evening")]


def expected_links(made: dict[str, Memory]) -> list[tuple[str, str]]:
    """The (source_id, target_id) pairs the consolidation pass must link, sorted."""
    for x, y in LINKED:
        assert cosine(TEXTS[x], TEXTS[y]) >= 0.75  # the data is what the docstring says
    for x in ("day", "night"):
        assert cosine(TEXTS[x], TEXTS["bob"]) >= 0.75
    pairs = [association(made[x].id, made[y].id, 0.0) for x, y in LINKED]
    return sorted((p.source_id, p.target_id) for p in pairs)
