"""``graphmem import-locomo`` and ``graphmem bench locomo`` (BENCHMARKS.md §1).

``bench locomo`` writes (``--json``) one report per corpus, a dict of the
shape below; with ``--corpus both`` the file holds ``{"turns": report,
"observations": report}``::

    {"corpus", "store", "model", "conversations", "candidates", "memories",
     "merged",                       # memories standing for > 1 turn / observation
     "overall": {"questions", "R@5", "R@10", "nDCG@10", "MRR", "All@10"},  # categories 1-4
     "by_category": {"1": {...}, ..., "5": {...}},   # "5" (adversarial) is not in overall
     "retrievers": {"semantic": {...overall keys..., "by_category": {...}}, ...},
     "baselines": {"bm25": {...}, "dense": {...}, "rrf": {...}},   # with --baseline
     "plans": {category: {plan: count}},
     "import": {"repaired", "dropped", "no_evidence"},
     "namespaces": [...], "seconds": {"import", "recall", "baselines"}}

The main CLI registers :func:`import_locomo` as a command and the commands of
:data:`bench_app` under ``graphmem bench``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from graphmem.embedding import Embedder, SentenceTransformerEmbedder
from graphmem.locomo import (
    CATEGORIES,
    HEADLINE,
    METRICS,
    Corpus,
    import_conversation,
    load_locomo,
    run_bench,
    total_report,
)
from graphmem.memory import GraphMem
from graphmem.settings import Settings
from graphmem.store.base import Vector

__all__ = ["CachedQueryEmbedder", "bench_app", "import_locomo"]

console = Console(width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True)

bench_app = typer.Typer(
    help="Benchmarks: retrieval quality on LoCoMo (BENCHMARKS.md §1).", no_args_is_help=True
)


@bench_app.callback()
def _bench() -> None:
    """Benchmarks (BENCHMARKS.md)."""


class CorpusChoice(StrEnum):
    turns = "turns"
    observations = "observations"
    both = "both"

    def corpora(self) -> tuple[Corpus, ...]:
        if self is CorpusChoice.turns:
            return ("turns",)
        if self is CorpusChoice.observations:
            return ("observations",)
        return ("turns", "observations")


class StoreKind(StrEnum):
    embedded = "embedded"
    neo4j = "neo4j"


class CachedQueryEmbedder:
    """Wraps an embedder and memoises single-text calls: the bench asks each
    question once per retriever and the pipeline embeds it each time."""

    def __init__(self, inner: Embedder, *, max_entries: int = 8192) -> None:
        self._inner = inner
        self._cache: dict[str, Vector] = {}
        self._max = max_entries

    @property
    def dim(self) -> int:
        return self._inner.dim

    @property
    def name(self) -> str:
        return self._inner.name

    def embed(self, texts: Sequence[str]) -> Vector:
        if len(texts) != 1:
            return self._inner.embed(texts)
        found = self._cache.get(texts[0])
        if found is None:
            found = self._inner.embed(texts)
            if len(self._cache) >= self._max:
                self._cache.clear()
            self._cache[texts[0]] = found
        return found.copy()


@contextmanager
def _memory(store: StoreKind, data_dir: Path | None, *, temporary: bool) -> Iterator[GraphMem]:
    """The facade on the chosen store: Neo4j from ``GRAPHMEM_NEO4J_URI`` (and the
    other ``GRAPHMEM_NEO4J_*`` variables), else the embedded store in
    ``data_dir`` (a temporary directory when ``temporary`` and none is given)."""
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as scratch:
        overrides: dict[str, Any] = {}
        if store is StoreKind.embedded:
            overrides["neo4j_uri"] = None
            if data_dir is not None or temporary:
                overrides["data_dir"] = data_dir or Path(scratch)
        settings = Settings(**overrides)
        if store is StoreKind.neo4j and not settings.neo4j_uri:
            raise typer.BadParameter("set GRAPHMEM_NEO4J_URI to use Neo4j", param_hint="--store")
        embedder = CachedQueryEmbedder(
            SentenceTransformerEmbedder(
                settings.embedding_model,
                batch_size=settings.embedding_batch_size,
                dim=settings.embedding_dim,
            )
        )
        with GraphMem(settings, embedder=embedder) as memory:
            yield memory


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


PathArg = Annotated[
    Path, typer.Argument(exists=True, dir_okay=False, help="A file in LoCoMo's JSON format.")
]
CorpusOpt = Annotated[CorpusChoice, typer.Option(help="turns, observations or both.")]
StoreOpt = Annotated[
    StoreKind, typer.Option(help="embedded (local file) or neo4j (GRAPHMEM_NEO4J_URI).")
]
JsonOpt = Annotated[
    Path | None, typer.Option("--json", help="Write the report as JSON to this file.")
]


def import_locomo(
    path: PathArg,
    corpus: CorpusOpt = CorpusChoice.turns,
    store: StoreOpt = StoreKind.embedded,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Embedded store directory (default: .graphmem or GRAPHMEM_DATA_DIR)."),
    ] = None,
    json_out: JsonOpt = None,
) -> None:
    """Import LoCoMo conversations into the store.

    One namespace per conversation and corpus, locomo-<sample_id>-<corpus>,
    replaced if it exists; prints the evidence ids repaired and dropped.
    """
    conversations = load_locomo(path)
    repairs = total_report(conversations)
    out: dict[str, Any] = {"file": str(path), "import": repairs.as_dict(), "namespaces": {}}
    with _memory(store, data_dir, temporary=False) as memory, _progress() as progress:
        for kind in corpus.corpora():
            task = progress.add_task(f"import {kind}", total=None)
            for conv in conversations:
                namespace, stands_for, merged = import_conversation(
                    memory, conv, kind, progress=partial(progress.advance, task)
                )
                out["namespaces"][namespace] = {"memories": len(stands_for), "merged": merged}
    console.print(
        f"evidence ids: [bold]{repairs.repaired}[/] repaired, [bold]{repairs.dropped}[/] dropped; "
        f"[bold]{repairs.no_evidence}[/] questions left with no evidence"
    )
    for line in repairs.details:
        console.print(f"  [dim]{line}[/]")
    table = Table(title="namespaces created")
    for column in ("namespace", "memories", "merged"):
        table.add_column(column, justify="left" if column == "namespace" else "right")
    for namespace, counts in out["namespaces"].items():
        table.add_row(namespace, str(counts["memories"]), str(counts["merged"]))
    console.print(table)
    if json_out is not None:
        json_out.write_text(json.dumps(out, indent=2), encoding="utf-8")


@bench_app.command("locomo")
def bench_locomo(
    path: PathArg,
    corpus: CorpusOpt = CorpusChoice.both,
    store: StoreOpt = StoreKind.embedded,
    json_out: JsonOpt = None,
    limit_conversations: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations (smoke runs).")
    ] = None,
    baseline: Annotated[
        bool,
        typer.Option(help="Also score BENCHMARKS.md's baselines (BM25Okapi, MiniLM cosine, RRF)."),
    ] = True,
    data_dir: Annotated[
        Path | None, typer.Option(help="Embedded store directory (default: a temporary one).")
    ] = None,
) -> None:
    """Retrieval quality on LoCoMo (BENCHMARKS.md §1).

    R@5, R@10, nDCG@10, MRR and All@10 for the full pipeline, each retriever
    alone and the baselines, on a store emptied of the benchmark's namespaces.
    """
    conversations = load_locomo(path)[:limit_conversations]
    reports: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    with _memory(store, data_dir, temporary=True) as memory, _progress() as progress:
        tasks: dict[str, Any] = {}

        def advance(phase: str, n: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.advance(tasks[phase], n)

        for kind in corpus.corpora():
            reports[kind] = run_bench(
                memory, conversations, kind, progress=advance, baseline=baseline
            )
    for report in reports.values():
        print_report(console, report)
    console.print(f"wall time {time.perf_counter() - started:.1f} s")
    if json_out is not None:
        body = next(iter(reports.values())) if len(reports) == 1 else reports
        json_out.write_text(json.dumps(body, indent=2), encoding="utf-8")


# ---------------------------------------------------------------- tables
def _cells(row: dict[str, Any]) -> list[str]:
    values = [row.get(name) for name in METRICS]
    return [str(row["questions"])] + ["–" if v is None else f"{v:.3f}" for v in values]


def _metric_table(title: str, first: str) -> Table:
    table = Table(title=title)
    table.add_column(first)
    for name in ("questions", *METRICS):
        table.add_column(name, justify="right")
    return table


def print_report(out: Console, report: dict[str, Any]) -> None:
    """The report's tables: the full pipeline by category (5 apart), each
    retriever alone and the baselines (categories 1–4), the plans chosen."""
    imp = report["import"]
    out.print(
        f"\n[bold]LoCoMo {report['corpus']}[/] — store {report['store']}, model {report['model']}, "
        f"{report['conversations']} conversations, {report['memories']} memories "
        f"({report['merged']} merged from {report['candidates']} candidates); evidence ids "
        f"{imp['repaired']} repaired, {imp['dropped']} dropped, "
        f"{imp['no_evidence']} questions without"
    )
    table = _metric_table(f"graphmem full pipeline — {report['corpus']}", "category")
    table.add_row("overall (1–4)", *_cells(report["overall"]), style="bold")
    for c in HEADLINE:
        table.add_row(f"{c} {CATEGORIES[c]}", *_cells(report["by_category"][str(c)]))
    table.add_section()
    table.add_row(f"5 {CATEGORIES[5]} (apart)", *_cells(report["by_category"]["5"]))
    out.print(table)
    table = _metric_table(
        f"each retriever alone and the baselines, categories 1–4 — {report['corpus']}", "system"
    )
    table.add_column("multi-hop All@10", justify="right")
    multi = report["by_category"]["1"]["All@10"]
    table.add_row(
        "graphmem (all five)",
        *_cells(report["overall"]),
        "–" if multi is None else f"{multi:.3f}",
        style="bold",
    )
    sections = [("", report["retrievers"]), ("baseline ", report.get("baselines", {}))]
    for prefix, rows in sections:
        table.add_section()
        for name, row in rows.items():
            hop = row["by_category"]["1"]["All@10"]
            table.add_row(f"{prefix}{name}", *_cells(row), "–" if hop is None else f"{hop:.3f}")
    out.print(table)
    plans = sorted({p for counts in report["plans"].values() for p in counts})
    table = Table(title=f"plans chosen by category — {report['corpus']}")
    table.add_column("category")
    for plan in plans:
        table.add_column(plan, justify="right")
    for category, counts in report["plans"].items():
        table.add_row(
            f"{category} {CATEGORIES[int(category)]}", *[str(counts.get(p, 0)) for p in plans]
        )
    out.print(table)
    seconds = ", ".join(f"{k} {v:.1f} s" for k, v in report["seconds"].items())
    out.print(f"[dim]{seconds}; retrievers alone: {', '.join(report['retrievers']) or 'none'}[/]")
