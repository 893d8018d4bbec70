"""The write commands: ``ingest``, ``confirm``, ``correct``, ``delete-namespace``
(registered by :mod:`graphmem.cli.main`; ``forget`` is :mod:`graphmem.cli.forget_cmds`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from graphmem.cli import common
from graphmem.cli.common import (
    DataDir,
    ExtractorOpt,
    JsonOut,
    Namespace,
    StoreOpt,
    console,
    progress_bar,
    warn_embedded_size,
)
from graphmem.errors import InvalidInputError, InvalidMemoryError

if TYPE_CHECKING:
    from graphmem.models import MemoryCandidate, WriteReport


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

    from graphmem.jsonlines import json_object
    from graphmem.models import MemoryCandidate

    candidates: list[MemoryCandidate] = []
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        raw = json_object(line, number, error=InvalidMemoryError)
        try:
            candidates.append(MemoryCandidate.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(
                str(p) for p in first["loc"] if isinstance(p, int) or str(p).isidentifier()
            )
            raise InvalidMemoryError(first["msg"], field=f"line {number}: {where}") from exc
    return candidates


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    file = Path(path)
    if not file.is_file():
        raise InvalidInputError(f"no such file: {str(file)!r}", field="path")
    return file.read_text(encoding="utf-8")


def ingest(
    path: Annotated[
        str,
        typer.Argument(
            help=(
                "The file ('-': standard input): JSONL memory candidates, or a conversation"
                " (a chat of 'Name: text' lines, or JSON/JSONL messages); the format is"
                " detected (docs/extraction.md)."
            ),
            show_default=False,
        ),
    ],
    namespace: Namespace = "default",
    store: StoreOpt = None,
    data_dir: DataDir = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Candidates per atomic write.")] = 256,
    as_json: JsonOut = False,
    extractor: ExtractorOpt = None,
    extract: Annotated[
        bool,
        typer.Option(
            "--extract",
            help=(
                "For a conversation: the chat model GRAPHMEM_LLM_MODEL (at"
                ' GRAPHMEM_LLM_BASE_URL) extracts the memories (README "LLM extraction");'
                " without a model configured, each turn is stored verbatim, as without"
                " --extract."
            ),
        ),
    ] = False,
    session_id: Annotated[
        str, typer.Option("--session", help="Session of conversation turns naming none.")
    ] = "default",
) -> None:
    """Remember a file: JSONL memory candidates (README "Input format"), or a
    conversation, whose turns are stored verbatim with the entities and
    relations the offline extractor finds (with --extract: the memories a chat
    model finds).

    A conversation is a chat, one turn per line "Name: text" (a line
    "# session s2 2026-05-15T10:00+02:00" starts a session and dates its turns),
    or JSON/JSONL messages {"speaker", "content", "observed_at", "session_id"};
    see docs/extraction.md. A file in none of these formats is refused with the
    list of formats.

    The whole file is validated first: a bad line aborts with its line number
    and nothing is written (with --extract, nothing is written either when the
    model fails). The summary counts what became of each candidate: new (a new
    current memory), merged (a new observation of a stored one), superseded
    (stored, but an older memory it conflicts with stays current) and rejected;
    they add up to the candidates. "replaced" counts the older memories that new
    candidates superseded (docs/spec.md §9.9).
    """
    from graphmem.extract.transcript import read_input

    text = _read_text(path)
    kind, records = read_input(text)
    if extract or kind != "candidates":
        _ingest_conversation(
            records,
            kind,
            namespace,
            store,
            data_dir,
            session_id,
            as_json,
            extractor,
            extract,
            batch_size=batch_size,
        )
        return
    candidates = _parse_jsonl(text.splitlines())
    _remember_candidates(candidates, namespace, store, data_dir, batch_size, as_json, extractor)


def _remember_candidates(
    candidates: list[MemoryCandidate],
    namespace: str,
    store: StoreOpt,
    data_dir: DataDir,
    batch_size: int,
    as_json: bool,
    extractor: ExtractorOpt,
    *,
    what: str = "candidates",
) -> None:
    totals = {
        "candidates": len(candidates),
        "created": 0,
        "merged": 0,
        "superseded": 0,
        "rejected": 0,
        "replaced": 0,
    }
    chosen = {"extractor": extractor.value} if extractor is not None else {}
    with common.open_memory(store, data_dir, **chosen) as memory, progress_bar() as progress:
        task = progress.add_task("remembering", total=len(candidates))

        def count(report: WriteReport, done: int) -> None:
            for outcome in report.outcomes:
                totals[outcome] += 1
            ids = {i for i in report.memory_ids if i is not None}
            totals["replaced"] += len([i for i in report.superseded if i not in ids])
            progress.update(task, completed=done)

        memory.remember_many(namespace, candidates, batch_size=batch_size, on_batch=count)
        size = memory.stats(namespace).get("memories", 0)
        warn_size = memory.settings.store.embedded_warn_size
        large = memory.store.name == "embedded" and size > warn_size
    if large:
        warn_embedded_size(size, warn_size)
    if as_json:
        console.print_json(json.dumps({"namespace": namespace, "format": what, **totals}))
    else:
        console.print(
            f"[green]ingested[/] {totals['candidates']} {what} into namespace"
            f" [bold]{namespace}[/]: {totals['created']} new, {totals['merged']} merged,"
            f" {totals['superseded']} superseded, {totals['rejected']} rejected"
            f" ({totals['replaced']} older memories replaced)"
        )


_LABELS = {"chat": "chat turns", "messages": "messages", "candidates": "messages"}


def _ingest_conversation(
    records: list[dict[str, Any]],
    kind: str,
    namespace: str,
    store: StoreOpt,
    data_dir: DataDir,
    session_id: str,
    as_json: bool,
    extractor: ExtractorOpt,
    extract: bool,
    *,
    batch_size: int = 256,
) -> None:
    from graphmem.extract.messages import as_messages
    from graphmem.extract.transcript import TranscriptExtractor
    from graphmem.settings import Settings

    messages = as_messages(records, observed_at=datetime.now(UTC), session_id=session_id)
    if not extract or not (Settings().llm.llm_model or "").strip():
        if extract:
            console.print(f"[yellow]note[/]: {TranscriptExtractor.NOTE}")
        turns = TranscriptExtractor().extract(messages)
        _remember_candidates(
            turns, namespace, store, data_dir, batch_size, as_json, extractor, what=_LABELS[kind]
        )
        return
    chosen = {"extractor": extractor.value} if extractor is not None else {}
    with common.open_memory(store, data_dir, **chosen) as memory, progress_bar() as progress:
        task = progress.add_task("extracting", total=len(messages))
        report = memory.remember_text(
            namespace,
            messages,
            session_id=session_id,
            on_batch=lambda n: progress.advance(task, n),
        )
        model = memory.settings.llm.llm_model
    totals = {"messages": len(messages), "candidates": len(report.outcomes)}
    for outcome in ("created", "merged", "superseded", "rejected"):
        totals[outcome] = report.outcomes.count(outcome)
    if as_json:
        console.print_json(json.dumps({"namespace": namespace, "model": model, **totals}))
    else:
        console.print(
            f"[green]extracted[/] {totals['candidates']} memories from {len(messages)} messages"
            f" with {model} into namespace [bold]{namespace}[/]: {totals['created']} new,"
            f" {totals['merged']} merged, {totals['superseded']} superseded,"
            f" {totals['rejected']} rejected"
        )


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
    with common.open_memory(store, data_dir) as memory:
        memory_id = common.require_memory_id(memory, namespace, memory_id)
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
    with common.open_memory(store, data_dir) as memory:
        memory_id = common.require_memory_id(memory, namespace, memory_id)
        old, new = memory.correct(namespace, memory_id, content)
    if as_json:
        console.print_json(json.dumps({"old_id": old.id, "new_id": new.id, "content": new.content}))
        return
    if old.id != memory_id:
        console.print(f"{memory_id} was already replaced; corrected its current successor {old.id}")
    elif old.superseded_by not in (None, new.id):  # it corrects the past (docs/updates.md)
        console.print(f"{memory_id} was already replaced by {old.superseded_by}, which stays current;"
                      f" the correction of its past is [bold]{new.id}[/]: {new.content}")
        return
    console.print(f"{old.id} superseded by [bold]{new.id}[/]: {new.content}")


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
    with common.open_memory(store, data_dir) as memory:
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
