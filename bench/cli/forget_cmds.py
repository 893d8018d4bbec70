"""``python -m bench forget``: the lifecycle benchmark's deletion-and-cascade probe
(:mod:`bench.lifecycle.forgetting`; ``docs/forgetting.md``)."""

from __future__ import annotations

import json
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import TaskID
from rich.table import Table

from bench.cli.lifecycle_cmds import Mode_of, ModeChoice
from bench.cli.locomo_cmds import CachedQueryEmbedder
from bench.lifecycle import MODES, SettableClock, load_people
from bench.lifecycle.forgetting import run_forgetting
from bench.lifecycle.runner import Mode
from graphmem.cli.common import StoreChoice, console, progress_bar
from graphmem.embedding import SentenceTransformerEmbedder
from graphmem.memory import GraphMem
from graphmem.settings import Settings

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
    chosen: tuple[Mode, ...] = MODES if mode is ModeChoice.both else (Mode_of[mode.value],)
    cast = load_people(limit=people)
    started = time.perf_counter()
    out: dict[str, Any] = {"store": store.value, "modes": {}}
    with tempfile.TemporaryDirectory(prefix="graphmem-forget-") as scratch:
        overrides: dict[str, Any] = {}
        if store is StoreChoice.embedded:
            overrides = {"neo4j_uri": None, "data_dir": Path(scratch)}
        settings = Settings(**overrides)
        if store is StoreChoice.neo4j and not settings.neo4j_uri:
            raise typer.BadParameter("set GRAPHMEM_NEO4J_URI to use Neo4j", param_hint="--store")
        out["model"] = settings.embedding_model
        clock = SettableClock(datetime.now(UTC))
        embedder = CachedQueryEmbedder(
            SentenceTransformerEmbedder(
                settings.embedding_model,
                batch_size=settings.embedding_batch_size,
                dim=settings.embedding_dim,
            )
        )
        with GraphMem(settings, embedder=embedder, clock=clock) as memory, progress_bar() as bar:
            for name in chosen:
                task = bar.add_task(f"forget {name}", total=len(cast))

                def advance(_phase: str, n: int, _total: int, task: TaskID = task) -> None:
                    bar.advance(task, n)

                out["modes"][name] = run_forgetting(memory, clock, cast, name, progress=advance)
    out["seconds"] = round(time.perf_counter() - started, 1)
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
