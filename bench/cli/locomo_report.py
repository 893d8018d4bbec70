"""The tables ``python -m bench locomo`` prints for one report (see :mod:`bench.cli.locomo_cmds`).

1. the full pipeline by category (5 apart);
2. every system on categories 1–4: the pipeline, each retriever alone, the
   ablation rows, the peer and the baselines, with Δ R@10 to the pipeline;
3. R@10 of the same systems by category;
4. the plans chosen by category, with the pipeline's R@10 per plan;
then what was skipped and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.locomo import CATEGORIES, HEADLINE, METRICS

__all__ = ["print_report", "systems"]


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _cells(row: dict[str, Any]) -> list[str]:
    return [str(row["questions"])] + [_fmt(row.get(name)) for name in METRICS]


def _metric_table(title: str, first: str) -> Table:
    table = Table(title=title)
    table.add_column(first)
    for name in ("questions", *METRICS):
        table.add_column(name, justify="right")
    return table


def systems(report: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(section, label, row) for every scored system of ``report``, the pipeline first;
    rows that were skipped are left out (see :func:`print_report`)."""
    pipeline = dict(report["overall"], by_category=report["by_category"])
    yield "pipeline", "graphmem (full pipeline)", pipeline
    for name, row in report["retrievers"].items():
        yield "alone", f"alone {name}", row
    for name, row in report.get("ablation", {}).items():
        if "skipped" not in row:
            yield "ablation", name, row
    peer = report.get("peer")
    if peer is not None and "skipped" not in peer:
        yield "peer", "peer: neo4j-graphrag HybridRetriever", peer
    for name, row in report.get("baselines", {}).items():
        yield "baselines", f"baseline {name}", row


def print_report(out: Console, report: dict[str, Any]) -> None:
    """Print the module docstring's tables for one corpus report."""
    corpus = report["corpus"]
    _print_pipeline(out, report, corpus)
    _print_systems(out, report, corpus)
    _print_plans(out, report, corpus)
    _print_asked_twice(out, report, corpus)
    _print_notes(out, report, corpus)


def _print_pipeline(out: Console, report: dict[str, Any], corpus: str) -> None:
    """The full pipeline by category (5 apart)."""
    imp = report["import"]
    out.print(
        f"\n[bold]LoCoMo {corpus}[/] — store {report['store']}, model {report['model']}, "
        f"{report['conversations']} conversations, {report['memories']} memories "
        f"({report['merged']} merged from {report['candidates']} candidates); evidence ids "
        f"{imp['repaired']} repaired, {imp['dropped']} dropped, "
        f"{imp['no_evidence']} questions without"
    )
    table = _metric_table(f"graphmem full pipeline — {corpus}", "category")
    table.add_row("overall (1–4)", *_cells(report["overall"]), style="bold")
    for c in HEADLINE:
        table.add_row(f"{c} {CATEGORIES[c]}", *_cells(report["by_category"][str(c)]))
    table.add_section()
    table.add_row(f"5 {CATEGORIES[5]} (apart)", *_cells(report["by_category"]["5"]))
    out.print(table)


def _print_systems(out: Console, report: dict[str, Any], corpus: str) -> None:
    """Every system (pipeline, retrievers alone, ablations, peer, baselines): the headline metrics and R@10 by category."""
    full = report["overall"]["R@10"]
    table = _metric_table(f"every system, categories 1–4 — {corpus}", "system")
    table.add_column("multi-hop All@10", justify="right")
    table.add_column("Δ R@10", justify="right")
    by_category = Table(title=f"R@10 by category — {corpus}")
    by_category.add_column("system")
    for c in CATEGORIES:
        by_category.add_column(f"{c} {CATEGORIES[c]}", justify="right")
    section = None
    for kind, label, row in systems(report):
        if section is not None and kind != section:
            table.add_section()
            by_category.add_section()
        section = kind
        delta = None if full is None or row["R@10"] is None else row["R@10"] - full
        style = "bold" if kind == "pipeline" else None
        hop = row["by_category"]["1"]["All@10"]
        signed = "–" if delta is None or kind == "pipeline" else f"{delta:+.3f}"
        table.add_row(label, *_cells(row), _fmt(hop), signed, style=style)
        by_category.add_row(
            label, *[_fmt(row["by_category"][str(c)]["R@10"]) for c in CATEGORIES], style=style
        )
    out.print(table)
    out.print(by_category)


def _print_plans(out: Console, report: dict[str, Any], corpus: str) -> None:
    """The plans the planner chose per category, with R@10 per plan."""
    plans = sorted({p for counts in report["plans"].values() for p in counts})
    table = Table(title=f"plans chosen by category — {corpus}")
    table.add_column("category")
    for plan in plans:
        table.add_column(plan, justify="right")
    for category, counts in report["plans"].items():
        table.add_row(
            f"{category} {CATEGORIES[int(category)]}", *[str(counts.get(p, 0)) for p in plans]
        )
    by_plan = report.get("by_plan", {})
    table.add_section()
    table.add_row("R@10 (1–4)", *[_fmt(by_plan.get(p, {}).get("R@10")) for p in plans])
    out.print(table)


def _print_asked_twice(out: Console, report: dict[str, Any], corpus: str) -> None:
    """Both passes of the asked-twice run (docs/benchmarks.md "Asked twice"), when it ran."""
    twice = report.get("asked_twice")
    if twice is not None:
        table = _metric_table(
            f"asked twice with access recording on — {corpus} (categories 1–4)", "pass"
        )
        table.add_row("first", *_cells(twice["first"]))
        table.add_row("second", *_cells(twice["second"]))
        table.caption = f"R@10 change {twice['R@10 change']:+.4f} (target ≥ −0.005)"
        out.print(table)


def _print_notes(out: Console, report: dict[str, Any], corpus: str) -> None:
    """Replay mismatches, skipped rows, the peer, recall latency and the seconds per phase."""
    notes = []
    if "replay_mismatches" in report:
        notes.append(f"replayed plans vs live recall: {report['replay_mismatches']} mismatches")
    for name, row in report.get("ablation", {}).items():
        if "skipped" in row:
            notes.append(f"{name}: {row['skipped']}")
    peer = report.get("peer")
    if peer is not None:
        notes.append(
            f"peer skipped: {peer['skipped']}"
            if "skipped" in peer
            else f"peer {peer['system']} {peer['version']}; namespace: {peer['namespace_filter']}"
        )
    latency = report.get("recall_latency_ms")
    if latency and "p50" in latency:
        line = f"recall, each question asked once: p50 {latency['p50']:.1f} ms, p95 {latency['p95']:.1f} ms"
        if "peer_p50" in latency:
            line += f" (peer {latency['peer_p50']:.1f} / {latency['peer_p95']:.1f} ms)"
        stages = [(k, v) for k, v in latency["stages"].items() if k != "total"]
        slowest = sorted(stages, key=lambda kv: -kv[1])[:3]
        line += "; stage medians: " + ", ".join(f"{k} {v:.1f}" for k, v in slowest)
        notes.append(line)
    seconds = ", ".join(f"{k} {v:.1f} s" for k, v in report["seconds"].items())
    for line in [*notes, seconds]:
        out.print(f"[dim]{line}[/]")
