"""The ``graphmem`` command line (typer + rich).

Every command that prints a table also takes ``--json``. The store is the
embedded one under ``--data-dir`` (default ``.graphmem``) unless
``--store neo4j`` or ``GRAPHMEM_NEO4J_URI`` selects Neo4j.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import TaskID
from rich.table import Table

from graphmem.cli.common import (
    DataDir,
    ExtractorOpt,
    JsonOut,
    Namespace,
    StoreOpt,
    console,
    err,
    progress_bar,
)
from graphmem.cli.common import open_memory as open_memory  # the tests' patch point
from graphmem.cli.lazy import LazyCommand, lazy_group
from graphmem.errors import GraphMemError, InvalidInputError, InvalidMemoryError

if TYPE_CHECKING:  # imported where used: `--help` and model-free commands stay fast
    from graphmem.memory import GraphMem
    from graphmem.models import MemoryCandidate, WriteReport

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
        "Concept drift per entity (SPEC §10): report only, nothing is changed.",
    ),
    "list": LazyCommand(
        "graphmem.cli.listing",
        "list_command",
        "List memories with tier and flags: superseded, unretrievable and cold ones too.",
    ),
    "import-locomo": LazyCommand(
        "graphmem.cli.locomo_cmds",
        "import_locomo",
        "Import LoCoMo conversations as memories (one namespace each).",
    ),
}
_LAZY_BENCH_COMMANDS = {
    "locomo": LazyCommand(
        "graphmem.cli.locomo_cmds",
        "bench_app",
        "Retrieval quality on LoCoMo (BENCHMARKS.md §1).",
        subcommand="locomo",
    ),
    "lifecycle": LazyCommand(
        "graphmem.cli.lifecycle_cmds",
        "bench_lifecycle",
        "Memory over time: updates, negations, corrections, use and consolidation.",
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
bench_app = typer.Typer(
    cls=lazy_group(_LAZY_BENCH_COMMANDS),
    help="Benchmarks: retrieval quality (LoCoMo) and speed.",
    no_args_is_help=True,
)
app.add_typer(bench_app, name="bench")


class Profile(StrEnum):
    """Ranking profile of a recall (SPEC §3 / §4)."""

    rrf = "rrf"
    composite = "composite"


class MemoryTypeChoice(StrEnum):
    """A memory type (SPEC §1)."""

    Entity = "Entity"
    Event = "Event"
    Fact = "Fact"
    Preference = "Preference"
    Relation = "Relation"


def read_jsonl(path: Path | str) -> list[MemoryCandidate]:
    """Parse a JSONL file of memory candidates (``-``: standard input); any bad line
    aborts with its line number.

    Raises
    ------
    InvalidMemoryError
        ``field`` is ``line N`` or ``line N: <field>``.
    InvalidInputError
        When the file cannot be read (``field="path"``).
    """
    if str(path) == "-":
        return _parse_jsonl(sys.stdin)
    file = Path(path)
    if not file.is_file():
        raise InvalidInputError(f"no such file: {str(file)!r}", field="path")
    with file.open(encoding="utf-8") as handle:
        return _parse_jsonl(handle)


def _parse_jsonl(handle: Iterable[str]) -> list[MemoryCandidate]:
    from pydantic import ValidationError

    from graphmem.models import MemoryCandidate

    candidates: list[MemoryCandidate] = []
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidMemoryError(f"not valid JSON ({exc.msg})", field=f"line {number}") from exc
        if not isinstance(raw, dict):
            raise InvalidMemoryError("each line must be a JSON object", field=f"line {number}")
        try:
            candidates.append(MemoryCandidate.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(
                str(p) for p in first["loc"] if isinstance(p, int) or str(p).isidentifier()
            )
            raise InvalidMemoryError(first["msg"], field=f"line {number}: {where}") from exc
    return candidates


@app.command()
def ingest(
    path: Annotated[
        str,
        typer.Argument(
            help="JSONL file: one memory candidate per line; '-' reads standard input.",
            show_default=False,
        ),
    ],
    namespace: Namespace = "default",
    store: StoreOpt = None,
    data_dir: DataDir = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Candidates per atomic write.")] = 256,
    as_json: JsonOut = False,
    extractor: ExtractorOpt = None,
) -> None:
    """Remember every candidate in a JSONL file (see README "Input format").

    The whole file is validated first: a bad line aborts with its line number
    and nothing is written. The summary counts what became of each line: new
    (a new current memory), merged (a new observation of a stored one),
    superseded (stored, but an older memory it conflicts with stays current) and
    rejected; they add up to the lines. "replaced" counts the older memories that
    new lines superseded (SPEC §9.9).
    """
    candidates = read_jsonl(path)
    totals = {
        "candidates": len(candidates),
        "created": 0,
        "merged": 0,
        "superseded": 0,
        "rejected": 0,
        "replaced": 0,
    }
    chosen = {"extractor": extractor.value} if extractor is not None else {}
    with open_memory(store, data_dir, **chosen) as memory, progress_bar() as progress:
        task = progress.add_task("remembering", total=len(candidates))

        def count(report: WriteReport, done: int) -> None:
            for outcome in report.outcomes:
                totals[outcome] += 1
            ids = {i for i in report.memory_ids if i is not None}
            totals["replaced"] += len([i for i in report.superseded if i not in ids])
            progress.update(task, completed=done)

        memory.remember_many(namespace, candidates, batch_size=batch_size, on_batch=count)
        size = memory.stats(namespace).get("memories", 0)
        warn_size = memory.settings.embedded_warn_size
        large = memory.store.name == "embedded" and size > warn_size
    if large:
        _warn_embedded_size(size, warn_size)
    if as_json:
        console.print_json(json.dumps({"namespace": namespace, **totals}))
    else:
        console.print(
            f"[green]ingested[/] {totals['candidates']} candidates into namespace"
            f" [bold]{namespace}[/]: {totals['created']} new, {totals['merged']} merged,"
            f" {totals['superseded']} superseded, {totals['rejected']} rejected"
            f" ({totals['replaced']} older memories replaced)"
        )


def require_namespace(memory: GraphMem, namespace: str) -> None:
    """Exit 1 with the existing namespaces when ``namespace`` holds nothing (a typo, or a
    forgotten ``-n``): an empty answer would look like "nothing remembered"."""
    known = memory.namespaces()
    if namespace in known:
        return
    listed = ", ".join(known[:20]) + (" ..." if len(known) > 20 else "") if known else "none"
    err.print(
        f"[bold red]error:[/] namespace {namespace!r} does not exist in this store"
        f" (namespaces: {listed}); choose one with -n NAME"
    )
    raise typer.Exit(1)


@app.command()
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
    with open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)
        result = memory.recall(namespace, question, **options)
    if as_json:
        console.print_json(json.dumps(recall_to_json(result)))
    else:
        print_recall(console, result, explain=explain)


@app.command()
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
    """Show one memory with its scores and provenance (sessions, turns)."""
    from graphmem.cli.render import print_memory

    with open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)
        memory_id = memory.resolve_id(namespace, memory_id)
        chain = (
            memory.history(namespace, memory_id) if history else [memory.get(namespace, memory_id)]
        )
    if as_json:
        console.print_json(
            json.dumps([m.model_dump(mode="json", exclude={"embedding"}) for m in chain])
        )
        return
    for item in chain:
        print_memory(console, item)


@app.command()
def confirm(
    memory_id: Annotated[
        str, typer.Argument(help="Memory id to confirm, or a unique start of one.")
    ],
    namespace: Namespace = "default",
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Record an explicit user confirmation (source ≥ confirmed, n + 1, cap 0.99)."""
    with open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)
        memory_id = memory.resolve_id(namespace, memory_id)
        before = memory.get(namespace, memory_id)
        after = memory.confirm(namespace, memory_id)
    if as_json:
        console.print_json(
            json.dumps(
                {
                    "id": memory_id,
                    "confidence_before": before.confidence,
                    "confidence": after.confidence,
                    "n_before": before.n,
                    "n": after.n,
                }
            )
        )
        return
    console.print(
        f"confirmed {memory_id}: confidence {before.confidence:.4f} → {after.confidence:.4f}, n {before.n} → {after.n}"
    )


@app.command()
def correct(
    memory_id: Annotated[
        str, typer.Argument(help="Memory id to correct, or a unique start of one.")
    ],
    content: Annotated[str, typer.Argument(help="The corrected content.")],
    namespace: Namespace = "default",
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Supersede a memory with corrected content (the old one stays for audit).

    One atomic write, checked first: content identical to the memory's is refused
    and nothing changes.
    """
    with open_memory(store, data_dir) as memory:
        require_namespace(memory, namespace)
        memory_id = memory.resolve_id(namespace, memory_id)
        old, new = memory.correct(namespace, memory_id, content)
    if as_json:
        console.print_json(json.dumps({"old_id": old.id, "new_id": new.id, "content": new.content}))
        return
    console.print(f"{old.id} superseded by [bold]{new.id}[/]: {new.content}")


@app.command()
def forget(
    session: Annotated[str, typer.Option("--session", "-s", help="Session id to forget.")],
    namespace: Namespace = "default",
    dry_run: Annotated[bool, typer.Option(help="Only list what would change.")] = False,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Forget a session: delete memories only it supports, recompute the rest."""
    with open_memory(store, data_dir) as memory:
        outcome = memory.forget_session(namespace, session, dry_run=dry_run)
    if as_json:
        console.print_json(json.dumps(outcome))
        return
    verb = "would" if dry_run else "did"
    console.print(
        f"{verb} delete {len(outcome['deleted'])} memories and recompute {len(outcome['updated'])} "
        f"from session [bold]{session}[/]"
    )
    for kind in ("deleted", "updated"):
        for ident in outcome[kind]:
            console.print(f"  {kind:8} {ident}")


@app.command("delete-namespace")
def delete_namespace(
    namespace: Annotated[
        str, typer.Option("--namespace", "-n", help="Namespace to delete (no default).")
    ],
    yes: Annotated[
        bool, typer.Option("--yes", help="Really delete; without it, only count.")
    ] = False,
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Delete a whole namespace: its memories, entities, relations, sessions and links.

    Without --yes it only shows what would be deleted and exits with code 1.
    """
    with open_memory(store, data_dir) as memory:
        counts = memory.stats(namespace)
        deleted = memory.delete_namespace(namespace) if yes else 0
    if as_json:
        console.print_json(
            json.dumps({"namespace": namespace, "deleted": yes, "memories": deleted, **counts})
        )
    elif yes:
        console.print(f"deleted namespace [bold]{namespace}[/]: {deleted} memories")
    else:
        console.print(
            f"would delete namespace [bold]{namespace}[/]: {counts['memories']} memories,"
            f" {counts['entities']} entities, {counts['relations']} relations,"
            f" {counts['sessions']} sessions; re-run with --yes to delete"
        )
    if not yes:
        raise typer.Exit(1)


@app.command()
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
    cold tier, concept drift (SPEC §4, §10).

    The consistency scan supersedes (SPEC §9.9: the later observation, unless the older
    is more confident by update_margin) one memory of each pair about the same subject
    that contradict each other (SPEC §9.10: another date, number, name, object, state or
    a negation); --json lists each pair with its ids and reason. Drifting entities are
    listed, never changed. Idempotent and safe while recall runs; schedule it (e.g. daily).
    """
    try:
        start = None if since is None else datetime.fromisoformat(since)
    except ValueError as exc:
        raise InvalidInputError(f"not an ISO 8601 time: {since!r}", field="since") from exc
    with open_memory(store, data_dir) as memory:
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


@app.command()
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
    memory = open_memory(store, data_dir)
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


@app.command()
def stats(
    namespace: Namespace = "default",
    store: StoreOpt = None,
    data_dir: DataDir = None,
    as_json: JsonOut = False,
) -> None:
    """Counts for a namespace: memories, current, superseded, cold, entities, relations."""
    with open_memory(store, data_dir) as memory:
        counts = memory.stats(namespace)
        size = counts.get("memories", 0)
        warn_size = memory.settings.embedded_warn_size
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
        _warn_embedded_size(size, warn_size)


def _warn_embedded_size(size: int, warn_size: int) -> None:
    err.print(
        f"[yellow]warning:[/] {size} memories is past the embedded store's comfortable size"
        f" ({warn_size}, GRAPHMEM_EMBEDDED_WARN_SIZE): after each write its first recall"
        ' rebuilds the in-memory indexes. Use Neo4j (GRAPHMEM_NEO4J_URI; README "Performance").'
    )


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
            " namespace (SPEC §10); exit 1 below vector_recall_alert (0.95).",
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
) -> None:
    """Check the store: connection, server version, schema and index states."""
    from graphmem.cli.doctor import run_doctor, run_index_recall

    memory = open_memory(store, data_dir)
    ok = run_doctor(console, memory)
    if index_recall:
        ok = run_index_recall(console, memory, sample=sample) and ok
    raise typer.Exit(0 if ok else 1)


@bench_app.command("latency")
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
            help="Neo4j only: also time neo4j-graphrag's HybridRetriever on the same memories"
            " (pip install 'graphmem\\[peer]'; skipped when it is not installed).",
        ),
    ] = False,
    json_out: Annotated[
        Path | None, typer.Option("--json-out", help="Write the result as JSON to this file.")
    ] = None,
) -> None:
    """Recall latency p50/p95/p99 and per-stage breakdown at N synthetic memories.

    Memories are generated from templates with random unit embeddings (built
    through the store's bulk path); queries use the real model. BENCHMARKS.md §2.
    """
    from graphmem.perf import bench_latency, bench_peer

    with open_memory(store, data_dir) as memory, progress_bar() as progress:
        warn_size = memory.settings.embedded_warn_size
        task = progress.add_task(f"building {n} memories", total=n)
        result = bench_latency(
            memory,
            n,
            repeats=repeats,
            rebuild=rebuild,
            progress=lambda done: progress.update(task, completed=done),
        )
        if peer:
            result["peer"] = bench_peer(memory, n, repeats=repeats)
    _print_perf(result, json_out)
    if result["past_embedded_warn_size"]:
        _warn_embedded_size(n, warn_size)


@bench_app.command("ingest")
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
    json_out: Annotated[
        Path | None, typer.Option("--json-out", help="Write the result as JSON to this file.")
    ] = None,
) -> None:
    """Ingest throughput of LoCoMo turns as a ratio to raw model.encode on the same texts."""
    from graphmem.locomo import load_locomo, turn_candidates
    from graphmem.perf import bench_ingest

    candidates = [c for conv in load_locomo(path) for c in turn_candidates(conv)][:limit]
    texts = [str(c["content"]) for c in candidates]
    with open_memory(store, data_dir) as memory, progress_bar() as progress:
        task = progress.add_task("ingesting", total=len(candidates))
        result = bench_ingest(
            memory,
            (texts, candidates),
            batch_size=batch,
            progress=lambda done: progress.update(task, completed=done),
        )
    _print_perf(result, json_out)


def _print_perf(result: dict[str, Any], json_out: Path | None) -> None:
    table = Table(title="graphmem benchmark")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in result.items():
        if isinstance(value, dict):
            for sub, item in value.items():
                table.add_row(f"{key}.{sub}", str(item))
        else:
            table.add_row(key, str(value))
    console.print(table)
    if json_out is not None:
        json_out.write_text(json.dumps(result, indent=2), encoding="utf-8")


def main() -> None:
    """Entry point with graphmem errors turned into one clear line and exit code 2."""
    try:
        app()
    except GraphMemError as exc:
        err.print(f"[bold red]error:[/] {exc}")
        sys.exit(2)


if __name__ == "__main__":
    main()
