"""Types shared by every layer (embedders, stores, pipelines, models); imports nothing
of graphmem: the embedding ``Vector``, the literal vocabularies of the data model, and
the validated field types (timezone-aware datetimes, unit floats)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

import numpy as np
import numpy.typing as npt
from pydantic import AfterValidator

Vector = npt.NDArray[np.float32]
"""An embedding or a stack of them: float32, shape ``(dim,)`` or ``(n, dim)``, rows L2-normalised."""

Grounding = Literal["supported", "partial", "unknown", "unsupported"]
Role = Literal["subject", "object", "mention"]
Tier = Literal["hot", "cold"]
PlanName = Literal[
    "precise", "relational", "entity-centric", "temporal-anchored", "exploratory", "hybrid"
]
Profile = Literal["rrf", "composite"]
WriteOutcome = Literal["created", "merged", "superseded", "rejected"]


_MAX_OFFSET = timedelta(hours=18)  # ISO 8601 / java.time / Neo4j zone offsets


def _aware(value: datetime) -> datetime:
    offset = value.utcoffset()
    if value.tzinfo is None or offset is None:
        raise ValueError("datetime must be timezone-aware (e.g. 2024-05-08T13:56:00+00:00)")
    if not offset:  # UTC, as every stored time is: nothing to convert (the hot path on reads)
        return value
    if abs(offset) > _MAX_OFFSET:
        raise ValueError(f"UTC offset must be within ±18:00, got {offset}")
    try:
        in_utc = value.astimezone(UTC)  # the stores index instants in UTC
    except OverflowError:
        raise ValueError("datetime is out of range once converted to UTC") from None
    if offset % timedelta(minutes=1):
        # JSON / ISO 8601 offsets have minute precision (pydantic writes ±HH:MM), so an
        # offset with seconds (historic local mean time, e.g. +00:19:32) would shift the
        # instant when stored; keep the instant, in UTC.
        return in_utc
    return value


AwareDatetime = Annotated[datetime, AfterValidator(_aware)]


def _finite_unit(value: float) -> float:
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"must be a finite number in [0, 1], got {value}")
    return value


UnitFloat = Annotated[float, AfterValidator(_finite_unit)]
