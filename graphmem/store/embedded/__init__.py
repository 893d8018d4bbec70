"""The embedded backend: :class:`EmbeddedStore` (in :mod:`graphmem.store.embedded.store`)
and the private parts it is composed of (``docs/store.md``, "How a backend is put
together")."""

from graphmem.store.embedded.store import EmbeddedStore

__all__ = ["EmbeddedStore"]
