"""``AsyncGraphMem``: the facade for asyncio applications (agents, MCP servers).

>>> from graphmem.aio import AsyncGraphMem                       # doctest: +SKIP
>>> async with AsyncGraphMem() as memory:                         # doctest: +SKIP
...     await memory.remember("alice", [{"content": "Alice prefers tea"}])
...     result = await memory.recall("alice", "what does Alice drink?")

Every method of :class:`graphmem.GraphMem` is here with the same arguments,
results and errors, as a coroutine.

How it runs: each call runs the synchronous facade on a worker thread of a small
pool owned by this object (``threads``, default 4), so the event loop never
blocks on the store, the embedding model or the retrievers. This holds for both
stores: the Neo4j store still uses the driver's synchronous API on those threads
(the driver's async API is not used yet), and the embedded store and the model
have no async API. Concurrency is what the sync facade allows: recalls run side by
side; writes to one namespace take turns (its per-namespace lock), and writers in
other processes are reconciled by the store's compare-and-set.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from graphmem.about import EntityReport, RelationView
from graphmem.aio_forget import AsyncForgetting
from graphmem.entities import EntityDictionary
from graphmem.errors import InvalidInputError
from graphmem.memory import GraphMem
from graphmem.models import Entity, Memory, MemoryCandidate, RecallQuery, RecallResult, WriteReport
from graphmem.reports import ConsolidationReport, EntityDrift, FaithfulnessReport, ReembedReport
from graphmem.settings import Settings
from graphmem.store.base import MemoryFilter
from graphmem.write.lifecycle import CORRECTION_SESSION

if TYPE_CHECKING:
    from graphmem.extract.conversation import LLMExtractor
    from graphmem.extract.messages import Message

_P = ParamSpec("_P")
_T = TypeVar("_T")


class AsyncGraphMem(AsyncForgetting):
    """graphmem's asyncio entry point: the methods of :class:`GraphMem`, awaited.

    Parameters
    ----------
    settings : Settings, optional
        As for :class:`GraphMem`.
    memory : GraphMem, optional
        An existing synchronous facade to drive (it is closed with this object);
        when given, ``settings`` and the component overrides must be omitted.
    threads : int
        Worker threads (1–64) that run the synchronous calls.
    **components
        ``store``, ``embedder``, ``judge``, ``extractor``, ``reranker``, ``clock``:
        passed to :class:`GraphMem`.

    Raises
    ------
    InvalidInputError
        ``threads`` out of range, or ``memory`` given with other options.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        memory: GraphMem | None = None,
        threads: int = 4,
        **components: Any,
    ) -> None:
        if not 1 <= threads <= 64:
            raise InvalidInputError(f"must be in 1..64, got {threads}", field="threads")
        if memory is not None and (settings is not None or components):
            raise InvalidInputError(
                "give either a GraphMem or settings/components, not both", field="memory"
            )
        self.sync: GraphMem = memory if memory is not None else GraphMem(settings, **components)
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="graphmem-aio")

    @property
    def settings(self) -> Settings:
        """The settings of the wrapped facade."""
        return self.sync.settings

    async def run_sync(self, call: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a blocking callable (e.g. a method of ``self.sync`` or of its store) on
        the worker threads and await its result: the way to reach anything of the
        synchronous facade this class does not wrap."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(call, *args, **kwargs))

    # -------------------------------------------------------------- lifecycle
    async def open(self) -> AsyncGraphMem:
        """Open the store (connect, create the schema). Idempotent."""
        await self.run_sync(self.sync.open)
        return self

    async def warm_up(self) -> None:
        """Open the store and load the models now (one tiny embedding, one tiny
        extraction: the spaCy pipeline when the ``ner`` extractor is used), so the first
        recall or remember does not pay for them. Servers call it at start."""
        await self.open()
        await self.run_sync(self.sync.embedder.embed, ["graphmem warm-up"])
        await self.run_sync(
            self.sync.extractor.extract, "Ada Lovelace met Charles Babbage.", EntityDictionary()
        )

    async def close(self) -> None:
        """Close the facade and stop the worker threads (waits for running calls)."""
        try:
            await self.run_sync(self.sync.close)
        finally:
            self._executor.shutdown(wait=True)

    async def flush(self) -> None:
        """Wait until the access updates of the recalls so far are written
        (:meth:`GraphMem.flush`)."""
        await self.run_sync(self.sync.flush)

    async def __aenter__(self) -> AsyncGraphMem:
        return await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -------------------------------------------------------------- writes
    async def remember(
        self, namespace: str, candidates: Sequence[MemoryCandidate | Mapping[str, Any]]
    ) -> WriteReport:
        """:meth:`GraphMem.remember`: persist memory candidates, all or nothing."""
        return await self.run_sync(self.sync.remember, namespace, list(candidates))

    async def remember_text(
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
        """:meth:`GraphMem.remember_text`: extract memories from conversation with the
        chat model, then remember them (nothing written when extraction fails)."""
        text = messages if isinstance(messages, str) else list(messages)
        return await self.run_sync(
            self.sync.remember_text,
            namespace,
            text,
            session_id=session_id,
            speaker=speaker,
            observed_at=observed_at,
            extractor=extractor,
            on_batch=on_batch,
        )

    async def remember_many(
        self,
        namespace: str,
        candidates: Sequence[MemoryCandidate | Mapping[str, Any]],
        *,
        batch_size: int = 256,
        on_batch: Callable[[WriteReport, int], None] | None = None,
    ) -> list[WriteReport]:
        """:meth:`GraphMem.remember_many`: ``remember`` in atomic batches, every batch
        written when it returns; one report per batch (``on_batch`` runs on the worker
        thread after each)."""
        return await self.run_sync(
            self.sync.remember_many,
            namespace,
            list(candidates),
            batch_size=batch_size,
            on_batch=on_batch,
        )

    async def confirm(
        self, namespace: str, memory_id: str, *, session_id: str | None = None
    ) -> Memory:
        """:meth:`GraphMem.confirm`: an explicit user confirmation (docs/spec.md §2.10)."""
        return await self.run_sync(self.sync.confirm, namespace, memory_id, session_id=session_id)

    async def set_user(self, namespace: str, name: str) -> Entity:
        """:meth:`GraphMem.set_user`: name the person the namespace is about."""
        return await self.run_sync(self.sync.set_user, namespace, name)

    async def user(self, namespace: str) -> Entity | None:
        """:meth:`GraphMem.user`: the namespace's user entity, if any."""
        return await self.run_sync(self.sync.user, namespace)

    async def current_successor(self, namespace: str, memory_id: str) -> Memory:
        """:meth:`GraphMem.current_successor`: the current end of a supersession chain."""
        return await self.run_sync(self.sync.current_successor, namespace, memory_id)

    async def correct(
        self, namespace: str, memory_id: str, content: str, *, session_id: str = CORRECTION_SESSION
    ) -> tuple[Memory, Memory]:
        """:meth:`GraphMem.correct`: supersede a memory with corrected content."""
        return await self.run_sync(
            self.sync.correct, namespace, memory_id, content, session_id=session_id
        )

    async def forget_session(
        self, namespace: str, session_id: str, *, dry_run: bool = False, batch_size: int = 500
    ) -> dict[str, list[str]]:
        """:meth:`GraphMem.forget_session`: remove a session's contributions."""
        return await self.run_sync(
            self.sync.forget_session, namespace, session_id, dry_run=dry_run, batch_size=batch_size
        )

    async def delete_namespace(self, namespace: str) -> int:
        """:meth:`GraphMem.delete_namespace`: delete everything in ``namespace``."""
        return await self.run_sync(self.sync.delete_namespace, namespace)

    async def consolidate(
        self,
        namespace: str,
        *,
        now: datetime | None = None,
        batch_size: int = 500,
        since: datetime | None = None,
    ) -> ConsolidationReport:
        """:meth:`GraphMem.consolidate`: the consolidation pass (docs/spec.md §4)."""
        return await self.run_sync(
            self.sync.consolidate, namespace, now=now, batch_size=batch_size, since=since
        )

    async def reembed(
        self,
        namespace: str,
        *,
        batch_size: int = 256,
        progress: Callable[[int, int], None] | None = None,
    ) -> ReembedReport:
        """:meth:`GraphMem.reembed`: re-embed a namespace with this facade's embedder."""
        return await self.run_sync(
            self.sync.reembed, namespace, batch_size=batch_size, progress=progress
        )

    async def reactivate_associated(
        self,
        namespace: str,
        memory_ids: Sequence[str],
        *,
        now: datetime | None = None,
        session_id: str | None = None,
    ) -> list[str]:
        """:meth:`GraphMem.reactivate_associated`: cold reactivation (docs/spec.md §4)."""
        return await self.run_sync(
            self.sync.reactivate_associated, namespace, memory_ids, now=now, session_id=session_id
        )

    # -------------------------------------------------------------- reads
    async def recall(
        self, namespace: str, query: str | RecallQuery | Mapping[str, Any], **options: Any
    ) -> RecallResult:
        """:meth:`GraphMem.recall`: memories for a question (docs/spec.md §3)."""
        return await self.run_sync(self.sync.recall, namespace, query, **options)

    async def get(self, namespace: str, memory_id: str, *, with_embedding: bool = False) -> Memory:
        """:meth:`GraphMem.get`: a memory with its provenance."""
        return await self.run_sync(
            self.sync.get, namespace, memory_id, with_embedding=with_embedding
        )

    async def history(self, namespace: str, memory_id: str) -> list[Memory]:
        """:meth:`GraphMem.history`: the memory and the chain that superseded it."""
        return await self.run_sync(self.sync.history, namespace, memory_id)

    async def relations_of(self, namespace: str, memory_id: str) -> tuple[RelationView, ...]:
        """:meth:`GraphMem.relations_of`: the current relations a memory asserts."""
        return await self.run_sync(self.sync.relations_of, namespace, memory_id)

    async def about_entity(self, namespace: str, name: str, *, limit: int = 50) -> EntityReport:
        """:meth:`GraphMem.about_entity`: current memories and relations of an entity."""
        return await self.run_sync(self.sync.about_entity, namespace, name, limit=limit)

    async def list_memories(
        self,
        namespace: str,
        *,
        where: MemoryFilter | None = None,
        entity: str | None = None,
        after_id: str | None = None,
        limit: int = 100,
    ) -> list[Memory]:
        """:meth:`GraphMem.list_memories`: memories by id with their tier and flags."""
        return await self.run_sync(
            self.sync.list_memories,
            namespace,
            where=where,
            entity=entity,
            after_id=after_id,
            limit=limit,
        )

    async def resolve_id(self, namespace: str, memory_id: str) -> str:
        """:meth:`GraphMem.resolve_id`: the full id of an id or unique id prefix."""
        return await self.run_sync(self.sync.resolve_id, namespace, memory_id)

    async def stats(self, namespace: str) -> dict[str, int]:
        """:meth:`GraphMem.stats`: counts for the namespace."""
        return await self.run_sync(self.sync.stats, namespace)

    async def namespaces(self) -> list[str]:
        """:meth:`GraphMem.namespaces`: namespaces with data in the store."""
        return await self.run_sync(self.sync.namespaces)

    # -------------------------------------------------------------- guards (docs/spec.md §10)
    async def faithfulness(
        self,
        namespace: str,
        answer: str,
        memories: Sequence[str] | RecallResult | None = None,
        *,
        query: str | None = None,
        k: int | None = None,
    ) -> FaithfulnessReport:
        """:meth:`GraphMem.faithfulness`: read-time faithfulness of an answer."""
        return await self.run_sync(
            self.sync.faithfulness, namespace, answer, memories, query=query, k=k
        )

    async def entity(self, namespace: str, name: str) -> Entity:
        """:meth:`GraphMem.entity`: the entity a name, alias or first name resolves to."""
        return await self.run_sync(self.sync.entity, namespace, name)

    async def entity_memories(
        self, namespace: str, name: str, *, include_history: bool = False
    ) -> tuple[Entity, list[Memory]]:
        """:meth:`GraphMem.entity_memories`: an entity and every memory mentioning it."""
        return await self.run_sync(
            self.sync.entity_memories, namespace, name, include_history=include_history
        )

    async def drift(
        self, namespace: str, name: str | None = None, *, since: datetime | None = None
    ) -> list[EntityDrift]:
        """:meth:`GraphMem.drift`: concept drift per entity (reported, never acted on)."""
        return await self.run_sync(self.sync.drift, namespace, name, since=since)
