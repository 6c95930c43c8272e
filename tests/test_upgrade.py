"""A live link that moves onto a new connection mid-match (SPEC §11.10, "Moving onto a hole
punched later"), between real sessions over in-memory streams: the old path (the relay's)
stops delivering in both directions at some envelope, as a relay holding frames would, and at
that moment both sides take a new proven connection. What was held on the old path arrives
over the new one through the ``resume`` exchange: both transcripts hold one chain that
verifies (an envelope lost would stall the match, one taken twice would break the chain), and
each side says the move with its ``connection:`` line, never "is back"."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from test_resume_session import PATIENCE, Table2, check, proven

from p2pcards.net.framed import FramedStream
from p2pcards.net.session import Link, Reentry, Session
from p2pcards.records.transcript import TranscriptWriter
from p2pcards.wire import codec

HOST_LINE = "connection: seat 1 direct (hole punched; was relay) from 203.0.113.12:40211"
JOINER_LINE = "connection: direct (hole punched; was relay) to the host at 203.0.113.11:51034"


class Holding(FramedStream):
    """One end of the old path: once ``held`` is set, what is sent is kept here, never
    delivered (frames in flight on a relay that then carries nothing)."""

    def __init__(self, stream: trio.testing.MemoryStream, held: trio.Event, label: str) -> None:
        super().__init__(stream, label=label)
        self.held = held
        self.kept: list[bytes] = []

    async def send(self, payload: bytes) -> None:
        if self.held.is_set():
            self.kept.append(payload)
            return
        await super().send(payload)


class Moving(TranscriptWriter):
    """The hub's transcript writer: once ``after`` envelopes are written, the old path holds
    everything and ``move`` is started in ``nursery``."""

    after: int
    held: trio.Event
    nursery: trio.Nursery
    move: object

    def append(self, envelope: bytes) -> int:
        index = super().append(envelope)
        if index + 1 == self.after:
            self.held.set()
            self.nursery.start_soon(self.move)  # type: ignore[arg-type]
        return index


@pytest.mark.parametrize("after", [9, 41])
async def test_a_live_link_moves_onto_a_new_connection_with_nothing_lost_or_repeated(
        tmp_path: Path, after: int) -> None:
    t = Table2()
    genesis = t.genesis
    held = trio.Event()
    hub_end, seat_end = trio.testing.memory_stream_pair()
    hub_old, seat_old = (Holding(hub_end, held, "seat 1"), Holding(seat_end, held, "the host"))
    hub_path, seat_path = tmp_path / "hub.p2pt", tmp_path / "seat1.p2pt"
    plain = TranscriptWriter.create(hub_path, genesis.encode(), fsync=False)
    hub_writer = Moving(plain._file, count=0, fsync=False)
    seat_writer = TranscriptWriter.create(seat_path, genesis.encode(), fsync=False)
    hub_notices: list[str] = []
    seat_notices: list[str] = []
    hub = Session(genesis, [t.seat(0)], [Link(hub_old, frozenset({1}))], forward=True,
                  writer=hub_writer, reentry=Reentry(PATIENCE), notice=hub_notices.append)
    joiner = Session(genesis, [t.seat(1)], [Link(seat_old, frozenset({0}))], forward=False,
                     writer=seat_writer, reentry=Reentry(PATIENCE, None),
                     notice=seat_notices.append)

    async def move() -> None:
        here, there = trio.testing.memory_stream_pair()
        at_host, at_seat = proven(t, 1)
        await hub.rejoin(at_host, FramedStream(here, label="a joiner punched"), HOST_LINE)
        await joiner.move(FramedStream(there, label="the host"), at_seat, JOINER_LINE)

    async with trio.open_nursery() as nursery:
        hub_writer.after, hub_writer.held, hub_writer.nursery = after, held, nursery
        hub_writer.move = move
        nursery.start_soon(hub.run)
        await joiner.run()
    hub_writer.close()
    seat_writer.close()
    assert held.is_set() and hub.reference.finished and joiner.reference.finished
    in_flight = [codec.unpack(p, max_size=len(p)) for p in hub_old.kept + seat_old.kept]
    assert any(message["type"] == "envelope" for message in in_flight), in_flight
    check([hub_path, seat_path])
    assert HOST_LINE in hub_notices and JOINER_LINE in seat_notices
    assert not any("is back" in n for n in hub_notices + seat_notices)
