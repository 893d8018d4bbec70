"""The maintenance commands: ``consolidate``, ``reembed`` and ``rekey`` (registered by
:mod:`graphmem.cli.main`)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import TaskID
from rich.table import Table

from graphmem.cli import common
from graphmem.cli.common import (
    DataDir,
    JsonOut,
    Namespace,
    StoreOpt,
    console,
    progress_bar,
)
from graphmem.errors import InvalidInputError

if TYPE_CHECKING:
    pass


def consolidate(
    namespace: Namespace = "default",
    batch_size: Annotated[
        int, typer.Option(min=1, help="Memories per batch (one short transaction each).")
    ] = 500,
    since: Annotated[
        str | None,
        typer.Option(
            help="Scan and link only from memories observed since this ISO 8601 time with"
            " offset (e.g. the previous run's); drift only for entities with such memories;"
            " the retrievability flags are always recomputed."
        ),
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Consolidation pass: consistency scan, association links, retrievability flags,
    cold tier, concept drift (docs/spec.md §4, §10).

    The consistency scan supersedes (docs/spec.md §9.9: the later observation, unless the older
    is more confident by update_margin) one memory of each pair about the same subject
    that contradict each other (docs/spec.md §9.10: another date, number, name, object, state or
    a negation); --json lists each pair with its ids and reason. Drifting entities are
    listed, never changed. Idempotent and safe while recall runs; schedule it (e.g. daily).
    """
    try:
        start = None if since is None else datetime.fromisoformat(since)
    except ValueError as exc:
        raise InvalidInputError(f"not an ISO 8601 time: {since!r}", field="since") from exc
    with common.open_memory(store, data_dir) as memory:
        report = memory.consolidate(namespace, batch_size=batch_size, since=start)
    if as_json:
        console.print_json(report.model_dump_json())
        return
    table = Table(title=f"consolidation of namespace {namespace}")
    table.add_column("count")
    table.add_column("value", justify="right")
    for key, value in report.model_dump(exclude={"namespace", "consistency", "drift"}).items():
        table.add_row(key, f"{value:.1f}" if isinstance(value, float) else str(value))
    console.print(table)
    from graphmem.cli.guards_cmds import print_consistency, print_drift

    if report.consistency is not None:
        print_consistency(console, report.consistency)
    print_drift(console, report.drift, examined=None)


def reembed(
    namespace: Annotated[
        list[str] | None,
        typer.Option(
            "--namespace", "-n", help="Namespace to re-embed (repeat for several; or --all)."
        ),
    ] = None,
    all_namespaces: Annotated[
        bool, typer.Option("--all", help="Every namespace of the store.")
    ] = False,
    batch_size: Annotated[
        int, typer.Option(min=1, help="Memories per page: one embed call and one transaction.")
    ] = 256,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Re-embed a namespace's memories with the configured embedder (GRAPHMEM_EMBEDDER).

    A store records which embedder wrote each namespace's vectors and refuses to open
    with another; after switching (e.g. GRAPHMEM_EMBEDDER=onnx) run
    `graphmem reembed -n NS` (or --all) once. Safe to interrupt and re-run; recall
    beside it sees old and new vectors until it finishes.
    """
    if bool(namespace) == all_namespaces:
        raise typer.BadParameter("give --namespace/-n NS (repeatable) or --all", param_hint="-n")
    memory = common.open_memory(store, data_dir)
    try:
        targets = list(namespace or [])
        if all_namespaces:
            memory.open()
            targets = sorted(set(memory.store.namespaces()) | set(memory.store.embedder_records()))
        reports = []
        with progress_bar() as progress:
            for name in targets:
                task = progress.add_task(f"re-embed {name}", total=None)

                def advance(done: int, total: int, task: TaskID = task) -> None:
                    progress.update(task, completed=done, total=total)

                reports.append(memory.reembed(name, batch_size=batch_size, progress=advance))
    finally:
        memory.close()
    if as_json:
        console.print_json(json.dumps([r.model_dump() for r in reports]))
        return
    table = Table(title="re-embedded")
    for column in ("namespace", "memories", "before", "after", "seconds", "texts/s"):
        table.add_column(
            column, justify="left" if column in ("namespace", "before", "after") else "right"
        )
    for r in reports:
        rate = r.memories / r.seconds if r.seconds > 0 else 0.0
        table.add_row(
            r.namespace,
            str(r.memories),
            r.before or "(none)",
            r.after,
            f"{r.seconds:.1f}",
            f"{rate:.0f}",
        )
    console.print(table)


def rekey(
    namespace: Annotated[
        list[str] | None,
        typer.Option(
            "--namespace", "-n", help="Namespace to re-key (repeat for several; or --all)."
        ),
    ] = None,
    all_namespaces: Annotated[
        bool, typer.Option("--all", help="Every namespace of the store.")
    ] = False,
    batch_size: Annotated[
        int, typer.Option(min=1, help="Memories per page: one transaction each.")
    ] = 256,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Rebuild the contextual keys that BM25 searches (migration for existing data).

    A conversation turn is indexed under a key built from its context: its session's
    date (or the event time its words name: "yesterday" said on 8 May 2023 is
    "[7 May 2023]") and its neighbouring turns; its content stays the claim. Memories
    written before keys existed, or with GRAPHMEM_CONTEXTUAL_KEYS=false, have none:
    `graphmem rekey -n NS` (or --all) builds them from the stored turns of each session
    (with GRAPHMEM_CONTEXTUAL_KEYS=false it clears them). Idempotent; safe to re-run.
    """
    from graphmem.write.keys import rebuild_keys

    if bool(namespace) == all_namespaces:
        raise typer.BadParameter("give --namespace/-n NS (repeatable) or --all", param_hint="-n")
    memory = common.open_memory(store, data_dir)
    rows: list[dict[str, object]] = []
    try:
        memory.open()
        targets = list(namespace or [])
        if all_namespaces:
            targets = sorted(memory.store.namespaces())
        with progress_bar() as progress:
            for name in targets:
                task = progress.add_task(f"re-key {name}", total=None)

                def advance(done: int, total: int, task: TaskID = task) -> None:
                    progress.update(task, completed=done, total=total)

                total, changed = rebuild_keys(
                    memory.store, name, memory.settings, page_size=batch_size, progress=advance
                )
                rows.append({"namespace": name, "memories": total, "changed": changed})
    finally:
        memory.close()
    if as_json:
        console.print_json(json.dumps(rows))
        return
    table = Table(title="contextual keys rebuilt")
    for column in ("namespace", "memories", "changed"):
        table.add_column(column, justify="left" if column == "namespace" else "right")
    for row in rows:
        table.add_row(str(row["namespace"]), str(row["memories"]), str(row["changed"]))
    console.print(table)
