"""Flat setting names: every leaf field of :class:`graphmem.settings.Settings` keeps the
name it had before the settings were grouped by concern, as a keyword
(``Settings(rrf_k=80)``), a ``model_copy`` update and an environment variable
(``GRAPHMEM_RRF_K=80``). This module maps each flat name to its path
(``("read", "fusion", "rrf_k")``), routes flat keys into the nested form, reads the
environment, and names the closest known setting when a name is mistyped
(``docs/configuration.md``).
"""

from __future__ import annotations

import difflib
import json
import os
import typing
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_settings import PydanticBaseSettingsSource

ENV_PREFIX = "GRAPHMEM_"


def _model_of(info: FieldInfo) -> type[BaseModel] | None:
    annotation = info.annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def walk(
    model: type[BaseModel], path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], FieldInfo]]:
    """(path, field) of every leaf field under ``model``, nested models walked in order."""
    for name, info in model.model_fields.items():
        nested = _model_of(info)
        if nested is None:
            yield (*path, name), info
        else:
            yield from walk(nested, (*path, name))


def leaf_paths(model: type[BaseModel]) -> dict[str, tuple[str, ...]]:
    """Flat name -> path of every leaf under ``model``; a ValueError when two concerns
    share a leaf name (flat names must stay unique)."""
    paths: dict[str, tuple[str, ...]] = {}
    for path, _ in walk(model):
        if path[-1] in paths:
            raise ValueError(f"setting {path[-1]!r} is in {paths[path[-1]]} and {path}")
        paths[path[-1]] = path
    return paths


def unknown_name(name: str, known: typing.Iterable[str], where: str = "") -> ValueError:
    """The error for a setting name that does not exist, naming the closest known one."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    place = f" in {where!r}" if where else ""
    return ValueError(f"unknown setting {name!r}{place}{hint} (docs/configuration.md lists them)")


def _set(out: dict[str, Any], path: tuple[str, ...], value: object) -> None:
    node = out
    for part in path[:-1]:
        child = node.get(part)
        if isinstance(child, BaseModel):
            child = child.model_dump()
        if not isinstance(child, dict):
            child = {}
        node[part] = child = dict(child)
        node = child
    node[path[-1]] = value


def _check_nested(model: type[BaseModel], given: Mapping[str, Any], where: str) -> None:
    for key, value in given.items():
        info = model.model_fields.get(key)
        if info is None:
            leaves = [path[-1] for path, _ in walk(model)]
            raise unknown_name(key, [*model.model_fields, *leaves], where)
        nested = _model_of(info)
        if nested is not None and isinstance(value, Mapping):
            _check_nested(nested, value, f"{where}.{key}" if where else key)


def route(model: type[BaseModel], given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` in the nested form: flat leaf names moved to their paths (over what the
    nested form gives for the same leaf), nested keys kept. Raises ValueError for a name
    that is neither, naming the closest known setting."""
    paths = leaf_paths(model)
    nested: dict[str, Any] = {}
    flat: list[tuple[tuple[str, ...], object]] = []
    for key, value in given.items():
        if key in model.model_fields:
            nested[key] = value
        elif key in paths:
            flat.append((paths[key], value))
        else:
            raise unknown_name(key, [*paths, *model.model_fields])
    _check_nested(model, nested, "")
    for path, value in flat:
        _set(nested, path, value)
    return nested


def _is_structured(info: FieldInfo) -> bool:
    """Whether the environment gives this field as JSON (mappings, tuples, lists)."""
    origin = typing.get_origin(info.annotation) or info.annotation
    return origin in (dict, tuple, list)


def from_environment(
    model: type[BaseModel], environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The nested values ``GRAPHMEM_<FLAT NAME>`` variables give (names case-insensitive;
    mappings and tuples as JSON). Raises ValueError naming the variable on bad JSON."""
    env = {
        key.upper(): value for key, value in (os.environ if environ is None else environ).items()
    }
    out: dict[str, Any] = {}
    for path, info in walk(model):
        variable = f"{ENV_PREFIX}{path[-1].upper()}"
        if variable not in env:
            continue
        raw: object = env[variable]
        if _is_structured(info):
            try:
                raw = json.loads(str(raw))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{variable} is not valid JSON: {exc}") from exc
        _set(out, path, raw)
    return out


class FlatEnvironment(PydanticBaseSettingsSource):
    """pydantic-settings source reading every leaf from its flat ``GRAPHMEM_*`` name."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ reads every leaf at once

    def __call__(self) -> dict[str, Any]:
        return from_environment(self.settings_cls)
