"""The ``graphmem`` command line (typer + rich).

Every command that prints a table also takes ``--json``. The store is the
embedded one under ``--data-dir`` (default ``.graphmem``) unless
``--store neo4j`` or ``GRAPHMEM_NEO4J_URI`` selects Neo4j.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli import common, forget_cmds, maintenance_cmds, read_cmds, write_cmds
from graphmem.cli.common import (
    DataDir,
    StoreOpt,
    console,
    err,
)
from graphmem.cli.lazy import LazyCommand, lazy_group

# Commands whose modules load only when they run (graphmem.cli.lazy): --help stays fast.
_LAZY_COMMANDS = {
    "namespaces": LazyCommand(
        "graphmem.cli.data_cmds", "namespaces", "List the namespaces that hold data."
    ),
    "remember": LazyCommand(
        "graphmem.cli.data_cmds", "remember", "Remember one statement (a memory)."
    ),
    "export": LazyCommand(
        "graphmem.cli.data_cmds", "export", "Export a namespace as JSON lines (stdout or file)."
    ),
    "import": LazyCommand(
        "graphmem.cli.data_cmds", "import_", "Import a namespace exported by graphmem export."
    ),
    "mcp": LazyCommand(
        "graphmem.cli.mcp_cmd", "mcp", "Run the MCP server (stdio or streamable HTTP) for agents."
    ),
    "faithfulness": LazyCommand(
        "graphmem.cli.guards_cmds",
        "faithfulness",
        "Check an answer against memory: each claim supported or not, and the risk.",
    ),
    "show-entity": LazyCommand(
        "graphmem.cli.guards_cmds",
        "show_entity",
        "List an entity's memories by period, with its concept-drift test.",
    ),
    "drift": LazyCommand(
        "graphmem.cli.guards_cmds",
        "drift_command",
        "Concept drift per entity (docs/spec.md §10): report only, nothing is changed.",
    ),
    "list": LazyCommand(
        "graphmem.cli.listing",
        "list_command",
        "List memories with tier and flags: superseded, unretrievable and cold ones too.",
    ),
}

app = typer.Typer(
    cls=lazy_group(_LAZY_COMMANDS),
    name="graphmem",
    help=(
        "graphmem — a knowledge memory for AI agents.\n\n"
        "Remember facts, preferences, events and relations; recall them by question with "
        "five retrievers (semantic, BM25, entity, temporal, graph) fused by weighted RRF, "
        "and see why each memory ranked where it did.\n\n"
        "Start with:  graphmem demo"
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# The eager commands, in the order --help lists them (the lazy ones follow); None: the
# command is named after its function.
_EAGER_COMMANDS: tuple[tuple[str | None, Callable[..., None]], ...] = (
    (None, write_cmds.ingest),
    (None, read_cmds.recall),
    (None, read_cmds.show),
    (None, write_cmds.confirm),
    (None, write_cmds.correct),
    (None, forget_cmds.forget),
    ("delete-namespace", write_cmds.delete_namespace),
    (None, maintenance_cmds.consolidate),
    (None, maintenance_cmds.reembed),
    (None, maintenance_cmds.rekey),
    (None, read_cmds.stats),
)
for _name, _command in _EAGER_COMMANDS:
    app.command(_name)(_command)


@app.command()
def demo(
    data_dir: Annotated[
        Path | None, typer.Option(help="Keep the demo store here (default: a temp dir).")
    ] = None,
) -> None:
    """Remember a small four-session conversation and answer questions about it."""
    from graphmem.cli.demo import run_demo

    run_demo(console, data_dir)


@app.command()
def doctor(
    store: StoreOpt = None,
    data_dir: DataDir = None,
    index_recall: Annotated[
        bool,
        typer.Option(
            "--index-recall",
            help="Also measure recall@10 of the vector search against exact cosine per"
            " namespace (docs/spec.md §10); exit 1 below vector_recall_alert (0.95).",
        ),
    ] = False,
    sample: Annotated[
        int,
        typer.Option(
            "--sample",
            min=1,
            help="--index-recall: stored embeddings used as queries per namespace.",
        ),
    ] = 100,
    namespace: Annotated[
        str | None,
        typer.Option(
            "--namespace",
            "-n",
            help="Report this namespace only (its counts and drift); default: the first 20.",
        ),
    ] = None,
) -> None:
    """Check the store: connection, server version, schema and index states."""
    from graphmem.cli.doctor import run_doctor, run_index_recall

    memory = common.open_memory(store, data_dir)
    if namespace is not None:
        try:
            common.require_namespace(memory, namespace)
        except typer.Exit:
            memory.close()  # the store was opened to list the namespaces
            raise
    ok = run_doctor(console, memory, namespace)
    if index_recall:
        ok = run_index_recall(console, memory, sample=sample) and ok
    raise typer.Exit(0 if ok else 1)


# The benchmarks left the library (docs/benchmarks.md): their old names answer with the
# new command instead of click's "No such command".
_MOVED_TO_BENCH = {"bench": "python -m bench", "import-locomo": "python -m bench import-locomo"}


def _moved(name: str) -> Callable[..., None]:
    def moved(args: Annotated[list[str] | None, typer.Argument(hidden=True)] = None) -> None:
        command = " ".join([_MOVED_TO_BENCH[name], *(args or [])])
        err.print(
            f"[bold red]error:[/] 'graphmem {name}' is no longer a graphmem command: the"
            f" benchmarks live in the repository's bench package. Run '{command}' from a"
            " clone (the same options; docs/benchmarks.md)."
        )
        raise typer.Exit(2)

    return moved


for _name in _MOVED_TO_BENCH:
    app.command(
        _name,
        hidden=True,
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        add_help_option=False,
    )(_moved(_name))


def main() -> None:
    """Entry point with graphmem errors turned into one clear line and exit code 2."""
    common.run_app(app)


if __name__ == "__main__":
    main()
