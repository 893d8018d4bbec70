"""All of graphmem's tunable constants, in one validated settings object, grouped by
concern.

:class:`Settings` composes one frozen model per concern (``docs/configuration.md`` lists
every field): ``store``, ``embedding``, ``llm``, ``write``, ``read`` (``planning``,
``fusion``, ``graph``, ``rescoring``, ``ranking``), ``dynamics`` and ``guards``; code
reads a value by its path, ``settings.read.fusion.rrf_k``. Defaults are the values
``docs/spec.md`` gives (§2–§4, table §8) and ranges the ones §8 allows, except where a
field's description says otherwise (the read pipeline's ranking constants were calibrated
on LoCoMo dev; each names the docs/spec.md value it departs from and the measurement that
chose it, ``docs/scoring.md`` collects them).

Every leaf keeps one flat name, unique across concerns, that works everywhere a name is
given (:mod:`graphmem.settings.sources`): keyword arguments (``Settings(rrf_k=80)``, or
nested, ``Settings(read={"fusion": {"rrf_k": 80}})``), :meth:`Settings.model_copy`
updates, and the environment (``GRAPHMEM_RRF_K=80``). Values come from keyword
arguments, then the environment, then the defaults; nothing is read from a ``.env`` file.
A name that does not exist is a ``pydantic.ValidationError`` naming the closest one.

Mappings keyed by memory type or source level (``half_life_days``, ``source_levels``,
``type_priors``, ``salience_decay``) can be overridden in part, from keyword arguments or
from the environment as JSON: the keys given replace those defaults and the others keep
theirs, e.g. ``GRAPHMEM_HALF_LIFE_DAYS='{"Event": 14}'`` changes the Event half-life
only. An unknown key is an error that names the setting and the known keys.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, Self

from pydantic import Field, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from graphmem.settings.base import (
    MEMORY_TYPES,
    RETRIEVERS,
    SOURCE_LEVELS,
    EmbedderName,
    MemoryTypeName,
    SourceLevelName,
)
from graphmem.settings.dynamics import DynamicsSettings
from graphmem.settings.embedding import EmbeddingSettings
from graphmem.settings.guards import GuardsSettings
from graphmem.settings.llm import LLMSettings
from graphmem.settings.presets import PRESETS
from graphmem.settings.read import ReadSettings
from graphmem.settings.sources import FlatEnvironment, leaf_paths, route, unknown_name, walk
from graphmem.settings.store import StoreSettings
from graphmem.settings.write import WriteSettings

__all__ = [
    "MEMORY_TYPES",
    "PRESETS",
    "RETRIEVERS",
    "SOURCE_LEVELS",
    "EmbedderName",
    "MemoryTypeName",
    "Settings",
    "SourceLevelName",
    "field_info",
    "leaf_path",
]


class Settings(BaseSettings):
    """graphmem's configuration by concern (docs/spec.md §8 and the constants of §2–§4).

    Raises
    ------
    pydantic.ValidationError
        When a value is outside its docs/spec.md §8 range (the message names the field),
        or a name is not a setting (the message names the closest one).
    """

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", extra="forbid", frozen=True)

    store: StoreSettings = Field(default_factory=StoreSettings, description="Where memories live.")
    embedding: EmbeddingSettings = Field(
        default_factory=EmbeddingSettings, description="The embedding backend."
    )
    llm: LLMSettings = Field(default_factory=LLMSettings, description="The optional chat model.")
    write: WriteSettings = Field(default_factory=WriteSettings, description="The write pipeline.")
    read: ReadSettings = Field(default_factory=ReadSettings, description="The read pipeline.")
    dynamics: DynamicsSettings = Field(
        default_factory=DynamicsSettings, description="Memory dynamics."
    )
    guards: GuardsSettings = Field(default_factory=GuardsSettings, description="Guards, monitors.")

    def __init__(self, **values: Any) -> None:
        """Flat names (``rrf_k=80``) or concerns (``read={"fusion": {"rrf_k": 80}}``)."""
        super().__init__(**values)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Keyword arguments, then the flat ``GRAPHMEM_*`` environment; no ``.env`` file."""
        return init_settings, FlatEnvironment(settings_cls)

    @model_validator(mode="before")
    @classmethod
    def _route_flat_names(cls, data: Any) -> Any:
        """Flat names (``rrf_k``) moved to their concern's path; an unknown one is an error."""
        return route(cls, data) if isinstance(data, dict) else data

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A validated copy with ``update`` applied: flat names (``{"rrf_k": 80}``) or the
        nested form (``{"read": {"fusion": {"rrf_k": 80}}}``); a partial mapping is
        completed from the defaults. Raises pydantic.ValidationError for an unknown name or a
        value out of range (unlike pydantic's model_copy, which validates nothing)."""
        if not update:
            return super().model_copy(deep=deep)
        merged = self.model_dump()
        flat: dict[str, Any] = {}
        for key, value in update.items():
            if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
                merged[key] = _deep_merge(merged[key], value)
            else:
                flat[key] = value  # routed (or refused) by _route_flat_names
        merged.update(flat)
        return type(self).model_validate(merged)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Self:
        """Settings from the named preset (:data:`graphmem.settings.presets.PRESETS`),
        ``overrides`` (flat names) over it. Raises ValueError naming the closest preset
        when ``name`` is not one."""
        if name not in PRESETS:
            close = difflib.get_close_matches(name, list(PRESETS), n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ValueError(f"unknown preset {name!r}; {hint}known: {sorted(PRESETS)}")
        return cls(**{**PRESETS[name][1], **overrides})

    def lookup(self, name: str) -> Any:
        """The value of the setting with flat name ``name`` (for tools that take a
        setting's name as text; code reads the path). Raises ValueError naming the closest
        setting when ``name`` is not one."""
        value: Any = self
        for part in leaf_path(name):
            value = getattr(value, part)
        return value


def _deep_merge(base: dict[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict) and key in _CONCERN_KEYS:
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


LEAF_PATHS: dict[str, tuple[str, ...]] = leaf_paths(Settings)
_CONCERN_KEYS = frozenset(part for path in LEAF_PATHS.values() for part in path[:-1])


def leaf_path(name: str) -> tuple[str, ...]:
    """The path of the setting with flat name ``name``, e.g. ``("read", "fusion",
    "rrf_k")``. Raises ValueError naming the closest setting when there is none."""
    if name not in LEAF_PATHS:
        raise unknown_name(name, LEAF_PATHS)
    return LEAF_PATHS[name]


def field_info(name: str) -> FieldInfo:
    """The pydantic field of the setting with flat name ``name`` (default, range,
    description). Raises ValueError naming the closest setting when there is none."""
    path = leaf_path(name)
    for found, info in walk(Settings):
        if found == path:
            return info
    raise unknown_name(name, LEAF_PATHS)  # pragma: no cover - leaf_path checked it
