"""``graphmem forget``: a session, a memory (with its history) or an entity, and the
deletion log (docs/spec.md §9.16; ``docs/forgetting.md``).

Never silently nothing: an unknown namespace, session, memory id or entity is an error
naming what exists (exit 1); a repeated forget reports zeros.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from graphmem.cli import common
from graphmem.cli.common import DataDir, JsonOut, Namespace, StoreOpt, console, err
from graphmem.errors import InvalidInputError, MemoryNotFoundError
from graphmem.store.forgetting import forget_key

if TYPE_CHECKING:
    from graphmem.memory import GraphMem
    from graphmem.reports import ForgetReport

_SHOWN = 20


def forget(
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="Forget a session's contributions.")
    ] = None,
    memory_id: Annotated[
        str | None,
        typer.Option(
            "--memory",
            "-m",
            help="Forget a memory (an id or a unique start of one), its history too.",
        ),
    ] = None,
    entity: Annotated[
        str | None,
        typer.Option(
            "--entity", "-e", help="Forget an entity (name, alias or id) and every memory about it."
        ),
    ] = None,
    namespace: Namespace = "default",
    dry_run: Annotated[bool, typer.Option(help="Only list what would be forgotten.")] = False,
    yes: Annotated[
        bool,
        typer.Option("--yes", help="--entity: forget without asking (else it asks, or refuses)."),
    ] = False,
    with_mentions: Annotated[
        bool,
        typer.Option(
            "--with-mentions",
            help="--entity: also forget the memories that name it only in passing.",
        ),
    ] = False,
    keep_history: Annotated[
        bool,
        typer.Option(
            "--keep-history",
            help="--memory: keep what it superseded (and make that current again).",
        ),
    ] = False,
    show_log: Annotated[
        bool, typer.Option("--log", help="Show the namespace's deletion log instead.")
    ] = False,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Forget on request: a session, one memory with its history, or an entity.

    \b
    graphmem forget --memory 1a2b3c4d -n alice          the fact and its history
    graphmem forget --entity "Dana Whitfield" -n alice --dry-run
    graphmem forget --entity "Dana Whitfield" -n alice --yes --with-mentions
    graphmem forget --session day2 -n alice             a session's contributions
    graphmem forget --log -n alice                      what was forgotten, when

    Each forget is one transaction and prints what it removed (memories, observations,
    relations, entities, sessions, turns, vectors); the deletion log records the kind,
    time, command and counts, never the content. Unknown names exit 1.
    """
    chosen = [
        name
        for name, value in (("--session", session), ("--memory", memory_id), ("--entity", entity))
        if value is not None
    ]
    if len(chosen) + int(show_log) != 1:
        raise typer.BadParameter(
            "give exactly one of --session, --memory, --entity or --log", param_hint="forget"
        )
    with common.open_memory(store, data_dir) as memory:
        if show_log:
            _show_log(memory, namespace, as_json)
        elif session is not None:
            _forget_session(memory, namespace, session, dry_run, as_json)
        elif memory_id is not None:
            report = _forget_memory(memory, namespace, memory_id, dry_run, keep_history)
            _print(memory, report, as_json)
        elif entity is not None:
            _forget_entity(memory, namespace, entity, dry_run, yes, with_mentions, as_json)


def _fail(message: str) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}")
    return typer.Exit(1)


def _forget_session(
    memory: GraphMem, namespace: str, session: str, dry_run: bool, as_json: bool
) -> None:
    common.require_namespace(memory, namespace)
    known = memory.session_ids(namespace)
    if session not in known and memory.store.forgotten(
        namespace, forget_key("session", namespace, session)
    ):
        if as_json:
            console.print_json(json.dumps({"deleted": [], "updated": []}))
        else:
            console.print(f"session [bold]{session}[/] is already forgotten: nothing to delete")
        return
    if session not in known:
        shown = ", ".join(known[:_SHOWN]) + (" ..." if len(known) > _SHOWN else "")
        raise _fail(f"no session {session!r} in namespace {namespace!r} (sessions: {shown})")
    outcome = memory.forget_session(namespace, session, dry_run=dry_run)
    if as_json:
        console.print_json(json.dumps(outcome))
        return
    verb = "would" if dry_run else "did"
    console.print(
        f"{verb} delete {len(outcome['deleted'])} memories and recompute"
        f" {len(outcome['updated'])} from session [bold]{session}[/]"
    )
    for kind in ("deleted", "updated"):
        for ident in outcome[kind]:
            console.print(f"  {kind:8} {ident}")


def _forget_memory(
    memory: GraphMem, namespace: str, memory_id: str, dry_run: bool, keep_history: bool
) -> ForgetReport:
    def run(ident: str) -> ForgetReport:
        return memory.forget_memory(
            namespace,
            ident,
            history=not keep_history,
            dry_run=dry_run,
            command="graphmem forget --memory",
        )

    try:
        return run(memory_id)
    except InvalidInputError as exc:
        raise _fail(str(exc)) from exc
    except MemoryNotFoundError:
        pass
    try:  # a unique start of an id, as the tables show them
        full = memory.resolve_id(namespace, memory_id)
    except (InvalidInputError, MemoryNotFoundError) as exc:
        count = memory.stats(namespace)["memories"]
        raise _fail(
            f"{exc} ({count} memories there; `graphmem list -n {namespace}` lists them)"
        ) from exc
    return run(full)


def _forget_entity(
    memory: GraphMem,
    namespace: str,
    name: str,
    dry_run: bool,
    yes: bool,
    with_mentions: bool,
    as_json: bool,
) -> None:
    def run(dry: bool) -> ForgetReport:
        try:
            return memory.forget_entity(
                namespace,
                name,
                include_mentions=with_mentions,
                dry_run=dry,
                command="graphmem forget --entity",
            )
        except InvalidInputError as exc:
            raise _fail(str(exc)) from exc

    if dry_run or not yes:
        preview = run(True)
        _print(memory, preview, as_json and dry_run)
        if dry_run or preview.already_forgotten:
            return
        if not sys.stdin.isatty():
            raise _fail(f"forgetting {name!r} needs --yes (or run it in a terminal to be asked)")
        if not typer.confirm(f"Forget {name!r} and the memories listed?", default=False):
            raise typer.Exit(1)
    _print(memory, run(False), as_json)


def _print(memory: GraphMem, report: ForgetReport, as_json: bool) -> None:
    if as_json:
        console.print_json(report.model_dump_json())
        return
    console.print(report.summary())
    shown = (
        memory.store.get_memories(report.namespace, list(report.memory_ids))
        if report.dry_run
        else []
    )
    text = {m.id: m.content for m in shown}
    for ident in report.memory_ids:
        console.print(f"  forget   {ident}  {text.get(ident, '')[:80]}")
    for ident in report.restored_ids:
        console.print(f"  current  {ident}  (what superseded it is forgotten)")
    if report.kept_mentioning:
        console.print(
            f"{len(report.kept_mentioning)} memories name it in passing and are kept without the"
            " link (their text may still name it; --with-mentions forgets them too):"
        )
        for ident in report.kept_mentioning:
            console.print(f"  kept     {ident}")


def _show_log(memory: GraphMem, namespace: str, as_json: bool) -> None:
    entries = memory.deletion_log(namespace)
    if not entries:
        common.require_namespace(memory, namespace)
    if as_json:
        rows = [
            {"at": e.at.isoformat(), "kind": e.kind, "command": e.command, "counts": dict(e.counts)}
            for e in entries
        ]
        console.print_json(json.dumps(rows))
        return
    table = Table(title=f"deletion log of {namespace}")
    for column in ("at", "kind", "command", "counts"):
        table.add_column(column)
    for e in entries:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(e.counts.items()) if v)
        table.add_row(e.at.isoformat(timespec="seconds"), e.kind, e.command, counts)
    console.print(table)
