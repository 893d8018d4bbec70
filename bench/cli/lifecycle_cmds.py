"""``python -m bench lifecycle`` (docs/benchmarks.md "Memory over time"): memory that stays
right over time.

``--json`` writes ``{"store", "model", "seconds", "modes": {mode: report}}``
with each report as :func:`bench.lifecycle.run_lifecycle` returns it.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from bench.cli.locomo_cmds import CachedQueryEmbedder
from bench.lifecycle import MODES, PHASES, Person, SettableClock, load_people, run_lifecycle
from bench.lifecycle.runner import Mode
from graphmem.cli.common import StoreChoice, console, progress_bar
from graphmem.embedding import SentenceTransformerEmbedder
from graphmem.memory import GraphMem
from graphmem.settings import Settings

__all__ = ["bench_lifecycle"]


Mode_of: dict[str, Mode] = {"plain": "plain", "triples": "triples"}
METRICS = ("current@1", "current@3", "stale_outranks", "stale_merged", "lost", "All@5")


class ModeChoice(StrEnum):
    plain = "plain"
    triples = "triples"
    both = "both"


def bench_lifecycle(
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
    uses: Annotated[
        int, typer.Option(min=0, help="Everyday recalls per person in the 'after use' phase.")
    ] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the everyday recalls.")] = 0,
    json_out: Annotated[
        Path | None, typer.Option("--json-out", help="Write the report as JSON to this file.")
    ] = None,
    failures: Annotated[
        int,
        typer.Option(min=0, help="Print up to N failed questions per mode (all in --json-out)."),
    ] = 0,
) -> None:
    """Memory over time: updates, negations, corrections, use and consolidation.

    The project's own scenarios (40 people, 3-6 sessions over a year each) are
    ingested session by session into one namespace per person; probe questions
    are asked fresh, after everyday use (access recording on) and after
    consolidation one day and 120 days after the last session. Prints
    current@1/@3, stale_outranks, stale_merged, lost and 2-hop All@5 per phase
    (docs/benchmarks.md gives the targets). The namespaces are deleted afterwards.
    """
    out = run_scenarios(
        store,
        mode,
        load_people(limit=people),
        "lifecycle",
        partial(run_lifecycle, uses=uses, seed=seed),
    )
    for report in out["modes"].values():
        print_lifecycle(console, report, store.value)
        for failure in report["failures"][:failures]:
            console.print(
                f"  [dim]{failure['phase']}[/] {failure['person']} {failure['question']!r}: "
                + " | ".join(failure["top3"])
            )
    console.print(f"wall time {out['seconds']:.1f} s")
    if json_out is not None:
        json_out.write_text(json.dumps(out, indent=2, default=str), encoding="utf-8")


def run_scenarios(
    store: StoreChoice,
    mode: ModeChoice,
    cast: list[Person],
    label: str,
    run: Callable[..., dict[str, Any]],
) -> dict[str, Any]:
    """``{"store", "model", "modes": {mode: report}, "seconds"}``: ``run(memory, clock,
    cast, mode, progress=...)`` for each chosen mode on one facade
    (:func:`scenario_memory`), with a progress bar per mode named ``label``."""
    chosen: tuple[Mode, ...] = MODES if mode is ModeChoice.both else (Mode_of[mode.value],)
    started = time.perf_counter()
    out: dict[str, Any] = {"store": store.value, "modes": {}}
    with (
        scenario_memory(store, f"graphmem-{label}-", out) as (memory, clock),
        progress_bar() as bar,
    ):
        for name in chosen:
            task = bar.add_task(f"{label} {name}", total=len(cast))

            def advance(_phase: str, n: int, _total: int, task: TaskID = task) -> None:
                bar.advance(task, n)

            out["modes"][name] = run(memory, clock, cast, name, progress=advance)
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


@contextmanager
def scenario_memory(
    store: StoreChoice, prefix: str, out: dict[str, Any]
) -> Iterator[tuple[GraphMem, SettableClock]]:
    """The facade the scenario benchmarks (``lifecycle``, ``forget``) run on, with its
    settable clock: the embedded store in a temporary directory (``prefix``) or Neo4j
    from ``GRAPHMEM_NEO4J_URI``; the real model, question embeddings cached. Records the
    model in ``out["model"]``. Raises ``typer.BadParameter`` for Neo4j without a URI."""
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        overrides: dict[str, Any] = {}
        if store is StoreChoice.embedded:
            overrides = {"neo4j_uri": None, "data_dir": Path(scratch)}
        settings = Settings(**overrides)
        if store is StoreChoice.neo4j and not settings.store.neo4j_uri:
            raise typer.BadParameter("set GRAPHMEM_NEO4J_URI to use Neo4j", param_hint="--store")
        out["model"] = settings.embedding.embedding_model
        clock = SettableClock(datetime.now(UTC))
        embedder = CachedQueryEmbedder(
            SentenceTransformerEmbedder(
                settings.embedding.embedding_model,
                batch_size=settings.embedding.embedding_batch_size,
                dim=settings.embedding.embedding_dim,
            )
        )
        with GraphMem(settings, embedder=embedder, clock=clock) as memory:
            yield memory, clock


def print_lifecycle(target: Console, report: dict[str, Any], store: str) -> None:
    """One table per mode: a row per phase, a column per metric."""
    ingest = report["ingest"]
    table = Table(
        title=(
            f"lifecycle — {report['mode']} on {store}: {report['people']} people,"
            f" {report['statements']} statements, {report['probes']} probes,"
            f" {report['uses_per_person']} uses each"
        ),
        caption=(
            f"ingest: {ingest['created']} created, {ingest['merged']} merged,"
            f" {ingest['superseded']} superseded, {ingest['rejected']} rejected;"
            f" restatements corroborated {_fmt(ingest['restatements_corroborated'])}"
        ),
    )
    table.add_column("phase")
    for metric in (*METRICS, "distractor_outranks"):
        table.add_column(metric, justify="right")
    for phase in PHASES:
        row = report["phases"][phase]
        table.add_row(phase, *(_fmt(row[m]) for m in (*METRICS, "distractor_outranks")))
    target.print(table)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"
