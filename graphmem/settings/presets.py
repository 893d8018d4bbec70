"""Named presets: sets of setting values the defaults replaced, kept so that the
measurements behind each departure can be re-run and compared (``docs/scoring.md``).

A preset is a mapping of flat setting names to values; ``Settings.preset(name,
**overrides)`` builds settings from it (overrides win). The variants these presets name
stay selectable one by one as well (``freshness_mode="weight"`` ...): tests and benchmarks
check them against the defaults.
"""

from __future__ import annotations

from typing import Any

#: docs/spec.md §3's fusion constants: RRF k 60, retriever weights 1 / 1 / 1 / 1 / 0.8,
#: entity weight 2.0 in the entity-centric plan, temporal 1.5 in the temporal-anchored
#: one, no session support (a project addition).
SPEC_FUSION: dict[str, Any] = {
    "rrf_k": 60,
    "retriever_weights": {
        "semantic": 1.0,
        "bm25": 1.0,
        "entity": 1.0,
        "temporal": 1.0,
        "graph": 0.8,
    },
    "entity_centric_weight": 2.0,
    "temporal_anchored_weight": 1.5,
    "session_support": 0.0,
}
#: docs/spec.md §3's final weight: RRF × freshness × access boost.
SPEC_FINAL_WEIGHT: dict[str, Any] = {"freshness_mode": "weight", "access_mode": "weight"}
#: docs/spec.md §3's graph traversal alone: hop score × weakest link, no concept walk.
SPEC_GRAPH: dict[str, Any] = {"graph_traversal": "classic", "graph_concepts": False}

#: name -> (what it is, the flat settings it sets).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "spec": (
        "The read pipeline as docs/spec.md §3 gives it: spec_fusion, spec_final_weight"
        " and spec_graph together.",
        {**SPEC_FUSION, **SPEC_FINAL_WEIGHT, **SPEC_GRAPH},
    ),
    "spec_fusion": (
        "docs/spec.md §3's fusion: RRF k 60, weights 1 / 1 / 1 / 1 / 0.8, plan weights"
        " 2.0 and 1.5, no session support.",
        SPEC_FUSION,
    ),
    "spec_final_weight": (
        "docs/spec.md §3's final weight: freshness and the access boost multiply the RRF"
        " weight (LoCoMo dev R@10 0.42 vs 0.56 on turns; the lifecycle bench's lock-in).",
        SPEC_FINAL_WEIGHT,
    ),
    "spec_graph": (
        "docs/spec.md §3's graph traversal alone (every one-hop neighbour ties), no concept walk.",
        SPEC_GRAPH,
    ),
    "session_support_mass": (
        "Session support lends a session all its mass among the best candidates, not only"
        " what is above chance (LoCoMo dev R@10 turns 0.695 either way).",
        {"session_support_mode": "mass"},
    ),
    "concept_seeds_nearest": (
        "The concept walk seeds from the raw cosine's nearest memories, not the semantic"
        " list (LoCoMo dev R@10 turns 0.758 vs 0.769).",
        {"graph_concept_seed_source": "nearest"},
    ),
}
