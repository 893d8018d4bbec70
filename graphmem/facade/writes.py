"""The facade's writes: remember, confirm, correct, forget, delete (docs/spec.md §2)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from graphmem.errors import (
    InvalidMemoryError,
)
from graphmem.facade.base import field_error, validate_namespace
from graphmem.facade.forget_plan import session_plan
from graphmem.facade.users import Users
from graphmem.language.claims import claim_of, names_agree, subject_of
from graphmem.language.endings import corrects_history
from graphmem.models import EntityMention, Memory, MemoryCandidate, WriteReport
from graphmem.store.base import (
    WriteBatch,
    versions_read,
)
from graphmem.store.checks import check_k
from graphmem.write.about import stated_attribute, stated_predicate
from graphmem.write.lifecycle import CORRECTION_SESSION, confirm_memory, forget_session_batch

if TYPE_CHECKING:  # pragma: no cover
    from graphmem.extract.conversation import LLMExtractor
    from graphmem.extract.messages import Message


class Writes(Users):
    """:class:`graphmem.GraphMem`'s write calls, each under the namespace's lock and
    retried on a write conflict (``_retrying``)."""

    def remember(
        self, namespace: str, candidates: Iterable[MemoryCandidate | Mapping[str, Any]]
    ) -> WriteReport:
        """Persist memory candidates (docs/spec.md §2); all or nothing.

        When another writer changes a memory this call merges into between its
        reads and its write, the call reads and recomputes again (``attempts`` in
        the report says how many it took).

        Raises
        ------
        InvalidMemoryError
            When any candidate is invalid — naming ``candidates[i].field`` —
            before anything is written.
        WriteConflictError
            When ``Settings.write.write_conflict_attempts`` attempts all conflicted.
        """
        validate_namespace(namespace)
        parsed: list[MemoryCandidate] = []
        for i, raw in enumerate(candidates):
            try:
                parsed.append(
                    raw if isinstance(raw, MemoryCandidate) else MemoryCandidate.model_validate(raw)
                )
            except ValidationError as exc:
                raise InvalidMemoryError(
                    exc.errors()[0]["msg"], field=field_error(exc, f"candidates[{i}]")
                ) from exc
        self._use()
        if self.settings.write.user is not None and self.user(namespace) is None:
            self.set_user(namespace, self.settings.write.user)
        self._reader.flush()
        with self._namespace_lock(namespace):
            self._record_embedder(namespace)
            try:
                report, attempts = self._retrying(
                    namespace, lambda: self._writer.remember(namespace, parsed)
                )
            finally:
                self._invalidate(namespace)
        self._warm_masked(namespace, report.created)
        return report.model_copy(update={"attempts": attempts}) if attempts > 1 else report

    def remember_text(
        self,
        namespace: str,
        messages: str | Iterable[Message | Mapping[str, Any]],
        *,
        session_id: str = "default",
        speaker: str | None = None,
        observed_at: datetime | None = None,
        extractor: LLMExtractor | None = None,
        on_batch: Callable[[int], None] | None = None,
    ) -> WriteReport:
        """Extract memories from raw conversation with the LLM extractor and remember
        them (docs/spec.md §11; :mod:`graphmem.extract.conversation`).

        Parameters
        ----------
        namespace : str
        messages : str or iterable of Message or mapping
            One text, or messages ``{"content", "speaker", "observed_at",
            "session_id", "turn_id"}`` (all but ``content`` optional).
        session_id, speaker : optional
            For messages that name none (``speaker``: of a plain text).
        observed_at : datetime, optional
            Time of messages that carry none (default: now); event times like
            "yesterday" are resolved against each message's time.
        extractor : LLMExtractor, optional
            Default: the chat model ``GRAPHMEM_LLM_*`` configure.
        on_batch : callable, optional
            Called with each extracted batch's message count (progress).

        Raises
        ------
        InvalidInputError
            A message is invalid (the field is named); nothing written.
        ConfigurationError
            No model configured (``GRAPHMEM_LLM_MODEL``).
        ExtractionError
            The model failed, refused or answered no valid JSON; nothing written.
        InvalidMemoryError, StoreError
            As ``remember``.
        """
        from graphmem.extract.conversation import LLMExtractor
        from graphmem.extract.messages import as_messages

        validate_namespace(namespace)
        parsed = as_messages(
            messages,
            observed_at=observed_at or self._clock(),
            session_id=session_id,
            speaker=speaker,
        )
        llm = extractor or LLMExtractor.from_settings(self.settings)
        self._use()
        known = [entity.name for entity in self.store.list_entities(namespace)]
        return self.remember(namespace, llm.extract(parsed, known, on_batch=on_batch))

    def remember_many(
        self,
        namespace: str,
        candidates: Sequence[MemoryCandidate | Mapping[str, Any]],
        *,
        batch_size: int = 256,
        on_batch: Callable[[WriteReport, int], None] | None = None,
    ) -> list[WriteReport]:
        """``remember`` in batches of ``batch_size`` (each atomic); returns one report per
        batch, in order, once every batch is written.

        While a batch is deduplicated and written, the next batch's texts are
        already being embedded (one background thread; see
        :mod:`graphmem.facade.prefetching_embedder`), so ingest runs close to the model's speed.
        ``on_batch(report, candidates_done)`` is called after each batch (progress).

        Raises
        ------
        InvalidInputError
            For ``batch_size < 1`` (nothing written).
        InvalidMemoryError, StoreError
            As ``remember``; the batches before the failing one stay written.
        """
        check_k(batch_size, "batch_size")
        reports: list[WriteReport] = []
        for start in range(0, len(candidates), batch_size):
            upcoming = candidates[start + batch_size : start + 2 * batch_size]
            self._prefetcher.prefetch([text for c in upcoming if (text := _content(c))])
            report = self.remember(namespace, candidates[start : start + batch_size])
            reports.append(report)
            if on_batch is not None:
                on_batch(report, min(len(candidates), start + batch_size))
        return reports

    def confirm(self, namespace: str, memory_id: str, *, session_id: str | None = None) -> Memory:
        """Explicit user confirmation (docs/spec.md §2.10): ``s = max(s, 0.80)``, ``n + 1``,
        confidence recomputed and capped at 0.99.

        Raises
        ------
        MemoryNotFoundError
            When ``memory_id`` is not in the namespace.
        InvalidMemoryError
            When the memory is superseded (``field="memory_id"``): confirming it would
            change nothing the user sees; confirm the current memory, or ``correct``
            it back.
        """

        def attempt() -> Memory:
            memory = self._current(
                namespace,
                memory_id,
                "is superseded by {by}; confirm the current memory, or correct it to"
                " restore this claim",
            )
            updated = confirm_memory(memory, self.settings, self._clock(), session_id=session_id)
            batch = WriteBatch(memories=[updated], expected_versions=versions_read([memory]))
            self.store.write(namespace, batch)
            return updated

        with self._namespace_lock(namespace):
            updated, _ = self._retrying(namespace, attempt)
        return updated.model_copy(update={"embedding": None})

    def correct(
        self,
        namespace: str,
        memory_id: str,
        content: str,
        *,
        session_id: str = CORRECTION_SESSION,
    ) -> tuple[Memory, Memory]:
        """Replace a memory's content (docs/spec.md §2.11: an explicit correction supersedes
        regardless of confidence). Returns ``(old, new)``.

        One atomic write: the correction is stored (or merged into another memory
        that already states it — never into the memory it corrects) and the old
        memory superseded by it, with the relations it asserted (§9.9). Everything is
        validated first: on an error nothing changes.

        A memory that an update or a restatement already replaced is not a dead end:
        the correction follows its ``superseded_by`` chain to the current memory and
        corrects that one; ``old.id`` then differs from ``memory_id`` (callers say so).

        Raises
        ------
        MemoryNotFoundError
            When ``memory_id`` is not in the namespace.
        InvalidMemoryError
            When the content is blank or the corrected memory's own (``field="content"``),
            or the chain from ``memory_id`` ends in no current memory (``field="memory_id"``).
        """
        validate_namespace(namespace)
        with self._namespace_lock(namespace):
            try:
                return self._correct(namespace, memory_id, content, session_id)
            finally:
                self._invalidate(namespace)

    def _kept_mentions(
        self, namespace: str, memory: Memory, content: str
    ) -> tuple[EntityMention, ...]:
        """The entities of ``memory`` that its correction ``content`` still names, with
        their kind and role: "Tomas's birthday is on 20 August" corrects "Tomas was born
        on 21 August" and is still about Tomas as its subject (the extractor alone would
        find the name, not the role). The subject stays even when the correction does
        not name it ("Veterinaria Mendoza is in Tlajomulco, not Tlaquepaque" corrects
        what Ramón's practice is): a correction is about what it corrects."""
        known = self._dictionary(namespace)
        text = content.casefold()
        about = subject_of(claim_of(memory, known))
        kept: list[EntityMention] = []
        for mention in memory.mentions:
            entity = known.get(mention.entity_id)
            if entity is None:
                continue
            role = mention.role
            if about is not None and names_agree(tuple(entity.name.casefold().split()), about):
                role = "subject"  # kept, named or not: "Correction: it's in Tlajomulco"
            elif not re.search(rf"\b{re.escape(entity.name.casefold())}\b", text):
                continue
            kept.append(EntityMention(name=entity.name, kind=entity.kind, role=role))
        return tuple(kept)

    def current_successor(self, namespace: str, memory_id: str) -> Memory:
        """The current memory at the end of ``memory_id``'s ``superseded_by`` chain (the
        memory itself when it is current).

        Raises
        ------
        MemoryNotFoundError
            When ``memory_id`` is not in the namespace.
        InvalidMemoryError
            When the chain ends in a memory that is gone or loops (``field="memory_id"``).
        """
        memory = self.get(namespace, memory_id)
        seen = {memory.id}
        while not memory.is_current and memory.superseded_by is not None:
            following = self.store.get_memories(namespace, [memory.superseded_by])
            if not following or following[0].id in seen:
                raise InvalidMemoryError(
                    f"memory {memory_id} is superseded and its successor"
                    f" {memory.superseded_by} is no longer stored; correct a current memory",
                    field="memory_id",
                )
            memory = following[0]
            seen.add(memory.id)
        if not memory.is_current:
            raise InvalidMemoryError(
                f"memory {memory_id} is no longer current and has no current successor",
                field="memory_id",
            )
        return memory

    def _correct(
        self, namespace: str, memory_id: str, content: str, session_id: str
    ) -> tuple[Memory, Memory]:
        first, target = self.current_successor(namespace, memory_id), self.get(namespace, memory_id)
        # "in Toronto I taught at Malvern, not Riverdale" corrects a replaced claim, not its successor
        now = stated_attribute(first) if first.id != target.id else None
        history = now is not None and corrects_history(target.content, now.value, content)
        memory_id = first.id
        try:
            candidate = MemoryCandidate(
                content=content,
                type=first.type,
                source_level="direct",
                extractor="verbatim",
                subject=first.subject,
                predicate=None if history else stated_predicate(first),
                entities=self._kept_mentions(namespace, first, content),
                session_id=session_id,
                observed_at=self._clock(),
            )
        except ValidationError as exc:
            raise InvalidMemoryError(
                exc.errors()[0]["msg"], field=field_error(exc, "correction")
            ) from exc

        def attempt() -> WriteReport:
            old = self._current(
                namespace,
                memory_id,
                "is already superseded by {by}; correct the current memory instead",
            )
            return self._writer.remember(namespace, [candidate], corrects=None if history else old)

        self._reader.flush()
        report, _ = self._retrying(namespace, attempt)
        new_id = report.memory_ids[0]
        assert new_id is not None  # a correction is never rejected (checked above)
        return target if history else self.get(namespace, memory_id), self.get(namespace, new_id)

    def _current(self, namespace: str, memory_id: str, superseded: str) -> Memory:
        """The memory with its embedding, for an update that needs it current; else
        ``InvalidMemoryError`` (``field="memory_id"``): ``memory <id> <superseded>``
        with ``{by}`` the id that superseded it."""
        memory = self.get(namespace, memory_id, with_embedding=True)
        if not memory.is_current:
            raise InvalidMemoryError(
                f"memory {memory_id} {superseded.format(by=memory.superseded_by)}",
                field="memory_id",
            )
        return memory

    def forget_session(
        self, namespace: str, session_id: str, *, dry_run: bool = False, batch_size: int = 500
    ) -> dict[str, list[str]]:
        """Remove a session's contributions (docs/spec.md §1 "Provenance").

        Memories only the session supports are deleted, the rest recomputed
        without its observations; the session's turns and the session itself go
        with its last memory. One atomic store write per ``batch_size`` affected
        memories (a failure part-way leaves whole batches done; rerunning finishes).

        Returns ``{"deleted": [...], "updated": [...]}`` (what would change, with
        ``dry_run``).
        """
        validate_namespace(namespace)
        check_k(batch_size, "batch_size")
        self._use()
        deleted: list[str] = []
        updated: list[str] = []

        def attempt() -> None:
            # after a conflict, the batches already written no longer show the session
            affected = self.store.memories_in_session(namespace, session_id)
            for start in range(0, len(affected), batch_size):
                chunk = affected[start : start + batch_size]
                batch, gone, changed = forget_session_batch(chunk, session_id, self.settings)
                if not dry_run and batch:  # one transaction, logged (docs/forgetting.md)
                    plan = session_plan(namespace, session_id, chunk, batch, self._clock())
                    self.store.forget(namespace, plan)
                deleted.extend(gone)
                updated.extend(changed)

        with self._namespace_lock(namespace):
            try:
                self._retrying(namespace, attempt)
            finally:
                if not dry_run:
                    self._invalidate(namespace)
        return {"deleted": deleted, "updated": updated}

    def delete_namespace(self, namespace: str) -> int:
        """Delete everything in ``namespace``; returns the number of memories removed."""
        validate_namespace(namespace)
        self._use()
        with self._namespace_lock(namespace):
            self._invalidate(namespace)
            deleted = self.store.delete_namespace(namespace)
            if self._records is not None:
                self._records.pop(namespace, None)
            return deleted


def _content(candidate: MemoryCandidate | Mapping[str, Any]) -> str | None:
    """A candidate's text if it has one (prefetching skips anything else; validation
    happens in ``remember``)."""
    content = (
        candidate.content if isinstance(candidate, MemoryCandidate) else candidate.get("content")
    )
    return content if isinstance(content, str) and content else None
