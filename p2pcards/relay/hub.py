"""One task reads every room member's socket: the relay's hot path without a task per frame.

With a reading task per connection, every frame costs a Trio task switch: the socket's
registration in Trio's epoll (one ``epoll_ctl`` per wait), a wake-up, a pass of the run loop
and a coroutine resumed through several frames, which is most of the relay's CPU per frame and,
on a busy machine, where its tail latency comes from. A :class:`ReadHub` keeps its own
level-triggered epoll of the member sockets, waits on it as one file descriptor in Trio, and
on each wake-up reads every ready socket once and hands the bytes to that socket's callback, all
in one task step: a pass over a hundred ready sockets costs one wake-up. Then it calls
``after_pass``, with which the relay writes what the pass had for each member in one write (so
the more the relay has to catch up with, the fewer writes per frame it makes).

A callback runs synchronously inside the hub's step and must not raise. Whatever needs to wait
(a throttled member) or end (end of stream, a socket error, a cut) is handed back to the
connection's own task, which :meth:`ReadHub.remove` s the socket first. Linux only
(``select.epoll``): elsewhere the relay reads each socket from its own task, as
:func:`available` says.
"""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Callable

import trio

__all__ = ["ReadHub", "available", "Received"]

Received = bytes | OSError
"""What a callback is given: the bytes read (``b""`` at end of stream) or the read's error."""


def available() -> bool:
    """Whether this platform has what :class:`ReadHub` needs (``select.epoll``)."""
    return hasattr(select, "epoll")


class ReadHub:
    """Reads registered sockets from one task (:meth:`run`), ``read_chunk`` bytes at most per
    ready socket and pass."""

    def __init__(self, read_chunk: int, after_pass: Callable[[], None]) -> None:
        self._read_chunk = read_chunk
        self._after_pass = after_pass
        self._epoll = select.epoll()
        self._callbacks: dict[int, Callable[[Received], None]] = {}
        self.in_pass = False
        """True while callbacks run; ``after_pass`` runs once they all have."""

    def __len__(self) -> int:
        return len(self._callbacks)

    def add(self, fd: int, callback: Callable[[Received], None]) -> None:
        """Read ``fd`` from now on and give what is read to ``callback``."""
        self._callbacks[fd] = callback
        self._epoll.register(fd, select.EPOLLIN)

    def remove(self, fd: int) -> None:
        """Stop reading ``fd`` (idempotent; call it before the socket is closed)."""
        if self._callbacks.pop(fd, None) is not None:
            with contextlib.suppress(OSError, ValueError):
                self._epoll.unregister(fd)

    async def run(self) -> None:
        """Serve the registered sockets until cancelled."""
        poll = self._epoll.poll
        callbacks = self._callbacks
        chunk = self._read_chunk
        wait_readable = trio.lowlevel.wait_readable
        while True:
            await wait_readable(self._epoll.fileno())
            self.in_pass = True
            try:
                for fd, _events in poll(0):
                    callback = callbacks.get(fd)
                    if callback is None:
                        continue  # removed by an earlier callback of this pass
                    try:
                        data: Received = os.read(fd, chunk)
                    except BlockingIOError:
                        continue
                    except OSError as exc:
                        data = exc
                    callback(data)
            finally:
                self.in_pass = False
            self._after_pass()

    def close(self) -> None:
        """Release the epoll once :meth:`run` and every connection using the hub are over."""
        trio.lowlevel.notify_closing(self._epoll.fileno())
        self._epoll.close()
