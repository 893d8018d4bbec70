"""The asynchronous twins of :class:`graphmem.GraphMem`'s forgetting on request (docs/spec.md
§9.16; ``docs/forgetting.md``), mixed into :class:`graphmem.aio.AsyncGraphMem`: each
runs the blocking call on the facade's worker threads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from graphmem.reports import ForgetKind, ForgetReport
from graphmem.store.forgetting import DeletionRecord

if TYPE_CHECKING:
    from graphmem.memory import GraphMem

_T = TypeVar("_T")


class AsyncForgetting:
    """``forget_memory``, ``forget_memories``, ``forget_entity``, ``deletion_log`` and
    ``session_ids`` of :class:`graphmem.aio.AsyncGraphMem`."""

    sync: GraphMem

    if TYPE_CHECKING:  # AsyncGraphMem's

        async def run_sync(self, call: Callable[..., _T], *args: Any, **kwargs: Any) -> _T: ...

    async def forget_memory(
        self,
        namespace: str,
        memory_id: str,
        *,
        history: bool = True,
        dry_run: bool = False,
        command: str = "AsyncGraphMem.forget_memory",
    ) -> ForgetReport:
        """:meth:`GraphMem.forget_memory`: forget a memory with its history."""
        return await self.run_sync(
            self.sync.forget_memory,
            namespace,
            memory_id,
            history=history,
            dry_run=dry_run,
            command=command,
        )

    async def forget_memories(
        self,
        namespace: str,
        memory_ids: Sequence[str],
        *,
        history: bool = True,
        dry_run: bool = False,
        command: str = "AsyncGraphMem.forget_memories",
        kind: ForgetKind = "memory",
    ) -> ForgetReport:
        """:meth:`GraphMem.forget_memories`: forget several memories in one transaction."""
        return await self.run_sync(
            self.sync.forget_memories,
            namespace,
            memory_ids,
            history=history,
            dry_run=dry_run,
            command=command,
            kind=kind,
        )

    async def forget_entity(
        self,
        namespace: str,
        name: str,
        *,
        include_mentions: bool = False,
        dry_run: bool = False,
        command: str = "AsyncGraphMem.forget_entity",
    ) -> ForgetReport:
        """:meth:`GraphMem.forget_entity`: forget an entity and every memory about it."""
        return await self.run_sync(
            self.sync.forget_entity,
            namespace,
            name,
            include_mentions=include_mentions,
            dry_run=dry_run,
            command=command,
        )

    async def deletion_log(self, namespace: str) -> list[DeletionRecord]:
        """:meth:`GraphMem.deletion_log`: the namespace's deletion log, oldest first."""
        return await self.run_sync(self.sync.deletion_log, namespace)

    async def session_ids(self, namespace: str) -> list[str]:
        """:meth:`GraphMem.session_ids`: the namespace's sessions, sorted."""
        return await self.run_sync(self.sync.session_ids, namespace)
