"""Rich rendering of recall results and memories (shared by CLI commands and the demo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.about import RelationView
from graphmem.models import Memory, RecallResult
from graphmem.settings import RETRIEVERS


def recall_to_json(result: RecallResult) -> dict[str, Any]:
    """A JSON-ready dict of a recall result (embeddings excluded)."""
    return result.model_dump(mode="json", exclude={"hits": {"__all__": {"memory": {"embedding"}}}})


def print_recall(console: Console, result: RecallResult, *, explain: bool = False) -> None:
    """Print the plan line and a table of hits; with ``explain``, each retriever's rank."""
    window = ""
    if result.time_window:
        start, end = result.time_window
        window = f", window {start:%Y-%m-%d} → {end:%Y-%m-%d}"
    linked = ", ".join(result.linked_entities) or "none"
    console.print(
        f"[bold]plan[/] {result.plan} (specificity {result.specificity:.2f}); "
        f"entities: {linked}{window}"
    )
    table = Table(show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("memory", min_width=40, ratio=1)
    table.add_column("weight", justify="right")
    table.add_column("conf", justify="right")
    table.add_column("fresh", justify="right")
    if explain:
        for name in RETRIEVERS:
            table.add_column(name[:4], justify="right")
        table.add_column("rrf", justify="right")
        table.add_column("boost", justify="right")
    table.add_column("id")
    for i, hit in enumerate(result.hits, start=1):
        e = hit.explanation
        content = (
            hit.memory.content
            if e.renderable
            else f"[dim]{hit.memory.content}[/] (below render gate)"
        )
        row = [str(i), content, f"{hit.weight:.4f}", f"{e.confidence:.2f}", f"{e.freshness:.2f}"]
        if explain:
            row += [str(e.retrievers[n].rank) if n in e.retrievers else "·" for n in RETRIEVERS]
            row += [f"{e.rrf:.4f}", f"{e.access_boost:.2f}"]
        row.append(hit.memory.id[:8])
        table.add_row(*row)
    console.print(table)
    if explain:
        for i, hit in enumerate(result.hits, start=1):
            e = hit.explanation
            graph = e.retrievers.get("graph")
            if graph is not None and graph.detail:
                console.print(f"  #{i} graph: {graph.detail}", markup=False, highlight=False)
            if e.reordered:
                console.print(f"  #{i} {e.reordered}", markup=False, highlight=False)
            if e.newer_than:
                console.print(
                    f"  #{i} moved above {e.newer_than[:8]}: an older memory it contradicts",
                    markup=False,
                    highlight=False,
                )
            if e.learned:
                console.print(f"  #{i} {e.learned}", markup=False, highlight=False)
        for note in result.notes:
            console.print(f"[dim]{note}[/]")
        console.print("[dim]columns sema..grap = rank in each retriever[/]")


def print_memory(console: Console, memory: Memory) -> None:
    """Print one memory: content, scores, time and provenance."""
    status = "current" if memory.is_current else f"superseded by {memory.superseded_by}"
    console.print(
        f"[bold]{memory.id}[/] ({memory.type}{'?' if memory.type_uncertain else ''}, {status})"
    )
    console.print(f"  {memory.content}")
    console.print(
        f"  confidence {memory.confidence:.4f}  n={memory.n}  source {memory.source_level} "
        f"({memory.source_strength:.2f})  extractor {memory.extractor} ({memory.extractor_confidence:.2f})"
    )
    console.print(
        f"  accessed {memory.access_count}×  stability {memory.stability:.3f}  salience {memory.salience:.2f}"
        f"  tier {memory.tier}  retrievable {memory.retrievable}"
    )
    console.print(
        f"  last observed {memory.last_observed_at:%Y-%m-%d %H:%M %Z}"
        + (f"  event {memory.event_time:%Y-%m-%d}" if memory.event_time else "")
    )
    for obs in memory.observations:
        console.print(
            f"  · observed in session {obs.session_id} turn {obs.turn_id or '-'} at "
            f"{obs.observed_at:%Y-%m-%d %H:%M} ({obs.source_level}{'' if obs.independent else ', not independent'})"
        )


def print_relations(console: Console, relations: Sequence[RelationView]) -> None:
    """Print a memory's relations, one a line: ``source —TYPE→ target`` and the wording
    the type was read from, when kept."""
    for r in relations:
        wording = f"  (from {r.lemma!r})" if r.lemma else ""
        console.print(
            f"  → {escape(r.source)} —{r.predicate}→ {escape(r.target)}"
            f"  conf {r.confidence:.2f}{escape(wording)}"
        )
