"""The answer's shape in the prompt, and a schema echoed back (docs/llm.md, docs/spec.md §11).

A server with structured output enforces the JSON schema; in JSON mode, or behind a
server that drops ``response_format``, the prompt is all the model has. Small local
models shown the schema itself tend to answer with the schema (Graphiti #868);
:func:`answer_template` writes the object to fill in instead, and
:func:`check_not_schema` catches an echo so the one retry can say what went wrong.
"""

from __future__ import annotations

import json
from typing import Any, Literal

__all__ = ["Mode", "answer_template", "check_not_schema", "shape_note"]

#: How the answer was asked for: structured output, or JSON mode.
Mode = Literal["json_schema", "json_object"]


def answer_template(schema: dict[str, Any]) -> str:
    """The shape of an answer to ``schema``, for a prompt: the JSON object with every
    property, each value written as ``"<type: description>"``, ``"A | B"`` (an enum)
    or ``[item]`` (an array), ``or null`` where null is allowed; one property a line.

    Small models asked in JSON mode with the schema itself in the prompt tend to
    answer with the schema (docs/llm.md); a filled-in shape is what they copy best.
    """
    return json.dumps(_template(schema), indent=1, ensure_ascii=False)


def _template(schema: dict[str, Any]) -> Any:
    declared = schema.get("type")
    kinds = declared if isinstance(declared, list) else [declared]
    kind = next((k for k in kinds if k not in (None, "null")), None)
    if kind == "object" and "properties" in schema:
        return {key: _template(value) for key, value in schema["properties"].items()}
    if kind == "array":
        return [_template(schema.get("items") or {})]
    if "enum" in schema:
        text = " | ".join(str(v) for v in schema["enum"])
    else:
        described = schema.get("description")
        text = f"<{kind or 'value'}: {described}>" if described else f"<{kind or 'value'}>"
    return text + " or null" if "null" in kinds else text


def check_not_schema(data: dict[str, Any], schema: dict[str, Any]) -> None:
    """Raise ``ValueError`` when ``data`` is a JSON schema rather than an answer: it has
    none of ``schema``'s properties and the marks of a schema (``properties``,
    ``$schema``, ``"type": "object"``). Small local models in JSON mode answer with the
    schema they were shown (Graphiti #868, docs/llm.md); the retry says so.
    """
    properties = schema.get("properties") or {}
    if any(key in data for key in properties):
        return
    if "properties" in data or "$schema" in data or data.get("type") == "object":
        raise ValueError(
            "the answer is a JSON schema, not an object of that shape filled in with the"
            " values found in the input"
        )


def shape_note(schema: dict[str, Any], mode: Mode) -> str:
    """What the client adds to the system prompt: the answer's shape
    (:func:`answer_template`) — in JSON mode the only statement of the schema the model
    gets, with "one JSON object and nothing else"; with structured output a
    description of the fields the server will enforce (a small model fills them in
    better when it has seen them, docs/llm.md)."""
    lead = (
        "\n\nAnswer with one JSON object and nothing else: no explanation, and not a"
        " schema. Every key below must be present; "
        if mode == "json_object"
        else "\n\nThe answer is one JSON object of this shape; "
    )
    return (
        lead + '"A | B" means one of those values, "<type: what>" describes the value to'
        " write, [ ... ] holds any number of items:\n" + answer_template(schema)
    )
