"""The host's Trio driver of the seating machine: its timer waits for the machine's next deadline
or a change, and never wakes itself (a timer that did would tick without end and burn a core for
as long as the table fills)."""

from __future__ import annotations

import trio
import trio.testing

from p2pcards.net.framed import FramedStream
from p2pcards.net.hub import _Gathering
from p2pcards.seating.handshake import HostSeating
from p2pcards.seating.rules import TableRules
from p2pcards.seating.secrets import new_seat


def _host() -> HostSeating:
    rules = TableRules.choose("briscola", "classic", 3)
    return HostSeating(rules, bytes(16), new_seat().identity, 2)


async def test_the_timer_ticks_only_when_something_happens() -> None:
    notices: list[str] = []
    gathering = _Gathering(_host(), notices.append)
    ours, theirs = trio.testing.memory_stream_pair()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(gathering.timer)
        await gathering.welcome(FramedStream(ours), "a test joiner", nursery)
        # A silent connection: the machine's only deadline is its hello timeout, seconds away.
        # Give the timer half a second of real time: a timer that woke itself would tick
        # thousands of times in it; one that waits ticks once for the connection.
        await trio.sleep(0.5)
        assert 1 <= gathering.ticks <= 3, gathering.ticks
        await theirs.aclose()
        await trio.sleep(0.2)
        assert gathering.ticks <= 5, gathering.ticks
        nursery.cancel_scope.cancel()
