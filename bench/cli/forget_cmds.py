"""``python -m bench forget``: the lifecycle benchmark's deletion-and-cascade probe
(:mod:`bench.lifecycle.forgetting`; ``docs/forgetting.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from bench.cli.lifecycle_cmds import ModeChoice, run_scenarios
from bench.lifecycle import load_people
from bench.lifecycle.forgetting import run_forgetting
from graphmem.cli.common import StoreChoice, console

__all__ = ["bench_forget"]


def bench_forget(
    store: Annotated[
        StoreChoice, typer.Option(help="embedded (a temporary file) or neo4j (GRAPHMEM_NEO4J_URI).")
    ] = StoreChoice.embedded,
    mode: Annotated[
        ModeChoice,
        typer.Option(help="plain (text + entities), triples (+ subject/predicate/object) or both."),
    ] = ModeChoice.both,
    people: Annotated[
        int | None, typer.Option(min=1, help="Only the first N people (default: all 40).")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json-out", help="Write the report as JSON to this file.")
    ] = None,
) -> None:
    """Forgetting: forget a fact (with its history), a pet and a person per scenario.

    The lifecycle scenarios (40 people) are ingested one namespace each; then a
    person's city (with its history), their pet and another person of their timeline
    are forgotten. Prints deleted_returned (questions about forgotten statements whose
    text still comes back, history included: target 0) and kept facts answered (top 3)
    before and after the forgets (target: equal). The namespaces are deleted afterwards.
    """
    cast = load_people(limit=people)
    out = run_scenarios(store, mode, cast, "forget", run_forgetting)
    table = Table(title=f"forgetting probe ({store.value}, {len(cast)} people)")
    columns = ("mode", "deleted_returned", "fact / pet / person", "kept_before", "kept_after")
    for column in (*columns, "forgotten"):
        table.add_column(column)
    for name, report in out["modes"].items():
        table.add_row(
            name,
            _share(report["deleted_returned"]),
            " / ".join(f"{n}/{d}" for n, d in report["returned_by_task"].values()),
            _share(report["kept_before"]),
            _share(report["kept_after"]),
            ", ".join(f"{k} {v}" for k, v in report["forgotten"].items()),
        )
    console.print(table)
    console.print(f"wall time {out['seconds']:.1f} s")
    if json_out is not None:
        json_out.write_text(json.dumps(out, indent=2, default=str), encoding="utf-8")


def _share(pair: list[int]) -> str:
    n, d = pair
    return f"{n / d:.3f} ({n}/{d})" if d else "-"
