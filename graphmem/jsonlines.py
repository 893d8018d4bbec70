"""JSON lines input: one JSON object per line, errors naming the line (``graphmem
ingest``, ``graphmem import``, conversation files for ``ingest --extract``)."""

from __future__ import annotations

import json
from typing import Any

from graphmem.errors import InvalidInputError


def json_object(
    line: str, number: int, *, error: type[InvalidInputError] = InvalidInputError
) -> dict[str, Any]:
    """The JSON object on line ``number`` (1-based) of a file.

    Raises
    ------
    InvalidInputError
        (or ``error``, a subclass) with ``field="line N"`` when the line is not valid
        JSON or holds something other than an object.
    """
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON ({exc.msg})", field=f"line {number}") from exc
    if not isinstance(value, dict):
        raise error("each line must be a JSON object", field=f"line {number}")
    return value
