"""Pure scoring functions: every formula of docs/spec.md §2–§4 as a small function.

Nothing here does I/O or reads settings: every constant is a keyword-only
argument that the caller fills from :class:`graphmem.settings.Settings`.
Invalid inputs raise :class:`ValueError` naming the argument.

- :mod:`~graphmem.scoring.confidence` — write-time confidence (§2).
- :mod:`~graphmem.scoring.fusion` — weighted RRF (§3).
- :mod:`~graphmem.scoring.ranking` — freshness, access boost, final weight, gates (§3, §4).
- :mod:`~graphmem.scoring.traversal` — graph traversal scores, query specificity (§3).
- :mod:`~graphmem.scoring.mmr` — MMR diversity re-ranking (§3).
- :mod:`~graphmem.scoring.dynamics` — stability, salience, composite relevance (§4).
"""

from graphmem.scoring.confidence import (
    apply_grounding,
    confidence,
    confirmed,
    extractor_confidence,
    merged_confidence,
    repetition_boost,
    source_strength,
    type_prior,
)
from graphmem.scoring.dynamics import (
    composite_relevance,
    decayed_salience,
    salience_on_access,
    spaced_rep_factor,
    updated_stability,
)
from graphmem.scoring.fusion import weighted_rrf
from graphmem.scoring.mmr import mmr
from graphmem.scoring.ranking import (
    access_boost,
    confidence_gate,
    final_weight,
    freshness,
    is_retrievable,
    renderable,
    retrievability_threshold,
    unretrievable_after_days,
)
from graphmem.scoring.traversal import (
    PathStep,
    Reached,
    guided_traversal,
    hop_score,
    path_confidence,
    specificity,
    traversal_scores,
)

__all__ = [
    "PathStep",
    "Reached",
    "access_boost",
    "apply_grounding",
    "composite_relevance",
    "confidence",
    "confidence_gate",
    "confirmed",
    "decayed_salience",
    "extractor_confidence",
    "final_weight",
    "freshness",
    "guided_traversal",
    "hop_score",
    "is_retrievable",
    "merged_confidence",
    "mmr",
    "path_confidence",
    "renderable",
    "repetition_boost",
    "retrievability_threshold",
    "salience_on_access",
    "source_strength",
    "spaced_rep_factor",
    "specificity",
    "traversal_scores",
    "type_prior",
    "unretrievable_after_days",
    "updated_stability",
    "weighted_rrf",
]
