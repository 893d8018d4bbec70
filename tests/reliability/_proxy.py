"""A loopback TCP proxy that injects connection faults between the Neo4j driver and
the server (the fault tests of issue 6 §5).

The driver connects to :attr:`FaultyProxy.uri`; every connection is piped to the
real server. Faults:

- :meth:`arm` — when the client→server byte stream of any connection contains a
  marker (e.g. the text of one Cypher statement, or a Bolt ``COMMIT`` message)
  for the n-th time, that connection is cut **before** the bytes are forwarded
  (the server sees the client vanish mid-transaction and rolls back), or
  **after** they are forwarded and the server has answered (the reply is lost:
  the client cannot tell whether a COMMIT landed). With ``outage=True`` every
  other connection is cut too and new ones are refused until :meth:`restore`
  — the server is "down" as far as the client can tell.
- :meth:`outage` / :meth:`restore` — take the server away and bring it back.

Cuts use ``SO_LINGER 0`` so the peer sees a reset, as when a process dies.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from dataclasses import dataclass

_CHUNK = 65_536
_TAIL = 63  # bytes kept from the previous read, so a marker split across reads is found
#: A Bolt COMMIT message: chunk header 2, struct marker B0 (0 fields), signature 0x12,
#: end-of-message marker 00 00.
BOLT_COMMIT = b"\x00\x02\xb0\x12\x00\x00"


def _found(window: bytes, old: int, marker: bytes) -> bool:
    """``marker`` occurs in ``window`` ending in its new bytes (after ``old``)."""
    return window.find(marker, max(0, old - len(marker) + 1)) >= 0


def _reset(sock: socket.socket) -> None:
    """Reset ``sock`` now. ``shutdown`` first: a bare ``close`` does not wake a thread
    blocked in ``recv`` on it, and the kernel keeps the connection open until that
    ``recv`` returns — the peer would never notice (and a server would keep the
    transaction, and its locks, of a client that is gone)."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


@dataclass
class _Trigger:
    marker: bytes
    nth: int
    then: bytes | None
    after_reply: bool
    outage: bool
    seen: int = 0
    link: _Link | None = None  # the connection that sent ``marker`` (waiting for ``then``)


class _Link:
    """One client connection and its upstream connection."""

    def __init__(self, proxy: FaultyProxy, client: socket.socket, upstream: socket.socket) -> None:
        self.proxy = proxy
        self.client = client
        self.upstream = upstream
        self.doomed = False  # cut as soon as the server answers
        self.closed = False
        self._tail = b""

    def start(self) -> None:
        for target in (self._client_to_server, self._server_to_client):
            threading.Thread(target=target, daemon=True, name="faulty-proxy-pipe").start()

    def cut(self) -> None:
        if not self.closed:
            self.closed = True
            _reset(self.client)
            _reset(self.upstream)

    def _client_to_server(self) -> None:
        try:
            while not self.closed:
                data = self.client.recv(_CHUNK)
                if not data:
                    break
                window = self._tail + data
                action = self.proxy._inspect(self, window, len(self._tail))
                self._tail = window[-_TAIL:]
                if action == "cut":
                    self.cut()
                    return
                if action == "doom":  # before forwarding: the reply may come at once
                    self.doomed = True
                self.upstream.sendall(data)
        except OSError:
            pass
        self.proxy._forget(self)
        self.cut()

    def _server_to_client(self) -> None:
        try:
            while not self.closed:
                data = self.upstream.recv(_CHUNK)
                if not data:
                    break
                if self.doomed:
                    self.proxy._fault_done(self)
                    self.cut()
                    return
                self.client.sendall(data)
        except OSError:
            pass
        self.proxy._forget(self)
        self.cut()


class FaultyProxy:
    """Loopback TCP proxy to ``upstream`` (host, port) with injectable faults."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self._upstream = upstream
        self._lock = threading.Lock()
        self._links: set[_Link] = set()
        self._trigger: _Trigger | None = None
        self._down = False
        self._stopped = False
        self.connections = 0  # client connections accepted and piped
        self.refused = 0  # connections refused while down
        self.faults = 0  # faults that fired
        self.fired = threading.Event()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._thread = threading.Thread(target=self._accept, daemon=True, name="faulty-proxy")
        self._thread.start()

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._stopped = True
        with contextlib.suppress(OSError):
            self._server.close()
        with self._lock:
            links = list(self._links)
        for link in links:
            link.cut()

    def __enter__(self) -> FaultyProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- faults ---------------------------------------------------------------------
    def arm(
        self,
        marker: bytes,
        *,
        nth: int = 1,
        then: bytes | None = None,
        after_reply: bool = False,
        outage: bool = False,
    ) -> None:
        """Cut the connection that sends ``marker`` for the ``nth`` time (see the module);
        with ``then``, cut when that same connection next sends ``then`` (e.g. the COMMIT
        of the transaction that ran a statement)."""
        for what in (marker, then):
            if what is not None and not 0 < len(what) <= _TAIL + 1:
                raise ValueError(f"markers must be 1..{_TAIL + 1} bytes")
        with self._lock:
            self.fired.clear()
            self._trigger = _Trigger(marker, nth, then, after_reply, outage)

    def outage(self) -> None:
        """Cut every connection and refuse new ones until :meth:`restore`."""
        with self._lock:
            self._down = True
            links = list(self._links)
        for link in links:
            link.cut()

    def restore(self) -> None:
        with self._lock:
            self._down = False

    # -- plumbing -------------------------------------------------------------------
    def _inspect(self, link: _Link, window: bytes, old: int) -> str | None:
        """What to do with bytes ``window[old:]`` (``window[:old]`` was seen before)."""
        with self._lock:
            trigger = self._trigger
            if trigger is None:
                return None
            if trigger.link is not None:  # waiting for ``then`` on that connection
                assert trigger.then is not None
                if link is not trigger.link or not _found(window, old, trigger.then):
                    return None
            else:
                if not _found(window, old, trigger.marker):
                    return None
                trigger.seen += 1
                if trigger.seen < trigger.nth:
                    return None
                if trigger.then is not None:
                    trigger.link = link
                    return None
            self._trigger = None
            if trigger.after_reply:
                return "doom"
            self.faults += 1
            if trigger.outage:
                self._down = True
                others = [x for x in self._links if x is not link]
            else:
                others = []
        for other in others:
            other.cut()
        self.fired.set()
        return "cut"

    def _fault_done(self, link: _Link) -> None:
        with self._lock:
            self.faults += 1
        self.fired.set()

    def _forget(self, link: _Link) -> None:
        with self._lock:
            self._links.discard(link)

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            with self._lock:
                down = self._down
            if down:
                self.refused += 1
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self._upstream, timeout=10)
                upstream.settimeout(None)
            except OSError:
                _reset(client)
                continue
            link = _Link(self, client, upstream)
            with self._lock:
                self._links.add(link)
                self.connections += 1
            link.start()
