"""A dishonest host: the real ``p2pcards host`` code, with a hook on what it forwards to one seat.

Run as a program (the tests start it as a real process)::

    python tests/evil_hub.py MODE SEAT host ARGS...

``MODE`` is what the hub does to the messages it sends to seat ``SEAT``:

- ``equivocate``: the host's own first ``key`` envelope is replaced by another validly signed
  one (the same hand key with a fresh proof), so that ``SEAT`` holds a different envelope at that
  position than every other seat. Everything else, including the answers to fork probes, passes
  through unchanged (the real host code answers them from its own chain).
- ``equivocate-silent``: the same, and the host's answers to ``SEAT``'s fork probes are dropped.
- ``bad-shuffle``: the host's own first ``shuffle`` envelope is re-signed with two ciphertexts of
  its output deck swapped, so that its shuffle proof fails at ``SEAT``.

Everything else is the unmodified host: seating, genesis, session, transcript.
"""

from __future__ import annotations

import sys
from typing import Any

from attacks import cycle_of, identity_of, keys_of

from p2pcards.crypto import SystemRandomness
from p2pcards.net import hub
from p2pcards.net.framed import FrameChannel
from p2pcards.net.session import Session
from p2pcards.table import Table
from p2pcards.wire import Payload, codec, open_envelope, seal


class Twisted(FrameChannel):
    """Wraps the host's channel to the target seat and alters what is sent through it."""

    def __init__(self, inner: FrameChannel, table: Table, mode: str) -> None:
        super().__init__(max_size=inner.max_size, label=inner.label)
        self.inner = inner
        self.table = table
        self.mode = mode
        self.done = False

    async def send(self, payload: bytes) -> None:
        message = codec.unpack(payload, max_size=len(payload))
        if message["type"] == "have" and self.mode == "equivocate-silent":
            return
        if message["type"] == "envelope" and not self.done:
            altered = self.alter(message["data"])
            if altered is not None:
                self.done = True
                payload = codec.pack({"type": "envelope", "data": altered})
        await self.inner.send(payload)

    def alter(self, data: bytes) -> bytes | None:
        table = self.table
        _, payload = open_envelope(data, keys_of(table.genesis))
        if payload.seat != table.seat:
            return None
        body: dict[str, Any] = dict(payload.body)
        if self.mode.startswith("equivocate") and payload.kind == "key":
            key = cycle_of(table).my_key
            assert key is not None
            body["share"] = key.share(cycle_of(table).ctx(payload.seat, "key"),
                                      SystemRandomness()).to_wire()
        elif self.mode == "bad-shuffle" and payload.kind == "shuffle":
            deck = list(body["deck"])
            deck[0], deck[1] = deck[1], deck[0]
            body["deck"] = deck
        else:
            return None
        identity = identity_of(table)
        assert identity is not None
        forged = Payload(table_id=payload.table_id, seq=payload.seq, prev=payload.prev,
                         seat=payload.seat, kind=payload.kind, body=body)
        return seal(forged, identity).encode()

    async def receive(self) -> bytes | None:
        return await self.inner.receive()

    async def aclose(self) -> None:
        await self.inner.aclose()


def main() -> int:
    mode, target = sys.argv[1], int(sys.argv[2])

    class EvilSession(Session):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            for link in self.links:
                if target in link.seats:
                    link.framed = Twisted(link.framed, self.reference, mode)

    hub.Session = EvilSession  # type: ignore[misc]
    from p2pcards.cli import main as cli_main

    return cli_main(sys.argv[3:])


if __name__ == "__main__":
    sys.exit(main())
