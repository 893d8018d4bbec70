"""CLI of the guards (docs/spec.md §10): ``graphmem faithfulness``, ``graphmem show-entity``,
``graphmem drift`` and the lines ``consolidate`` and ``doctor`` print about them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from graphmem.cli.common import DataDir, JsonOut, Namespace, StoreOpt, console, open_memory
from graphmem.errors import InvalidInputError
from graphmem.reports import ConsistencyReport, EntityDrift, FaithfulnessReport

__all__ = [
    "drift_command",
    "faithfulness",
    "print_consistency",
    "print_drift",
    "print_faithfulness",
    "show_entity",
]


_RISK_STYLE = {"none": "green", "low": "yellow", "medium": "dark_orange", "high": "red"}


def faithfulness(
    answer: Annotated[str, typer.Argument(help="The agent's answer to check.")],
    namespace: Namespace = "default",
    query: Annotated[
        str | None,
        typer.Option(
            "--query", "-q", help="The question the answer replies to (recalled to find memories)."
        ),
    ] = None,
    memory_ids: Annotated[
        list[str] | None,
        typer.Option(
            "--memory",
            "-m",
            help="A memory the answer rests on (repeat it); without any, graphmem recalls"
            " --query (else the answer) and checks against what comes back.",
        ),
    ] = None,
    k: Annotated[
        int | None, typer.Option("-k", min=1, max=1000, help="Memories that recall returns.")
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Check an answer against memory: each claim supported or not, and the risk.

    The answer is split into claims (sentences, clauses). Offline, a claim is supported
    by a memory with cosine >= 0.80 to it (GRAPHMEM_FAITHFULNESS_SIMILARITY) that holds
    every number, date and name of the claim. faithfulness = supported / total; risk:
    none (all supported), low (1-2 unsupported, none critical), medium (1-2 with a
    critical one: a number, date, name, health, money or identity claim), high (3+).
    Exit code 0 for risk none or low, 1 for medium or high.
    """
    with open_memory(store, data_dir) as memory:
        report = memory.faithfulness(namespace, answer, memory_ids or None, query=query, k=k)
    if as_json:
        console.print_json(report.model_dump_json())
    else:
        print_faithfulness(console, report)
    raise typer.Exit(0 if report.risk in ("none", "low") else 1)


def print_faithfulness(out: Console, report: FaithfulnessReport) -> None:
    """A table of claims and the summary line."""
    table = Table(title="claims", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("claim", ratio=2)
    table.add_column("", justify="center")
    table.add_column("crit", justify="center")
    table.add_column("memory")
    table.add_column("why", ratio=2)
    for i, check in enumerate(report.claims, 1):
        table.add_row(
            str(i),
            check.claim,
            "[green]✓[/]" if check.supported else "[red]✗[/]",
            "!" if check.critical else "",
            (check.memory_id or "-")[:8],
            check.reason,
        )
    out.print(table)
    style = _RISK_STYLE[report.risk]
    out.print(
        f"faithfulness [bold]{report.faithfulness:.2f}[/] ({report.supported}/{report.total}"
        f" claims supported, {report.unsupported_critical} unsupported critical) — risk"
        f" [{style}]{report.risk}[/] ({report.method}, {len(report.memory_ids)} memories)"
    )


def show_entity(
    name: Annotated[str, typer.Argument(help="Entity name, alias or first name.")],
    namespace: Namespace = "default",
    period: Annotated[
        str, typer.Option(help="Group memories by: month, quarter or year.")
    ] = "month",
    include_history: Annotated[bool, typer.Option(help="Include superseded memories.")] = False,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """List an entity's memories by period, with its concept-drift test.

    Memories are ordered by when they happened (event time, else first observation).
    When the entity drifts (docs/spec.md §10: two senses, e.g. two people resolved as one
    "Jordan"), the line where its memories split is marked.
    """
    if period not in ("month", "quarter", "year"):
        raise InvalidInputError("must be month, quarter or year", field="period")
    with open_memory(store, data_dir) as memory:
        entity, memories = memory.entity_memories(namespace, name, include_history=include_history)
        found = memory.drift(namespace, entity.name)
    drift = found[0] if found else None
    if as_json:
        console.print_json(
            json.dumps(
                {
                    "entity": entity.model_dump(mode="json"),
                    "drift": None if drift is None else drift.model_dump(mode="json"),
                    "memories": [
                        {
                            "period": _period(m.time_anchor, period),
                            **m.model_dump(mode="json", exclude={"embedding"}),
                        }
                        for m in memories
                    ],
                }
            )
        )
        return
    aliases = f" (aliases: {', '.join(entity.aliases)})" if entity.aliases else ""
    console.print(f"[bold]{entity.name}[/] {entity.kind}{aliases} — {len(memories)} memories")
    split_done = drift is None or not drift.drift
    current = None
    for item in memories:
        if not split_done and drift is not None and item.id in drift.after_ids:
            console.print(f"[red]── {drift.describe()}[/]")
            split_done = True
        label = _period(item.time_anchor, period)
        if label != current:
            console.print(f"[bold cyan]{label}[/]")
            current = label
        flag = "" if item.is_current else " [dim](superseded)[/]"
        console.print(
            f"  {item.time_anchor:%Y-%m-%d} {item.id[:8]} conf {item.confidence:.2f}"
            f" {item.content}{flag}"
        )
    if drift is not None and not drift.drift:
        console.print(f"[green]no drift[/]: {drift.describe()}")


def drift_command(
    namespace: Namespace = "default",
    name: Annotated[str | None, typer.Option("--entity", "-e", help="Only this entity.")] = None,
    show_all: Annotated[
        bool, typer.Option("--all", help="Also list entities that do not drift.")
    ] = False,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Concept drift per entity (docs/spec.md §10): report only, nothing is changed.

    An entity drifts when its memories before and after some time point differ in
    topic (centroid cosine distance > GRAPHMEM_DRIFT_DISTANCE, 0.4) and in neighbours
    (relation overlap < GRAPHMEM_DRIFT_RELATION_OVERLAP, 0.5): usually two people or
    things resolved into one entity. Look with `graphmem show-entity NAME`.
    """
    with open_memory(store, data_dir) as memory:
        found = memory.drift(namespace, name)
    shown = found if show_all else [d for d in found if d.drift]
    if as_json:
        console.print_json(json.dumps([d.model_dump(mode="json") for d in shown]))
        return
    print_drift(console, shown, examined=len(found))


def print_drift(out: Console, drifts: Sequence[EntityDrift], *, examined: int | None) -> None:
    """One line per entity (drifting ones in red) and a count."""
    for item in drifts:
        out.print(f"[{'red' if item.drift else 'green'}]{item.describe()}[/]")
    flagged = sum(d.drift for d in drifts)
    of = "" if examined is None else f" of {examined} examined"
    out.print(
        f"concept drift: {flagged} entities{of} (reported only; see graphmem show-entity NAME)"
    )


def print_consistency(out: Console, report: ConsistencyReport) -> None:
    """The consistency scan's pairs, one line each."""
    out.print(
        f"consistency scan: {report.pairs_found} conflicting pairs, {report.superseded}"
        f" superseded, {report.held} held, {report.skipped} skipped"
        f" ({report.examined} memories examined)"
    )
    for pair in report.pairs:
        out.print(
            f"  {pair.action}: kept {pair.kept_id[:8]}, {pair.superseded_id[:8]}"
            f" {'superseded' if pair.action == 'superseded' else 'left current'}"
            f" — {pair.reason}; {pair.resolution} (cosine {pair.similarity:.2f},"
            f" {pair.decided_by})"
        )


def _period(when: datetime, period: str) -> str:
    if period == "year":
        return f"{when:%Y}"
    if period == "quarter":
        return f"{when:%Y}-Q{(when.month - 1) // 3 + 1}"
    return f"{when:%Y-%m}"
