"""What every CLI module shares: the consoles, the common options (namespace, store,
data directory, JSON output), the facade they open and the progress bar.

Command modules import this one, never :mod:`graphmem.cli.main` (which registers
them: ``python -m graphmem.cli.main`` would import that module twice)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from graphmem.errors import GraphMemError

if TYPE_CHECKING:
    from graphmem.memory import GraphMem

__all__ = [
    "DataDir",
    "JsonOut",
    "Namespace",
    "StoreChoice",
    "StoreOpt",
    "console",
    "err",
    "open_memory",
    "progress_bar",
    "require_namespace",
    "run_app",
    "warn_embedded_size",
]

console = Console(width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True)


class StoreChoice(StrEnum):
    """Which store a command uses: ``embedded`` (one local file) or ``neo4j``."""

    embedded = "embedded"
    neo4j = "neo4j"


def run_app(app: typer.Typer) -> None:
    """Run a typer app (``graphmem``, ``python -m bench``) with graphmem errors turned into
    one clear line on stderr and exit code 2."""
    try:
        app()
    except GraphMemError as exc:
        err.print(f"[bold red]error:[/] {exc}")
        sys.exit(2)


def progress_bar() -> Progress:
    """A progress bar on stderr (description, bar, done/total, elapsed); it disappears
    when done and is off when stderr is not a terminal (pipes and CI logs stay clean)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


class ExtractorChoice(StrEnum):
    """Entity/relation extractor for text without caller-given entities (docs/spec.md §11)."""

    ner = "ner"
    capitalized = "capitalized"


ExtractorOpt = Annotated[
    ExtractorChoice | None,
    typer.Option(
        help=(
            "Entity/relation extractor: ner (spaCy, extra graphmem\\[nlp]: named entities,"
            ' subject-verb-object relations and roles such as "Nadia is Omar\'s sister") or'
            " capitalized (capitalised names, relations from role statements only)."
            " Default: GRAPHMEM_EXTRACTOR, else ner when installed."
        ),
    ),
]


Namespace = Annotated[
    str, typer.Option("--namespace", "-n", help="Namespace (user / agent / tenant) to work in.")
]
StoreOpt = Annotated[
    StoreChoice | None,
    typer.Option(help="Store: embedded (one local file) or neo4j (GRAPHMEM_NEO4J_URI)."),
]
DataDir = Annotated[
    Path | None,
    typer.Option(help="Embedded store directory (default: GRAPHMEM_DATA_DIR, else .graphmem)."),
]
JsonOut = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def open_memory(store: StoreChoice | None, data_dir: Path | None, **overrides: Any) -> GraphMem:
    """Build the facade from settings + CLI options (no I/O until first use).

    The settings and the facade are imported when called: ``--help`` stays fast."""
    from pydantic import ValidationError

    from graphmem.settings import Settings

    values: dict[str, Any] = dict(overrides)
    if data_dir is not None:
        values["data_dir"] = data_dir
    try:
        settings = Settings(**values)
        if store is StoreChoice.embedded:
            settings = settings.model_copy(update={"neo4j_uri": None})
        elif store is StoreChoice.neo4j and not settings.store.neo4j_uri:
            settings = settings.model_copy(update={"neo4j_uri": "bolt://127.0.0.1:7687"})
    except ValidationError as exc:
        raise GraphMemError(f"invalid settings: {exc}") from exc
    from graphmem.memory import GraphMem

    return GraphMem(settings)


def require_namespace(memory: GraphMem, namespace: str) -> None:
    """Exit 1 with the existing namespaces when ``namespace`` holds nothing (a typo, or a
    forgotten ``-n``): an empty answer would look like "nothing remembered"."""
    known = memory.namespaces()
    if namespace in known or namespace in memory.store.embedder_records():
        return  # holds data, or was written to and emptied (forget): it exists
    listed = ", ".join(known[:20]) + (" ..." if len(known) > 20 else "") if known else "none"
    err.print(
        f"[bold red]error:[/] namespace {namespace!r} does not exist in this store"
        f" (namespaces: {listed}); choose one with -n NAME"
    )
    raise typer.Exit(1)


def require_memory_id(memory: GraphMem, namespace: str, memory_id: str) -> str:
    """The full id of the memory ``memory_id`` (an id or a unique start of one) names in
    ``namespace``, after :func:`require_namespace`."""
    require_namespace(memory, namespace)
    return memory.resolve_id(namespace, memory_id)


def warn_embedded_size(size: int, warn_size: int) -> None:
    """Warn on stderr that ``size`` memories is past the embedded store's comfortable size."""
    err.print(
        f"[yellow]warning:[/] {size} memories is past the embedded store's comfortable size"
        f" ({warn_size}, GRAPHMEM_EMBEDDED_WARN_SIZE): after each write its first recall"
        ' rebuilds the in-memory indexes. Use Neo4j (GRAPHMEM_NEO4J_URI; README "Performance").'
    )
