"""The read commands: ``recall``, ``show``, ``stats`` (registered by
:mod:`graphmem.cli.main`)."""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from graphmem.cli import common
from graphmem.cli.common import (
    DataDir,
    JsonOut,
    Namespace,
    StoreOpt,
    console,
    require_namespace,
    warn_embedded_size,
)
from graphmem.errors import InvalidInputError

if TYPE_CHECKING:
    pass


class Profile(StrEnum):
    """Ranking profile of a recall (docs/spec.md §3 / §4)."""

    rrf = "rrf"
    composite = "composite"


class MemoryTypeChoice(StrEnum):
    """A memory type (docs/spec.md §1)."""

    Entity = "Entity"
    Event = "Event"
    Fact = "Fact"
    Preference = "Preference"
    Relation = "Relation"


def recall(
    question: Annotated[str, typer.Argument(help="The question to recall memories for.")],
    namespace: Namespace = "default",
    k: Annotated[
        int, typer.Option("-k", min=1, max=1000, help="How many memories to return.")
    ] = 10,
    explain: Annotated[bool, typer.Option(help="Show each retriever's rank and score.")] = False,
    include_history: Annotated[bool, typer.Option(help="Include superseded memories.")] = False,
    record_access: Annotated[
        bool,
        typer.Option(
            help="Count this recall as use (its top few direct hits get the access update:"
            " count, stability, salience, reactivation). --no-record-access looks without"
            " changing anything."
        ),
    ] = True,
    profile: Annotated[
        Profile,
        typer.Option(
            help="Ranking: rrf (weighted RRF; freshness, then the access boost, break ties,"
            " or multiply with GRAPHMEM_FRESHNESS_MODE / GRAPHMEM_ACCESS_MODE=weight) or composite"
            " (0.6·similarity + 0.2·salience + 0.2·confidence)."
        ),
    ] = Profile.rrf,
    reference_time: Annotated[
        str | None,
        typer.Option(
            help="'Now' for relative times in the question ('last week'): ISO 8601 with"
            " offset, e.g. 2023-05-08T12:00:00+00:00 (default: the current time)."
        ),
    ] = None,
    memory_type: Annotated[
        list[MemoryTypeChoice] | None,
        typer.Option("--type", "-t", help="Only memories of this type (repeatable)."),
    ] = None,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Recall memories for a question, with confidence, freshness and the plan chosen.

    Exits 1 when the namespace does not exist (the message names those that do).
    Each call starts Python and loads the embedding model (seconds). Agents should
    use the MCP server (graphmem mcp) or the Python API (GraphMem / AsyncGraphMem),
    which load it once and answer in milliseconds.
    """
    from graphmem.cli.render import print_recall, recall_to_json

    options: dict[str, Any] = {
        "k": k,
        "include_history": include_history,
        "profile": profile.value,
        "record_access": record_access,
    }
    if reference_time is not None:
        try:
            options["reference_time"] = datetime.fromisoformat(reference_time)
        except ValueError as exc:
            raise InvalidInputError(
                f"not an ISO 8601 time: {reference_time!r}", field="reference_time"
            ) from exc
    if memory_type:
        options["types"] = tuple(t.value for t in memory_type)
    with common.open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)
        result = memory.recall(namespace, question, **options)
    if as_json:
        console.print_json(json.dumps(recall_to_json(result)))
    else:
        print_recall(console, result, explain=explain)


def show(
    memory_id: Annotated[
        str, typer.Argument(help="Memory id, or a unique start of one (the 8 characters shown).")
    ],
    namespace: Namespace = "default",
    history: Annotated[
        bool, typer.Option(help="Also show the memories that superseded it.")
    ] = False,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Show one memory with its scores, provenance (sessions, turns) and the current
    relations it asserts, each with the wording its type was read from ("WORKS_AT,
    from 'start at'"; docs/extraction.md "Vocabulary")."""
    from graphmem.cli.render import print_memory, print_relations

    with common.open_memory(store, data_dir) as memory:
        memory_id = common.require_memory_id(memory, namespace, memory_id)
        chain = (
            memory.history(namespace, memory_id) if history else [memory.get(namespace, memory_id)]
        )
        relations = {m.id: memory.relations_of(namespace, m.id) for m in chain}
    if as_json:
        rows = [
            {
                **m.model_dump(mode="json", exclude={"embedding"}),
                "relations": [
                    r.model_dump(mode="json", exclude={"direction"}) for r in relations[m.id]
                ],
            }
            for m in chain
        ]
        console.print_json(json.dumps(rows))
        return
    for item in chain:
        print_memory(console, item)
        print_relations(console, relations[item.id])


def stats(
    namespace: Namespace = "default",
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Counts for a namespace: memories, current, superseded, cold, entities, relations."""
    with common.open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)
        counts = memory.stats(namespace)
        size = counts.get("memories", 0)
        warn_size = memory.settings.store.embedded_warn_size
        warn = memory.store.name == "embedded" and size > warn_size
    if as_json:
        console.print_json(json.dumps({"namespace": namespace, **counts}))
        return
    table = Table(title=f"namespace {namespace}")
    table.add_column("count")
    table.add_column("value", justify="right")
    for key, value in counts.items():
        table.add_row(key, str(value))
    console.print(table)
    if warn:
        warn_embedded_size(size, warn_size)
