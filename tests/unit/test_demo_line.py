"""The demo's line that says what built its graph, as the terminal shows it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from rich.console import Console

from graphmem.cli.demo import _components


def test_the_demo_names_the_extra_for_the_ner_extractor_as_typed() -> None:
    # rich read "[nlp]" as markup and printed "pip install 'graphmem'"
    memory = SimpleNamespace(
        extractor=SimpleNamespace(name="capitalized"), embedder=SimpleNamespace(name="m")
    )
    console = Console(record=True, width=200)
    console.print(_components(cast(Any, memory)))
    shown = console.export_text()
    assert "entity extractor capitalized" in shown
    assert "pip install 'graphmem[nlp]'" in shown
