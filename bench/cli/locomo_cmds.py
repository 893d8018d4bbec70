"""``python -m bench import-locomo`` and ``python -m bench locomo`` (docs/benchmarks.md
"Retrieval quality: LoCoMo").

``bench locomo`` writes (``--json-out``) one report per corpus, a dict of the
shape below; with ``--corpus both`` the file holds ``{"turns": report,
"observations": report}``::

    {"corpus", "store", "model", "conversations", "candidates", "memories",
     "merged",                       # memories standing for > 1 turn / observation
     "overall": {"questions", "R@5", "R@10", "nDCG@10", "MRR", "All@10"},  # categories 1-4
     "by_category": {"1": {...}, ..., "5": {...}},   # "5" (adversarial) is not in overall
     "retrievers": {"semantic": {...overall keys..., "by_category": {...}}, ...},  # alone
     "ablation": {"without semantic": {...}, ..., "planner off": {...},         # --ablation
                  "rerank on": {...}, "rerank off": {...}},  # or "rerank": {"skipped": why}
     "replay_mismatches": 0,         # replayed own plan != live recall (0 expected)
     "peer": {...overall keys..., "by_category", "system", "version", "namespace_filter"}
             | {"skipped": why},     # --peer: neo4j-graphrag HybridRetriever (Neo4j only)
     "baselines": {"bm25": {...}, "dense": {...}, "rrf": {...}},   # with --baseline
     "asked_twice": {"first": {...overall keys...}, "second": {...}, "R@10 change"},  # --asked-twice
     "plans": {category: {plan: count}},
     "by_plan": {plan: {...overall keys...}},   # the pipeline's rows by the plan chosen
     "import": {"repaired", "dropped", "no_evidence"},
     "namespaces": [...], "seconds": {"import", "recall", "replay", "peer", "baselines"}}

Each retriever alone and the ablation rows are replayed from one run of every
retriever per question (:mod:`bench.locomo.ablation`); the peer row is
described in :mod:`bench.locomo.peer`.

:mod:`bench.cli.app` registers :func:`import_locomo` and :func:`bench_locomo`.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from bench.cli.locomo_report import print_report
from bench.locomo import (
    Corpus,
    import_conversation,
    load_locomo,
    run_bench,
    total_report,
)
from bench.locomo.peer import open_peer
from graphmem.cli.common import (
    ExtractorChoice,
    ExtractorOpt,
    StoreChoice,
    console,
    progress_bar,
)
from graphmem.embedding import Embedder, EmbedderWrapper, make_embedder
from graphmem.memory import GraphMem
from graphmem.settings import Settings
from graphmem.store.base import Vector

__all__ = ["CachedQueryEmbedder", "bench_locomo", "import_locomo"]


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


class CachedQueryEmbedder(EmbedderWrapper):
    """Wraps an embedder and memoises single-text calls: the bench asks each
    question once per retriever and the pipeline embeds it each time."""

    def __init__(self, inner: Embedder, *, max_entries: int = 8192) -> None:
        super().__init__(inner)
        self._cache: dict[str, Vector] = {}
        self._max = max_entries

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
def _memory(
    store: StoreChoice,
    data_dir: Path | None,
    *,
    temporary: bool,
    extractor: ExtractorChoice | None = None,
) -> Iterator[GraphMem]:
    """The facade on the chosen store: Neo4j from ``GRAPHMEM_NEO4J_URI`` (and the
    other ``GRAPHMEM_NEO4J_*`` variables), else the embedded store in
    ``data_dir`` (a temporary directory when ``temporary`` and none is given)."""
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as scratch:
        overrides: dict[str, Any] = {}
        if extractor is not None:
            overrides["extractor"] = extractor.value
        if store is StoreChoice.embedded:
            overrides["neo4j_uri"] = None
            if data_dir is not None or temporary:
                overrides["data_dir"] = data_dir or Path(scratch)
        settings = Settings(**overrides)
        if store is StoreChoice.neo4j and not settings.store.neo4j_uri:
            raise typer.BadParameter("set GRAPHMEM_NEO4J_URI to use Neo4j", param_hint="--store")
        embedder = CachedQueryEmbedder(make_embedder(settings))
        with GraphMem(settings, embedder=embedder) as memory:
            yield memory


PathArg = Annotated[
    Path, typer.Argument(exists=True, dir_okay=False, help="A file in LoCoMo's JSON format.")
]
CorpusOpt = Annotated[CorpusChoice, typer.Option(help="turns, observations or both.")]
StoreOpt = Annotated[
    StoreChoice, typer.Option(help="embedded (local file) or neo4j (GRAPHMEM_NEO4J_URI).")
]
JsonOpt = Annotated[
    Path | None, typer.Option("--json-out", help="Write the report as JSON to this file.")
]


def import_locomo(
    path: PathArg,
    corpus: CorpusOpt = CorpusChoice.turns,
    store: StoreOpt = StoreChoice.embedded,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Embedded store directory (default: .graphmem or GRAPHMEM_DATA_DIR)."),
    ] = None,
    json_out: JsonOpt = None,
    extractor: ExtractorOpt = None,
) -> None:
    """Import LoCoMo conversations into the store.

    One namespace per conversation and corpus, locomo-<sample_id>-<corpus>,
    replaced if it exists; prints the evidence ids repaired and dropped.
    """
    conversations = load_locomo(path)
    repairs = total_report(conversations)
    out: dict[str, Any] = {"file": str(path), "import": repairs.as_dict(), "namespaces": {}}
    with (
        _memory(store, data_dir, temporary=False, extractor=extractor) as memory,
        progress_bar() as progress,
    ):
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


def bench_locomo(
    path: PathArg,
    corpus: CorpusOpt = CorpusChoice.both,
    store: StoreOpt = StoreChoice.embedded,
    json_out: JsonOpt = None,
    limit_conversations: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations (smoke runs).")
    ] = None,
    baseline: Annotated[
        bool,
        typer.Option(
            help="Also score the baselines of docs/benchmarks.md (BM25Okapi, MiniLM cosine, RRF)."
        ),
    ] = True,
    data_dir: Annotated[
        Path | None, typer.Option(help="Embedded store directory (default: a temporary one).")
    ] = None,
    ablation: Annotated[
        bool,
        typer.Option(
            help="Also the pipeline without each retriever, planner off, rerank off/on"
            " (replayed from the same retriever runs)."
        ),
    ] = False,
    peer: Annotated[
        bool,
        typer.Option(
            help="Also neo4j-graphrag's HybridRetriever on the same memories"
            " (needs --store neo4j and the 'peer' extra; otherwise the row says why not)."
        ),
    ] = True,
    asked_twice: Annotated[
        bool,
        typer.Option(
            help="Also ask every question twice with access recording on, in file order"
            " (docs/benchmarks.md 'Asked twice'), and report R@10 of both passes."
        ),
    ] = False,
    extractor: ExtractorOpt = None,
) -> None:
    """Retrieval quality on LoCoMo (docs/benchmarks.md "Retrieval quality: LoCoMo").

    R@5, R@10, nDCG@10, MRR and All@10 for the full pipeline, each retriever
    alone, the baselines and the peer (optionally the ablation rows), on a
    store emptied of the benchmark's namespaces.
    """
    conversations = load_locomo(path)[:limit_conversations]
    reports: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    with (
        _memory(store, data_dir, temporary=True, extractor=extractor) as memory,
        progress_bar() as progress,
    ):
        tasks: dict[str, Any] = {}

        def advance(phase: str, n: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = progress.add_task(phase, total=total)
            progress.advance(tasks[phase], n)

        found = open_peer(memory) if peer else None
        for kind in corpus.corpora():
            reports[kind] = run_bench(
                memory,
                conversations,
                kind,
                progress=advance,
                baseline=baseline,
                ablation=ablation,
                peer=found,
                asked_twice=asked_twice,
            )
    for report in reports.values():
        print_report(console, report)
    console.print(f"wall time {time.perf_counter() - started:.1f} s")
    if json_out is not None:
        body = next(iter(reports.values())) if len(reports) == 1 else reports
        json_out.write_text(json.dumps(body, indent=2), encoding="utf-8")
