"""The facade the contract suite drives: ``GraphMem`` itself, or ``AsyncGraphMem``
behind a blocking adapter, so the same tests check both APIs (issue 14).

:class:`BlockingAsyncFacade` answers every public method of ``GraphMem`` by
awaiting the ``AsyncGraphMem`` coroutine of the same name on an event loop of its
own thread; a public ``GraphMem`` method that ``AsyncGraphMem`` lacks raises
``AttributeError`` instead of quietly falling back to the synchronous one.
Attributes that are not methods (``store``, ``settings``) come from the wrapped
facade.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import AsyncIterator, Coroutine
from typing import Any, TypeVar

from graphmem import GraphMem
from graphmem.aio import AsyncGraphMem

_T = TypeVar("_T")


async def _collect(items: AsyncIterator[_T]) -> list[_T]:
    return [item async for item in items]


class BlockingAsyncFacade:
    """``GraphMem``'s synchronous surface, every call going through ``AsyncGraphMem``."""

    def __init__(self, memory: GraphMem) -> None:
        self.aio = AsyncGraphMem(memory=memory)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _wait(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=120)

    def __getattr__(self, name: str) -> Any:
        sync_attr = getattr(self.aio.sync, name)
        if name.startswith("_") or not inspect.ismethod(sync_attr):
            return sync_attr
        method = getattr(self.aio, name, None)
        if method is None:
            raise AttributeError(f"AsyncGraphMem has no {name}() (GraphMem has)")
        if inspect.isasyncgenfunction(method):
            return lambda *args, **kwargs: self._wait(_collect(method(*args, **kwargs)))
        assert inspect.iscoroutinefunction(method), name
        return lambda *args, **kwargs: self._wait(method(*args, **kwargs))

    def stop(self) -> None:
        """Stop the worker threads, the retriever threads, the loop and its thread (the
        store fixture closes the store, after the test's namespaces are deleted)."""
        self._wait(self.aio.close())  # the facade does not own the store (owns_store=False)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


def facade(memory: GraphMem, api: str) -> Any:
    """``memory`` itself (``api="sync"``) or the async adapter over it."""
    return memory if api == "sync" else BlockingAsyncFacade(memory)


def release(driven: Any) -> None:
    """End of a test: stop the adapter (closing the facade), or close a plain
    ``GraphMem``; built with ``owns_store=False``, neither closes the store (the store
    fixture does, after the test's namespaces are deleted)."""
    if isinstance(driven, BlockingAsyncFacade):
        driven.stop()
    else:
        driven.close()
