"""The playground's connections under load: a fixed set of threads answers them, and a
connection that would wait too long is answered 503 at once.

The listening socket's backlog holds :data:`BACKLOG` connections (the kernel may cap it at
``net.core.somaxconn``; the standard library's default is 5, and connections past it were
never accepted); :data:`HANDLERS` threads answer the connections accepted, which wait for one
in a queue of at most :data:`WAITING`; a connection that finds the queue full goes to the
refuser, a thread that reads what came with it (closing a socket with unread input resets the
connection, and the answer with it), answers :data:`BUSY_ANSWER` and closes it.  A keep-alive
connection is closed after its answer while others wait (the handler asks :meth:`crowded`).

>>> BUSY_ANSWER.split(b"\\r\\n")[0]
b'HTTP/1.1 503 Service Unavailable'
"""

from __future__ import annotations

import queue
import socket
import threading
from typing import Any

__all__ = ["BoundedConnections", "HANDLERS", "WAITING", "BACKLOG", "BUSY_ANSWER"]

#: Threads that answer connections; connections waiting for one; the listen backlog.
HANDLERS = 16
WAITING = 256
BACKLOG = 1024
_BUSY_BODY = b'{"error": "the server is answering too many requests: try again", "status": 503}'
#: The answer of a connection that finds the queue full.
BUSY_ANSWER = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8"
               b"\r\nContent-Length: %d\r\nRetry-After: 1\r\nConnection: close\r\n"
               b"Cache-Control: no-store\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY))
#: Seconds the refuser waits for a refused connection's request.
REFUSER_WAIT = 0.2
#: The most a refused connection's request is read.
REFUSER_READ = 64 * 1024


def _refuse(connections: queue.Queue[socket.socket]) -> None:
    """The refuser's loop: reads what each connection sent at once, answers 503, closes it."""
    while True:
        sock = connections.get()
        try:
            sock.settimeout(REFUSER_WAIT)
            sock.recv(REFUSER_READ)
            sock.sendall(BUSY_ANSWER)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            sock.close()


class BoundedConnections:
    """A mixin for a socketserver.TCPServer subclass: connections answered by HANDLERS
    threads from a queue of WAITING, 503 past it.  The server calls :meth:`start_handlers`
    once bound, and :meth:`stop_handlers` when closed."""

    request_queue_size = BACKLOG

    def start_handlers(self) -> None:
        self._waiting: queue.Queue[tuple[Any, Any] | None] = queue.Queue(WAITING)
        self._refused: queue.Queue[socket.socket] = queue.Queue(WAITING)
        self._handlers = [threading.Thread(target=self._handle_connections, daemon=True)
                          for _ in range(HANDLERS)]
        for t in self._handlers + [threading.Thread(target=_refuse, args=(self._refused,),
                                                    daemon=True)]:
            t.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Queues an accepted connection for the handler threads, or refuses it (503) when
        the queue is full; a connection neither can take is closed."""
        try:
            self._waiting.put_nowait((request, client_address))
        except queue.Full:
            try:
                self._refused.put_nowait(request)
            except queue.Full:
                self.shutdown_request(request)  # type: ignore[attr-defined]

    def _handle_connections(self) -> None:
        while (item := self._waiting.get()) is not None:
            self.process_request_thread(*item)  # type: ignore[attr-defined]

    def crowded(self) -> bool:
        """Whether connections wait for a handler thread (keep-alive ones then close)."""
        return not self._waiting.empty()

    def stop_handlers(self) -> None:
        """Each handler ends after the connections queued before it (they are daemon
        threads: with a full queue they end with the process)."""
        for _ in self._handlers:
            try:
                self._waiting.put_nowait(None)
            except queue.Full:
                break
