"""``graphmem namespaces``, ``remember``, ``export`` and ``import``: the API's data
operations from the shell. Registered lazily by :mod:`graphmem.cli.main`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from graphmem.cli.common import (
    DataDir,
    JsonOut,
    Namespace,
    StoreOpt,
    console,
    err,
    open_memory,
    require_namespace,
)
from graphmem.settings import MEMORY_TYPES, SOURCE_LEVELS


def namespaces(store: StoreOpt = None, data_dir: DataDir = None, as_json: JsonOut = False) -> None:
    """List the namespaces that hold memories or entities, with their memory counts."""
    with open_memory(store, data_dir) as memory:
        found = {ns: memory.stats(ns).get("memories", 0) for ns in memory.namespaces()}
    if as_json:
        console.print_json(json.dumps({"namespaces": found}))
        return
    if not found:
        console.print("no namespaces yet (graphmem remember / ingest add some)")
    for ns, count in found.items():
        console.print(f"{ns}\t{count} memories")


def remember(
    content: Annotated[str, typer.Argument(help="The statement to remember.")],
    namespace: Namespace = "default",
    memory_type: Annotated[
        str,
        typer.Option("--type", "-t", help=f"Memory type: {', '.join(MEMORY_TYPES)}."),
    ] = "Fact",
    session: Annotated[
        str, typer.Option("--session", "-s", help="Session (conversation) it came from.")
    ] = "cli",
    source_level: Annotated[
        str, typer.Option(help=f"How it was obtained: {', '.join(SOURCE_LEVELS)}.")
    ] = "direct",
    entity: Annotated[
        list[str] | None,
        typer.Option("--entity", "-e", help="An entity it is about (repeatable)."),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option(
            "--user",
            help="The person the namespace is about ('Jonas Weber'): 'I ...' statements bind"
            " to them. Set once per namespace; default: an implicit 'User'.",
        ),
    ] = None,
    triple: Annotated[
        tuple[str, str, str] | None,
        typer.Option(
            "--triple",
            help="Optional SUBJECT PREDICATE OBJECT, e.g. --triple 'Lena Park' lives_in Denver.",
        ),
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Remember one statement (a memory): new, merged into a known one, or superseding.

    A statement is a claim whatever door it comes through: "Lena moved to Denver."
    supersedes "Lena lives in Portland." (docs/updates.md).

    Loads the embedding model (a few seconds per call): to remember many, use
    `graphmem ingest FILE.jsonl`; agents should use the MCP server or the API.
    """
    candidate: dict[str, Any] = {
        "content": content,
        "type": memory_type,
        "session_id": session,
        "source_level": source_level,
        "extractor": "verbatim",
        "entities": [{"name": name} for name in entity or []],
    }
    if triple is not None:
        candidate.update(zip(("subject", "predicate", "object"), triple, strict=True))
    with open_memory(store, data_dir) as memory:
        if user:
            memory.set_user(namespace, user)
        report = memory.remember(namespace, [candidate])
    memory_id = report.memory_ids[0] if report.memory_ids else None
    if as_json:
        console.print_json(json.dumps({"namespace": namespace, **report.model_dump(mode="json")}))
        return
    if report.created:
        outcome = "new memory"
    elif report.merged:
        outcome = "merged into a known memory"
    else:
        outcome = "rejected" if report.rejected else "stored"
    superseded = "".join(
        f"; superseded {ident}" + (f" ({why})" if (why := report.why_superseded.get(ident)) else "")
        for ident in report.superseded
    )
    console.print(f"{outcome} [bold]{memory_id}[/] in namespace {namespace}{superseded}")


def export(
    namespace: Annotated[
        str, typer.Option("--namespace", "-n", help="Namespace to export (no default).")
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write here instead of stdout.", dir_okay=False),
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
) -> None:
    """Export a namespace as JSON lines: memories with provenance, confidence and
    embeddings, entities, relations, associations (format: graphmem.transfer).

    graphmem export -n alice > alice.jsonl ; graphmem import alice.jsonl -n alice2
    """
    from graphmem.transfer import export_namespace

    lines = 0
    with open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)  # a typo must not write an empty "backup"
        handle = sys.stdout if output is None else output.open("w", encoding="utf-8")
        try:
            for record in export_namespace(memory, namespace):
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                lines += 1
        finally:
            if output is not None:
                handle.close()
    err.print(f"exported namespace {namespace}: {lines - 1} records")


def import_(
    path: Annotated[str, typer.Argument(help="A file written by graphmem export ('-' for stdin).")],
    namespace: Annotated[
        str | None,
        typer.Option(
            "--namespace", "-n", help="Namespace to import into (default: the exported one)."
        ),
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Import a namespace exported by `graphmem export`, into any store.

    The file is validated first (a bad line aborts, nothing written); the target
    namespace must be empty. Memories are re-embedded when the file's embedding
    model differs from this store's.
    """
    from graphmem.transfer import import_namespace

    if path == "-":
        lines = sys.stdin.readlines()
    else:
        source = Path(path)
        if not source.is_file():
            raise typer.BadParameter(f"no such file: {path}", param_hint="PATH")
        lines = source.read_text(encoding="utf-8").splitlines()
    with open_memory(store, data_dir) as memory:
        report = import_namespace(memory, lines, namespace)
    if as_json:
        console.print_json(report.model_dump_json())
        return
    console.print(
        f"imported {report.memories} memories, {report.entities} entities,"
        f" {report.relations} relations, {report.associations} associations"
        f" from {report.source_namespace} into namespace [bold]{report.namespace}[/]"
        + (" (re-embedded)" if report.reembedded else "")
    )
