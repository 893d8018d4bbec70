"""``graphmem list``: every memory of a namespace with its tier and flags.

Recall hides what is superseded, unretrievable or cold (docs/spec.md §3, §4); this
command hides nothing, so a user can see what consolidation and updates did and
find a memory's id. Filters narrow it: ``--cold``, ``--unretrievable``,
``--superseded``, ``--type``, ``--entity``.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from graphmem.cli import common
from graphmem.cli.common import DataDir, JsonOut, Namespace, StoreOpt, console
from graphmem.models import Memory
from graphmem.settings import MemoryTypeName
from graphmem.store.base import MemoryFilter


def flags(memory: Memory) -> str:
    """The memory's state in words: current or superseded, retrievable or not."""
    words = ["current" if memory.is_current else f"superseded→{memory.superseded_by or ''}"[:19]]
    if not memory.retrievable:
        words.append("unretrievable")
    if memory.type_uncertain:
        words.append("type?")
    return ", ".join(words)


def list_command(
    namespace: Namespace = "default",
    cold: Annotated[bool, typer.Option("--cold", help="Only cold-tier memories.")] = False,
    unretrievable: Annotated[
        bool,
        typer.Option("--unretrievable", help="Only memories consolidation flagged unretrievable."),
    ] = False,
    superseded: Annotated[
        bool, typer.Option("--superseded", help="Only superseded memories (kept for audit).")
    ] = False,
    current: Annotated[bool, typer.Option("--current", help="Only current memories.")] = False,
    types: Annotated[
        list[str] | None,
        typer.Option(
            "--type",
            help="Only this type (Entity, Event, Fact, Preference, Relation); repeat for several.",
        ),
    ] = None,
    entity: Annotated[
        str | None, typer.Option("--entity", help="Only memories mentioning this entity.")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=100_000, help="Show at most this many.")] = 100,
    after: Annotated[
        str | None, typer.Option(help="Start after this id (page on from the last one shown).")
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """List memories with their tier and flags — superseded, unretrievable and cold ones too.

    Recall leaves those out; this shows what is stored, by id. Example:
    graphmem list -n sam --unretrievable
    """
    from graphmem.errors import InvalidInputError
    from graphmem.settings import MEMORY_TYPES

    if superseded and current:
        raise InvalidInputError("choose --superseded or --current, not both", field="superseded")
    chosen: list[MemoryTypeName] = []
    for name in types or []:
        match = next((t for t in MEMORY_TYPES if t.casefold() == name.casefold()), None)
        if match is None:
            raise InvalidInputError(
                f"unknown type {name!r}; one of {', '.join(MEMORY_TYPES)}", field="type"
            )
        chosen.append(match)
    where = MemoryFilter(
        cold=True if cold else None,
        retrievable=False if unretrievable else None,
        superseded=True if superseded else (False if current else None),
        types=tuple(chosen),
    )
    with common.open_memory(store, data_dir) as memory:
        common.require_namespace(memory, namespace)
        found = memory.list_memories(
            namespace, where=where, entity=entity, after_id=after, limit=limit
        )
        total = memory.stats(namespace)["memories"]
    if as_json:
        rows = [m.model_dump(mode="json", exclude={"embedding"}) for m in found]
        console.print_json(json.dumps({"namespace": namespace, "memories": rows}))
        return
    table = Table(title=f"namespace {namespace}: {len(found)} shown of {total} memories")
    table.add_column("id")
    table.add_column("type")
    table.add_column("tier")
    table.add_column("flags")
    table.add_column("n", justify="right")
    table.add_column("conf", justify="right")
    table.add_column("last observed")
    table.add_column("memory", min_width=30, ratio=1)
    for m in found:
        table.add_row(
            m.id[:8],
            m.type,
            m.tier,
            flags(m),
            str(m.n),
            f"{m.confidence:.2f}",
            f"{m.last_observed_at:%Y-%m-%d}",
            m.content,
        )
    console.print(table)
    if len(found) == limit:
        console.print(f"[dim]more may follow: --after {found[-1].id}[/]")
