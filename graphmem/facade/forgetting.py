"""The facade's forgetting on request: a memory with its history, an entity with every
memory about it, and the deletion log (docs/spec.md §9.16; ``docs/forgetting.md``).

Each forget is planned from the store's reads (:mod:`graphmem.facade.forget_plan`) and
applied by the store in one transaction (:meth:`~graphmem.store.base.StoreForgetting.forget`),
as a compare-and-set on the versions read: a writer that got in between makes the
facade plan again (``_retrying``). A target that is gone but in the deletion log (a
repeated forget) reports zeros; one never stored is an error naming what exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graphmem.about import resolve_entity
from graphmem.errors import InvalidInputError, MemoryNotFoundError
from graphmem.facade.base import validate_namespace
from graphmem.facade.forget_plan import build_plan, deletion_record, split_about, with_history
from graphmem.facade.reads import Reads
from graphmem.models import Entity, Memory
from graphmem.reports import ForgetKind, ForgetReport
from graphmem.retrieval.rescoring.masking import masked_texts
from graphmem.store.forgetting import DeletionRecord, ForgetPlan, forget_key

_SHOWN = 20  # names listed in an error
_Planner = Callable[[], tuple[dict[str, Memory], ForgetPlan, list[str]]]


class Forgetting(Reads):
    """:class:`graphmem.GraphMem`'s forgetting on request (see the module docstring)."""

    def forget_memory(
        self,
        namespace: str,
        memory_id: str,
        *,
        history: bool = True,
        dry_run: bool = False,
        command: str = "GraphMem.forget_memory",
    ) -> ForgetReport:
        """Forget one memory completely (docs/spec.md §9.16): the memory, its vector and index
        entries, its observations and provenance links (turns and sessions left with no
        memory go too), the relations it asserted, its association links, the entities
        nothing else mentions or relates, and — with ``history`` (default) — every memory
        it superseded or that superseded it, transitively ("forget my old address"
        forgets the history too). Without ``history`` the memories it superseded become
        current again. One transaction; ``dry_run`` counts without removing.

        ``command`` names the caller in the deletion log (no arguments: the log never
        holds content). Returns a :class:`~graphmem.reports.ForgetReport`; a memory
        already forgotten (its id in the deletion log) reports zeros.

        Raises
        ------
        InvalidInputError
            For an unknown namespace (the error lists the namespaces).
        MemoryNotFoundError
            For an id never stored in the namespace.
        """
        return self.forget_memories(
            namespace, [memory_id], history=history, dry_run=dry_run, command=command
        )

    def forget_memories(
        self,
        namespace: str,
        memory_ids: Sequence[str],
        *,
        history: bool = True,
        dry_run: bool = False,
        command: str = "GraphMem.forget_memories",
        kind: ForgetKind = "memory",
    ) -> ForgetReport:
        """:meth:`forget_memory` of several memories in one transaction (the MCP delete
        tools' unit); ``kind`` is the deletion log's. Ids already forgotten are skipped;
        raises like :meth:`forget_memory` for an id never stored."""
        validate_namespace(namespace)
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            raise InvalidInputError("name at least one memory id", field="memory_ids")
        self._use()
        self._reader.flush()

        def plan() -> tuple[dict[str, Memory], ForgetPlan, list[str]]:
            found = self.store.get_memories(namespace, ids)
            missing = [i for i in ids if i not in {m.id for m in found}]
            for ident in missing:
                if not self.store.forgotten(namespace, forget_key("memory", namespace, ident)):
                    self._require_namespace(namespace)
                    raise _memory_not_found(ident, namespace, self.store.count_memories(namespace))
            doomed = (
                with_history(self.store, namespace, found) if history else {m.id: m for m in found}
            )
            built, restored_ids = build_plan(self.store, namespace, doomed, history=history)
            built.record = deletion_record(namespace, kind, command, self._clock(), (), doomed)
            return doomed, built, restored_ids

        return self._run_forget(namespace, kind, plan, dry_run=dry_run)

    def forget_entity(
        self,
        namespace: str,
        name: str,
        *,
        include_mentions: bool = False,
        dry_run: bool = False,
        command: str = "GraphMem.forget_entity",
    ) -> ForgetReport:
        """Forget an entity (docs/spec.md §9.16): every memory whose subject it is — resolved by
        id, name or alias as recall resolves it — with the history of each, every
        relation touching it, the entity with its aliases, and what those memories alone
        supported (as :meth:`forget_memory`). One transaction; ``dry_run`` counts and
        lists without removing.

        Memories that name it only in passing (as an object or a mention: "Alice's
        sister is Dana") are about someone else too, so they are kept: they lose the
        link to the entity and are listed in ``report.kept_mentioning``, since their
        text may still name it. ``include_mentions`` forgets them as well (what an
        erasure request for a person needs).

        Raises
        ------
        InvalidInputError
            For an unknown namespace, or a name no entity of the namespace has and the
            deletion log does not hold (the error lists the entities).
        """
        validate_namespace(namespace)
        if not isinstance(name, str) or not name.strip():
            raise InvalidInputError("must be a non-blank entity name", field="name")
        self._use()
        self._reader.flush()

        def plan() -> tuple[dict[str, Memory], ForgetPlan, list[str]]:
            entity = self._forget_target(namespace, name)
            if entity is None:
                return {}, ForgetPlan(), []
            limit = max(1, self.store.count_memories(namespace))
            hits = self.store.entity_search(namespace, [entity.id], limit, include_history=True)
            mentioning = self.store.get_memories(namespace, [h.memory_id for h in hits])
            about, passing = split_about(entity, mentioning)
            doomed = with_history(
                self.store, namespace, about + (passing if include_mentions else [])
            )
            kept_ids = [m.id for m in passing if m.id not in doomed]
            kept = self.store.get_memories(namespace, kept_ids, with_embeddings=True)
            built, _ = build_plan(
                self.store, namespace, doomed, history=True, entity_ids=[entity.id], kept=kept
            )
            names = [name, entity.name, *entity.aliases]
            built.record = deletion_record(
                namespace,
                "entity",
                command,
                self._clock(),
                [("entity", n) for n in names] + [("entity", entity.id)],
                doomed,
            )
            return doomed, built, kept_ids

        return self._run_forget(namespace, "entity", plan, dry_run=dry_run, kept=True)

    def deletion_log(self, namespace: str) -> list[DeletionRecord]:
        """The deletion log of ``namespace``, oldest first: kind, time, command and counts
        of each forget — never content (docs/spec.md §9.16)."""
        validate_namespace(namespace)
        self._use()
        return self.store.deletion_log(namespace)

    def session_ids(self, namespace: str) -> list[str]:
        """The sessions with an observation in ``namespace``, sorted."""
        validate_namespace(namespace)
        self._use()
        return self.store.session_ids(namespace)

    # -- helpers ----------------------------------------------------------------
    def _run_forget(
        self,
        namespace: str,
        kind: ForgetKind,
        plan: _Planner,
        *,
        dry_run: bool,
        kept: bool = False,
    ) -> ForgetReport:
        """Plan and apply (compare-and-set, planned again after a conflict)."""

        def attempt() -> ForgetReport:
            doomed, built, extra = plan()
            if not built.batch and not built.entity_ids:
                return ForgetReport(
                    namespace=namespace, kind=kind, dry_run=dry_run, already_forgotten=True
                )
            gone = [] if dry_run else self.store.get_memories(namespace, sorted(doomed))
            counts = self.store.forget(namespace, built, dry_run=dry_run)
            if gone:  # no masked vector of a forgotten text stays (docs/spec.md §9.16)
                texts = masked_texts(gone, self._dictionary(namespace))
                self._reader.masked_vectors.forget(texts)
            observations = built.record.counts["observations"] if built.record else 0
            return ForgetReport(
                namespace=namespace,
                kind=kind,
                dry_run=dry_run,
                memories=counts.memories,
                observations=observations,
                relations=counts.relations,
                entities=counts.entities,
                sessions=counts.sessions,
                turns=counts.turns,
                vectors=counts.vectors,
                memory_ids=tuple(sorted(doomed)),
                restored_ids=() if kept else tuple(extra),
                kept_mentioning=tuple(extra) if kept else (),
            )

        with self._namespace_lock(namespace):
            try:
                report, _ = self._retrying(namespace, attempt)
            finally:
                if not dry_run:
                    self._invalidate(namespace)
        return report

    def _forget_target(self, namespace: str, name: str) -> Entity | None:
        """The entity ``name`` resolves to; None when it is in the deletion log."""
        known = self._dictionary(namespace)
        entity = known.get(name.strip()) or resolve_entity(known, name)
        if entity is not None:
            return entity
        if self.store.forgotten(namespace, forget_key("entity", namespace, name)):
            return None
        self._require_namespace(namespace)
        names = sorted(e.name for e in self.store.list_entities(namespace))
        shown = ", ".join(names[:_SHOWN]) + (" ..." if len(names) > _SHOWN else "")
        raise InvalidInputError(
            f"no entity named {name!r} in namespace {namespace!r} (entities: {shown or 'none'})",
            field="name",
        )

    def _require_namespace(self, namespace: str) -> None:
        """InvalidInputError listing the namespaces when ``namespace`` holds nothing."""
        known = self.store.namespaces()
        if namespace in known or namespace in self.store.embedder_records():
            return  # holds data, or was written to and emptied by a forget
        shown = ", ".join(known[:_SHOWN]) + (" ..." if len(known) > _SHOWN else "")
        raise InvalidInputError(
            f"namespace {namespace!r} does not exist in this store (namespaces: {shown or 'none'})",
            field="namespace",
        )


def _memory_not_found(memory_id: str, namespace: str, count: int) -> MemoryNotFoundError:
    error = MemoryNotFoundError(memory_id, namespace)
    error.args = (
        f"no memory {memory_id!r} in namespace {namespace!r} ({count} memories there;"
        f" `graphmem list -n {namespace}` lists them)",
    )
    return error
