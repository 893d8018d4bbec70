"""The reports of the guards and the maintenance pass (docs/spec.md §4, §10): faithfulness,
consistency, concept drift, re-embedding and consolidation."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

RiskLevel = Literal["none", "low", "medium", "high"]


class ClaimCheck(BaseModel):
    """One claim of an answer and the verdict on it.

    ``memory_id`` is the supporting memory when ``supported``, else the closest one
    (``None`` when no memory was given); ``similarity`` its cosine to the claim
    (``None`` from a judge that gives none). ``missing`` lists the claim's numbers,
    dates and names that memory lacks (offline check). ``reason`` says why, in words.
    """

    model_config = ConfigDict(frozen=True)

    claim: str
    supported: bool
    critical: bool
    memory_id: str | None
    similarity: float | None
    missing: tuple[str, ...] = ()
    reason: str


class FaithfulnessReport(BaseModel):
    """Read-time faithfulness of an answer against memories (docs/spec.md §10).

    ``faithfulness = supported / total`` (1.0 for an answer with no claim);
    ``risk`` is the seed's level from the unsupported and critical-unsupported counts
    (:func:`graphmem.guards.claims.risk_level`). ``method`` is ``"offline"`` (cosine
    and terms) or the judge's name. ``memory_ids``: the memories checked against.
    """

    model_config = ConfigDict(frozen=True)

    answer: str
    claims: tuple[ClaimCheck, ...]
    supported: int
    total: int
    faithfulness: float
    unsupported_critical: int
    risk: RiskLevel
    method: str
    memory_ids: tuple[str, ...]


class ConsistencyPair(BaseModel):
    """A pair of current memories the consistency scan found in conflict (docs/spec.md §10).

    ``action``: ``"superseded"`` (``superseded_id`` now has ``superseded_by =
    kept_id``), ``"held"`` (ambiguous and no judge decided: both stay current, the
    pair is only reported), ``"skipped"`` (one of the two changed or was superseded
    before the scan could write: left for the next pass).
    """

    model_config = ConfigDict(frozen=True)

    kept_id: str
    superseded_id: str
    similarity: float
    subject: str
    reason: str
    resolution: str
    action: Literal["superseded", "held", "skipped"]
    decided_by: str


class ConsistencyReport(BaseModel):
    """The consistency scan of one consolidation pass (docs/spec.md §10)."""

    model_config = ConfigDict(frozen=True)

    examined: int = 0
    pairs_found: int = 0
    superseded: int = 0
    held: int = 0
    skipped: int = 0
    pairs: tuple[ConsistencyPair, ...] = ()


class EntityDrift(BaseModel):
    """Concept drift of one entity (docs/spec.md §10): its memories split at ``split_at`` into
    before / after; ``distance`` = cosine distance of the two centroids (0–2),
    ``relation_overlap`` = Jaccard overlap of the (predicate, neighbour) sets of the two
    periods (1.0 when both are empty). ``drift`` when distance > ``drift_distance`` and
    overlap < ``drift_relation_overlap``. Reported only; never acted on.
    """

    model_config = ConfigDict(frozen=True)

    entity_id: str
    name: str
    split_at: datetime
    distance: float
    relation_overlap: float
    drift: bool
    before_ids: tuple[str, ...]
    after_ids: tuple[str, ...]
    before_relations: tuple[str, ...] = ()
    after_relations: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line for people: "entity Jordan: 2 senses since 2024-03 — distance 0.52,
        relation overlap 0.20; memories before: …; after: …"."""
        senses = "2 senses" if self.drift else "no drift"
        return (
            f"entity {self.name}: {senses} since {self.split_at:%Y-%m} — distance"
            f" {self.distance:.2f}, relation overlap {self.relation_overlap:.2f};"
            f" memories before: {_ids(self.before_ids)}; after: {_ids(self.after_ids)}"
        )


def _ids(ids: tuple[str, ...], shown: int = 3) -> str:
    head = ", ".join(i[:8] for i in ids[:shown])
    return head + (f" … (+{len(ids) - shown})" if len(ids) > shown else "")


class ReembedReport(BaseModel):
    """What ``reembed`` did to a namespace: memories re-embedded, the
    embedder recorded before (None: none was recorded) and after, wall seconds."""

    model_config = ConfigDict(frozen=True)

    namespace: str
    memories: int
    before: str | None
    after: str
    seconds: float


class ConsolidationReport(BaseModel):
    """What one consolidation pass over a namespace did (docs/spec.md §4).

    ``associations_found`` counts the qualifying pairs seen (cosine at or above
    ``consolidation_similarity``, at least one shared entity), ``associations_created``
    those that were not linked yet. The lifecycle counts are the changes the pass
    decided; ``skipped`` of them were left for the next pass because the memory was
    recalled between the scan and the update.
    """

    model_config = ConfigDict(frozen=True)

    namespace: str
    scanned: int = 0
    batches: int = 0
    associations_found: int = 0
    associations_created: int = 0
    marked_unretrievable: int = 0
    marked_retrievable: int = 0
    moved_cold: int = 0
    moved_hot: int = 0
    skipped: int = 0
    elapsed_ms: float = 0.0
    consistency: ConsistencyReport | None = Field(
        None,
        description="The consistency scan of the pass (docs/spec.md §10); None when it did not run.",
    )
    drift: tuple[EntityDrift, ...] = Field(
        (),
        description="Entities whose memories drift (docs/spec.md §10), reported and left as they are.",
    )


ForgetKind = Literal["memory", "entity", "observations", "relations"]


class ForgetReport(BaseModel):
    """What one forget removed (docs/spec.md §9.16; ``docs/forgetting.md``), or would remove
    with ``dry_run``: counts per kind, counted by the store inside the forget's
    transaction (observations: those the forgotten memories held).

    ``memory_ids``: the memories forgotten (the history of the fact included).
    ``restored_ids``: memories made current again because what superseded them was
    forgotten without its history. ``kept_mentioning``: memories kept that named the
    forgotten entity only in passing; they lose the link to it but their text may still
    name it (forget them with ``include_mentions``). ``already_forgotten``: the target
    is in the deletion log, so nothing was left to remove (a repeated forget).
    """

    model_config = ConfigDict(frozen=True)

    namespace: str
    kind: ForgetKind
    dry_run: bool = False
    already_forgotten: bool = False
    memories: int = 0
    observations: int = 0
    relations: int = 0
    entities: int = 0
    sessions: int = 0
    turns: int = 0
    vectors: int = 0
    memory_ids: tuple[str, ...] = ()
    restored_ids: tuple[str, ...] = ()
    kept_mentioning: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        """The count per kind, in report order (memories … vectors)."""
        return {
            "memories": self.memories,
            "observations": self.observations,
            "relations": self.relations,
            "entities": self.entities,
            "sessions": self.sessions,
            "turns": self.turns,
            "vectors": self.vectors,
        }

    def summary(self) -> str:
        """One line, e.g. ``forgot 2 memories, 3 observations, 1 relations, 1 entities,
        0 sessions, 1 turns, 2 vectors``."""
        verb = "would forget" if self.dry_run else "forgot"
        parts = ", ".join(f"{value} {kind}" for kind, value in self.counts().items())
        suffix = " (already forgotten)" if self.already_forgotten else ""
        return f"{verb} {parts} in namespace {self.namespace}{suffix}"
