"""A Trio client of the relay's mailbox service (:mod:`.mailbox`).

Usage::

    box = await open_mailbox(host, port, ttl, table)  # a host: box.plate, box.ttl
    await box.wait_claimed()                          # a joiner claimed it
    box = await claim_mailbox(host, port, plate)      # a joiner
    await box.send(body); body = await box.receive()
    await box.aclose()

Errors: :class:`~.errors.RelayRejected` with the relay's reason (``code-unknown``,
``code-used``, ``code-expired``, ``mailbox-closed``, ...), :class:`~.errors.RelayUnavailable`
(unreachable, or the connection broke), :class:`~.errors.RelayProtocolError`.
"""

from __future__ import annotations

from typing import Any

import trio

from ..wire.errors import FrameTooLarge
from ..wire.framing import FrameDecoder, encode_frame
from .errors import RelayProtocolError, RelayRejected, RelayUnavailable
from .mailbox import (
    DEFAULT_MAILBOX_LIMITS,
    decode_relay_reply,
    encode_claim,
    encode_message,
    encode_open,
)

__all__ = ["MailboxClient", "open_mailbox", "claim_mailbox"]

CONNECT_SECONDS = 10.0
_MAX_MESSAGE = DEFAULT_MAILBOX_LIMITS.max_message


class MailboxClient:
    """One connection to a mailbox: the host's (``plate`` and ``ttl`` set) or a joiner's."""

    def __init__(self, stream: trio.SocketStream, where: str) -> None:
        self.stream = stream
        self.where = where
        self.plate = 0
        self.ttl = 0
        self._decoder = FrameDecoder(_MAX_MESSAGE + 1024)
        self._frames: list[bytes] = []

    async def _next(self) -> tuple[str, Any]:
        """The relay's next message; an ``error`` raises :class:`RelayRejected`."""
        while not self._frames:
            try:
                data = await self.stream.receive_some(4096)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise RelayUnavailable("broken", f"the connection to the relay at {self.where} "
                                       f"broke: {exc}") from None
            if not data:
                raise RelayUnavailable("closed", f"the relay at {self.where} closed the "
                                       "connection")
            try:
                self._frames.extend(self._decoder.feed(data))
            except FrameTooLarge as exc:
                raise RelayProtocolError("frame-too-large", str(exc)) from None
        kind, value = decode_relay_reply(self._frames.pop(0), _MAX_MESSAGE)
        if kind == "error":
            reason, message = value
            raise RelayRejected(reason, message)
        return kind, value

    async def _expect(self, kind: str) -> Any:
        got, value = await self._next()
        if got != kind:
            raise RelayProtocolError("bad-message", f"the relay sent mb-{got} where mb-{kind} "
                                     "was expected")
        return value

    async def wait_claimed(self) -> None:
        """Wait until a joiner claims this host's mailbox."""
        await self._expect("claimed")

    async def send(self, body: bytes) -> None:
        try:
            await self.stream.send_all(encode_frame(encode_message(body)))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise RelayUnavailable("broken", f"the connection to the relay at {self.where} "
                                   f"broke: {exc}") from None

    async def receive(self) -> bytes:
        """The other side's next body."""
        body: bytes = await self._expect("msg")
        return body

    async def aclose(self) -> None:
        with trio.CancelScope(shield=True):
            await self.stream.aclose()


async def _connect(host: str, port: int, request: bytes,
                   local_address: str | None = None) -> MailboxClient:
    where = f"{host}:{port}"
    try:
        with trio.fail_after(CONNECT_SECONDS):
            stream = await trio.open_tcp_stream(host, port, local_address=local_address)
    except (OSError, trio.TooSlowError) as exc:
        raise RelayUnavailable("unreachable", f"cannot reach the relay at {where}: "
                               f"{exc or 'no answer'}") from None
    client = MailboxClient(stream, where)
    try:
        await stream.send_all(encode_frame(request))
    except (trio.BrokenResourceError, OSError) as exc:
        await client.aclose()
        raise RelayUnavailable("broken", f"the relay at {where} closed the connection: "
                               f"{exc}") from None
    return client


async def open_mailbox(host: str, port: int, ttl: int, table: bytes) -> MailboxClient:
    """Ask the relay at ``host:port`` for a mailbox of ``table`` (:func:`~.mailbox.table_tag`
    of the table's room), held ``ttl`` seconds (the relay may grant less: see
    :attr:`MailboxClient.ttl`)."""
    client = await _connect(host, port, encode_open(ttl, table))
    try:
        with trio.fail_after(CONNECT_SECONDS):
            client.plate, client.ttl = await client._expect("plate")
    except trio.TooSlowError:
        await client.aclose()
        raise RelayUnavailable("timeout", f"the relay at {client.where} did not answer within "
                               f"{CONNECT_SECONDS:.0f} seconds") from None
    except BaseException:
        await client.aclose()
        raise
    return client


async def claim_mailbox(host: str, port: int, plate: int, *,
                        local_address: str | None = None) -> MailboxClient:
    """Claim the mailbox ``plate`` at the relay at ``host:port`` (once per nameplate), from
    ``local_address`` if given."""
    client = await _connect(host, port, encode_claim(plate), local_address)
    try:
        with trio.fail_after(CONNECT_SECONDS):
            await client.wait_claimed()
    except trio.TooSlowError:
        await client.aclose()
        raise RelayUnavailable("timeout", f"the relay at {client.where} did not answer within "
                               f"{CONNECT_SECONDS:.0f} seconds") from None
    except BaseException:
        await client.aclose()
        raise
    client.plate = plate
    return client
