"""The speed benchmarks: ``python -m bench latency`` and ``python -m bench ingest``
(docs/benchmarks.md "Speed and scale"; registered by :mod:`bench.cli.app`)."""

from __future__ import annotations

import json
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from graphmem.cli import common
from graphmem.cli.common import (
    DataDir,
    StoreChoice,
    StoreOpt,
    console,
    progress_bar,
    warn_embedded_size,
)

if TYPE_CHECKING:
    pass


class RealCorpus(StrEnum):
    """Which LoCoMo corpus ``bench latency --locomo`` asks."""

    turns = "turns"
    observations = "observations"
    both = "both"


class IngestCompare(StrEnum):
    """What ``bench ingest --compare`` times against the default write path."""

    extractor = "extractor"
    keys = "keys"


def bench_latency_command(
    n: Annotated[
        int, typer.Option("--n", min=1, help="Memories in the benchmark namespace.")
    ] = 1000,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    repeats: Annotated[int, typer.Option(min=1, help="Passes over the query set.")] = 5,
    rebuild: Annotated[
        bool, typer.Option(help="Rebuild the namespace even if it has N memories.")
    ] = False,
    peer: Annotated[
        bool,
        typer.Option(
            "--peer",
            help="Neo4j only: also time neo4j-graphrag on the same memories, each query right"
            " after graphmem's (same load; the ratios are printed): its VectorRetriever with"
            " the namespace filter on its in-index path (JSON 'peer') and as shipped"
            " ('peer_as_shipped'), and its HybridRetriever, which cannot filter"
            " ('peer_hybrid') (pip install 'graphmem\\[peer]'; skipped when it is not"
            " installed). The floor (query embedding + one filtered vector search) is"
            " always timed.",
        ),
    ] = False,
    json_out: Annotated[
        Path | None, typer.Option("--json-out", help="Write the result as JSON to this file.")
    ] = None,
    locomo: Annotated[
        Path | None,
        typer.Option(
            "--locomo",
            exists=True,
            dir_okay=False,
            help="Real input instead of synthetic memories: import this LoCoMo-format file"
            " (e.g. ../shared/data/locomo-dev.json) and ask every question with gold"
            " evidence once, access recording off (--n and --repeats are not used).",
        ),
    ] = None,
    corpus: Annotated[
        RealCorpus, typer.Option(help="--locomo: turns, observations or both.")
    ] = RealCorpus.both,
    limit_conversations: Annotated[
        int | None, typer.Option(min=1, help="--locomo: only the first N conversations.")
    ] = None,
) -> None:
    """Recall latency p50/p95/p99 and per-stage breakdown, beside the floor (query
    embedding + one filtered vector search) and, with --peer, neo4j-graphrag.

    Synthetic (default): N memories generated from templates with random unit
    embeddings (built through the store's bulk path), a fixed query set asked
    --repeats times; queries use the real model. Real (--locomo FILE): LoCoMo
    conversations, each question asked once. docs/benchmarks.md "Speed and scale",
    docs/performance.md.
    """
    if locomo is not None:
        _bench_real(locomo, corpus, limit_conversations, store, data_dir, peer, json_out)
        return
    from bench.perf.latency import bench_latency

    with common.open_memory(store, data_dir) as memory, progress_bar() as progress:
        warn_size = memory.settings.store.embedded_warn_size
        task = progress.add_task(f"building {n} memories", total=n)
        result = bench_latency(
            memory,
            n,
            repeats=repeats,
            rebuild=rebuild,
            peer=peer,
            progress=lambda done: progress.update(task, completed=done),
        )
    _print_perf(result, json_out)
    if result["past_embedded_warn_size"]:
        warn_embedded_size(n, warn_size)


def _bench_real(
    path: Path,
    corpus: RealCorpus,
    limit: int | None,
    store: StoreChoice | None,
    data_dir: Path | None,
    peer: bool,
    json_out: Path | None,
) -> None:
    from bench.perf.real import CORPORA, bench_real

    corpora = CORPORA if corpus is RealCorpus.both else (corpus.value,)
    with common.open_memory(store, data_dir) as memory, progress_bar() as progress:
        tasks: dict[str, Any] = {}

        def advance(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = progress.add_task(label, total=total)
            progress.update(tasks[label], completed=done)

        result = bench_real(
            memory,
            path,
            corpora=corpora,
            limit_conversations=limit,
            peers=peer,
            progress=advance,
        )
    _print_perf(result, json_out)


def bench_ingest_command(
    path: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="A LoCoMo-format JSON file.")
    ],
    store: StoreOpt = None,
    data_dir: DataDir = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Use only the first N turns.")] = None,
    batch: Annotated[
        int, typer.Option(min=1, help="Candidates per remember() call (write batch).")
    ] = 256,
    compare: Annotated[
        IngestCompare | None,
        typer.Option(
            help="Also time a variant of the write path on the same chunks, interleaved (same"
            " load): extractor = ner vs capitalized (and each extractor alone, ms per text),"
            " keys = contextual keys on vs off. Prints each variant's ratio and the cost"
            " (first over second ingest time, minus 1).",
        ),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json-out", help="Write the result as JSON to this file.")
    ] = None,
) -> None:
    """Ingest throughput of LoCoMo turns as a ratio to raw model.encode on the same texts
    (ratio_to_encode) and to the floor, the encoder and the extractor each timed alone
    (ratio_to_floor = ingest rate / (1 / (1/encode + 1/extract)))."""
    from bench.locomo import load_locomo, turn_candidates
    from bench.perf.ingest import bench_ingest

    candidates = [c for conv in load_locomo(path) for c in turn_candidates(conv)][:limit]
    texts = [str(c["content"]) for c in candidates]
    # a vector cache of its own: the masked vectors an earlier run (or a test) left in the
    # store's cache would be found, not embedded, and the write would look free
    with (
        tempfile.TemporaryDirectory(prefix="graphmem-bench-ingest-") as tmp,
        common.open_memory(
            store, data_dir, embedding={"vector_cache_path": Path(tmp) / "vector-cache.sqlite"}
        ) as memory,
        progress_bar() as progress,
    ):
        task = progress.add_task("ingesting", total=len(candidates))
        result = bench_ingest(
            memory,
            (texts, candidates),
            batch_size=batch,
            progress=lambda done: progress.update(task, completed=done),
            compare=compare.value if compare else None,
        )
    _print_perf(result, json_out)


def _print_perf(result: dict[str, Any], json_out: Path | None) -> None:
    table = Table(title="graphmem benchmark")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in result.items():
        if isinstance(value, dict):
            for sub, item in value.items():
                if isinstance(item, dict):  # bench ingest --compare: one row per figure
                    for name, figure in item.items():
                        table.add_row(f"{key}.{sub}.{name}", str(figure))
                else:
                    table.add_row(f"{key}.{sub}", str(item))
        else:
            table.add_row(key, str(value))
    console.print(table)
    if json_out is not None:
        json_out.write_text(json.dumps(result, indent=2), encoding="utf-8")
