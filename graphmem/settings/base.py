"""What every concern of :class:`graphmem.settings.Settings` shares: the frozen model
base, the names of memory types, source levels and retrievers, and the two checks of the
mapping settings (``docs/configuration.md``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.fields import FieldInfo

MemoryTypeName = Literal["Entity", "Event", "Fact", "Preference", "Relation"]
SourceLevelName = Literal[
    "direct", "confirmed", "strong_inference", "weak_inference", "speculation"
]

MEMORY_TYPES: tuple[MemoryTypeName, ...] = ("Entity", "Event", "Fact", "Preference", "Relation")
SOURCE_LEVELS: tuple[SourceLevelName, ...] = (
    "direct",
    "confirmed",
    "strong_inference",
    "weak_inference",
    "speculation",
)
EmbedderName = Literal["sentence-transformers", "onnx", "openai"]
RETRIEVERS: tuple[str, ...] = ("semantic", "bm25", "entity", "temporal", "graph")


class Concern(BaseModel):
    """One concern's settings: frozen, and a name it does not have is an error."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def merge_over_defaults(field: FieldInfo, name: str, value: object) -> object:
    """A partial mapping replaces only the keys it gives (the rest keep ``field``'s
    defaults); an unknown key is a ValueError naming the setting and the known keys."""
    if not isinstance(value, dict):
        return value
    defaults: dict[str, Any] = dict(field.default)
    unknown = sorted(str(key) for key in value if key not in defaults)
    if unknown:
        raise ValueError(
            f"unknown key(s) {unknown} for setting {name!r}; known keys: {list(defaults)}"
        )
    return {**defaults, **value}


def non_negative(value: dict[str, float]) -> dict[str, float]:
    """``value`` unchanged when every number is >= 0; else a ValueError naming the key."""
    for key, number in value.items():
        if not number >= 0.0:
            raise ValueError(f"{key} must be >= 0, got {number}")
    return value
