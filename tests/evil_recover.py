"""A joiner that begins a recovery itself, or a host that begins one at once: the real
``p2pcards join`` / ``p2pcards host`` code with one behaviour of its session changed.

Run as a program (the tests start it as a real process)::

    python tests/evil_recover.py MODE SEAT join|host ARGS...

``MODE`` is what the peer does once its table waits for seat ``SEAT``'s first move:

- ``forge`` (a joiner): it signs the ``recover`` that would begin ``SEAT``'s recovery in place
  of that move, with the body an honest first ``recover`` carries, sends it to the host without
  taking it into its own chain, and plays on; at its own first move it sends such a ``recover``
  of ``SEAT`` again, just before the move.
- ``early`` (the host): it waits one second instead of the move timeout, then begins ``SEAT``'s
  recovery as if that seat had been silent past its time, while it is connected.
- ``withhold`` (the host): it drops ``SEAT``'s move when it arrives and begins ``SEAT``'s
  recovery at once, as if that seat had not answered.

Everything else is the unmodified program: seating, genesis, session, transcript.
"""

from __future__ import annotations

import sys
from typing import Any

import trio
from attacks import forged_recover

from p2pcards.net import hub, peer
from p2pcards.net.session import Session, _Inbox
from p2pcards.wire import codec


def main() -> int:
    mode, target = sys.argv[1], int(sys.argv[2])

    class ForgingSession(Session):
        forged: set[int] = set()

        def _route(self) -> None:
            super()._route()
            expected = self.reference.expected
            if expected is None or expected[1] != "action":
                return
            awaited = expected[0]
            if awaited in self.forged or awaited not in (target, self.reference.seat):
                return
            self.forged.add(awaited)
            frame = codec.pack({"type": "envelope",
                                "data": forged_recover(self.reference, target)})
            for link in self.links:
                link.outbox.send_nowait(frame)
            print(f"sent a recover of seat {target} at seat {awaited}'s move", file=sys.stderr,
                  flush=True)

    class EarlySession(Session):
        early = False

        async def _wait_for(self, speaker: int, limit: float) -> _Inbox | None:
            if self.early or self.reference.expected != (target, "action"):
                return await super()._wait_for(speaker, limit)
            self.early = True
            await trio.sleep(1.0)
            return None

    class WithholdingSession(Session):
        withheld = recovered = False

        def _handle(self, item: _Inbox) -> None:
            what, link, value = item
            if (not self.withheld and what == "message" and target in link.seats
                    and value.get("type") == "envelope"
                    and self.reference.expected == (target, "action")):
                self.withheld = True
                return
            super()._handle(item)

        async def _wait_for(self, speaker: int, limit: float) -> _Inbox | None:
            if self.recovered or not self.withheld:
                return await super()._wait_for(speaker, limit)
            self.recovered = True
            return None

    patched: Any = {"forge": ForgingSession, "early": EarlySession,
                    "withhold": WithholdingSession}[mode]
    hub.Session = patched
    peer.Session = patched
    from p2pcards.cli import main as cli_main

    return cli_main(sys.argv[3:])


if __name__ == "__main__":
    sys.exit(main())
