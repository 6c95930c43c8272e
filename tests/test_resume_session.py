"""Re-entry between real sessions over in-memory streams: a seat's session is stopped mid-hand
(its connection closes, as when its process is killed), a new session is made from its
transcript and kept secrets, comes back through the hub's door or by dialling again, catches up
and finishes the match; both transcripts hold one chain that verifies."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from p2pcards.crypto import SystemRandomness
from p2pcards.net.errors import MatchFailure
from p2pcards.net.framed import FrameChannel, FramedStream
from p2pcards.net.nursery import one_failure
from p2pcards.net.seats import bot_player
from p2pcards.net.session import Absent, Link, LocalSeat, Reentry, Session
from p2pcards.offline.memory import make_genesis
from p2pcards.records.secret_store import SIGNED, MemoryKeeper, encode_count
from p2pcards.records.transcript import TranscriptWriter, read_transcript
from p2pcards.seating.reentry import Bond, HostReentry, Returned, SeatReentry
from p2pcards.seating.secrets import new_seat
from p2pcards.table import Table
from p2pcards.verify import verify_transcript

GAME, PRESET = "briscola", "italian"
PATIENCE = 120.0  # a hang guard: the seats come back at once


class Crashing(TranscriptWriter):
    """A transcript writer that stops its session (``scope``) after ``after`` envelopes."""

    scope: trio.CancelScope
    after: int

    def append(self, envelope: bytes) -> int:
        index = super().append(envelope)
        if index + 1 >= self.after:
            self.scope.cancel()
        return index


class Table2:
    """A two-seat table: genesis, secrets, one keeper per seat."""

    def __init__(self, players: int = 2) -> None:
        self.secrets = [new_seat() for _ in range(players)]
        self.genesis = make_genesis(GAME, PRESET, [s.info(f"p{i}") for i, s in
                                                    enumerate(self.secrets)])
        self.keepers = [MemoryKeeper() for _ in range(players)]

    def seat(self, seat: int) -> LocalSeat:
        s = self.secrets[seat]
        table = Table(self.genesis, seat=seat, identity=s.identity,
                      x25519_private=s.x25519_private, rng=SystemRandomness(),
                      keeper=self.keepers[seat])
        return LocalSeat.of(table, bot_player(GAME, seat, None))


def proven(t: Table2, seat: int) -> tuple[Bond, Bond]:
    """The host's and the seat's bonds after a real re-entry handshake (SPEC §11.7.2)."""
    host = HostReentry(t.genesis, t.secrets[0].identity, {seat})
    joiner = SeatReentry(t.genesis, seat, t.secrets[seat].identity)
    challenge = host.receive(joiner.hello())
    assert isinstance(challenge, dict)
    proof = joiner.receive(challenge)
    assert proof is not None
    returned = host.receive(proof)
    assert isinstance(returned, Returned)
    assert joiner.receive({"type": "rejoined"}) is None and joiner.bond is not None
    return returned.bond, joiner.bond


def crashing(path: Path, genesis_bytes: bytes, after: int, scope: trio.CancelScope
             ) -> Crashing:
    plain = TranscriptWriter.create(path, genesis_bytes, fsync=False)
    writer = Crashing(plain._file, count=0, fsync=False)
    writer.scope, writer.after = scope, after
    return writer


def check(paths: list[Path]) -> None:
    chains = {tuple(read_transcript(p).envelopes) for p in paths}
    assert len(chains) == 1
    assert verify_transcript(paths[0]).status == "valid"


@pytest.mark.parametrize("after", [12, 70])
async def test_a_joiner_that_crashes_comes_back_by_dialling_again(tmp_path: Path,
                                                                  after: int) -> None:
    t = Table2()
    genesis = t.genesis
    hub_end, seat_end = trio.testing.memory_stream_pair()
    hub_path, seat_path = tmp_path / "hub.p2pt", tmp_path / "seat1.p2pt"
    hub_writer = TranscriptWriter.create(hub_path, genesis.encode(), fsync=False)
    hub = Session(genesis, [t.seat(0)], [Link(FramedStream(hub_end, label="seat 1"),
                                              frozenset({1}))],
                  forward=True, writer=hub_writer, reentry=Reentry(PATIENCE))
    first_scope = trio.CancelScope()
    first_writer = crashing(seat_path, genesis.encode(), after, first_scope)
    first = Session(genesis, [t.seat(1)], [Link(FramedStream(seat_end, label="the host"),
                                                 frozenset({0}))],
                    forward=False, writer=first_writer, reentry=Reentry(PATIENCE))
    notices: list[str] = []

    async def reconnect() -> tuple[FrameChannel, Bond]:
        here, there = trio.testing.memory_stream_pair()
        at_host, at_seat = proven(t, 1)
        await hub.rejoin(at_host, FramedStream(here, label="a joiner from here"))
        return FramedStream(there, label="the host"), at_seat

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hub.run)
        with first_scope:
            await first.run()
        first_writer.close()
        written = read_transcript(seat_path).envelopes
        assert 0 < len(written) < 160
        again = TranscriptWriter.resume(seat_path, fsync=False)
        seat = t.seat(1)
        second = Session(genesis, [seat], [Link(Absent("the host"), frozenset({0}))],
                         forward=False, writer=again, replay=again.existing.envelopes,
                         reentry=Reentry(PATIENCE, reconnect), notice=notices.append)
        await second.run()
        again.close()
    hub_writer.close()
    assert seat.table.finished and hub.reference.finished
    check([hub_path, seat_path])
    assert any("is back: catching up from envelope" in n for n in notices), notices
    # every hand's key was spent and deleted; the count of the seat's envelopes is left
    own = sum(1 for i in range(len(seat.table.frames)) if seat.table.chain.seat_of(i) == 1)
    assert t.keepers[1].items == {SIGNED: encode_count(own)}


async def test_a_host_that_crashes_comes_back_and_the_joiner_dials_it_again(
        tmp_path: Path) -> None:
    t = Table2()
    genesis = t.genesis
    hub_end, seat_end = trio.testing.memory_stream_pair()
    hub_path, seat_path = tmp_path / "hub.p2pt", tmp_path / "seat1.p2pt"
    first_scope = trio.CancelScope()
    first_writer = crashing(hub_path, genesis.encode(), 40, first_scope)
    first = Session(genesis, [t.seat(0)], [Link(FramedStream(hub_end, label="seat 1"),
                                                frozenset({1}))],
                    forward=True, writer=first_writer, reentry=Reentry(PATIENCE))
    back: list[Session] = []
    ready = trio.Event()
    seat_notices: list[str] = []

    async def reconnect() -> tuple[FrameChannel, Bond]:
        await ready.wait()
        here, there = trio.testing.memory_stream_pair()
        at_host, at_seat = proven(t, 1)
        await back[0].rejoin(at_host, FramedStream(here, label="a joiner from here"))
        return FramedStream(there, label="the host"), at_seat

    seat_writer = TranscriptWriter.create(seat_path, genesis.encode(), fsync=False)
    joiner = Session(genesis, [t.seat(1)], [Link(FramedStream(seat_end, label="the host"),
                                                 frozenset({0}))],
                     forward=False, writer=seat_writer, notice=seat_notices.append,
                     reentry=Reentry(PATIENCE, reconnect))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(joiner.run)
        with first_scope:
            await first.run()
        first_writer.close()
        again = TranscriptWriter.resume(hub_path, fsync=False)
        host = t.seat(0)
        second = Session(genesis, [host], [Link(Absent("seat 1"), frozenset({1}))],
                         forward=True, writer=again, replay=again.existing.envelopes,
                         reentry=Reentry(PATIENCE))
        back.append(second)
        ready.set()
        await second.run()
        again.close()
    seat_writer.close()
    check([hub_path, seat_path])
    assert any(n.startswith("waiting for the host, p0 [0] to come back: ")
               for n in seat_notices), seat_notices


async def test_a_seat_that_never_comes_back_ends_the_match_in_one_sentence(
        tmp_path: Path) -> None:
    t = Table2()
    genesis = t.genesis
    hub_end, seat_end = trio.testing.memory_stream_pair()
    hub = Session(genesis, [t.seat(0)], [Link(FramedStream(hub_end, label="seat 1 (X)"),
                                              frozenset({1}))],
                  forward=True, reentry=Reentry(0.5))
    scope = trio.CancelScope()
    writer = crashing(tmp_path / "s1.p2pt", genesis.encode(), 5, scope)
    first = Session(genesis, [t.seat(1)], [Link(FramedStream(seat_end, label="the host"),
                                                frozenset({0}))], forward=False, writer=writer)
    failure: list[MatchFailure] = []

    async def host() -> None:
        try:
            await hub.run()
        except MatchFailure as exc:
            failure.append(exc)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host)
        with scope:
            await first.run()
    writer.close()
    assert [str(f) for f in failure] == ["seat 1 (X) left the table: the connection closed, "
                                         "and did not come back within 0.5 seconds"]


async def drain(framed: FramedStream) -> None:
    """Read and drop what the joiner sends until it closes (so that it closes at once)."""
    while await framed.receive_message() is not None:
        pass
    await framed.aclose()


@pytest.mark.parametrize(("message", "why"), [
    ({"type": "away", "seats": [1], "seconds": 5}, "its own seat"),
    ({"type": "away", "seats": [0], "seconds": 5}, "the hub's own seat"),
    ({"type": "away", "seats": [3], "seconds": 5}, "no such seat"),
    ({"type": "away", "seats": [], "seconds": 5}, "no seat"),
    ({"type": "away", "seats": [2], "seconds": -1}, "a negative wait"),
    ({"type": "away", "seats": [2], "seconds": 86_401}, "more than a day"),
    ({"type": "away", "seats": [2]}, "no wait"),
    ({"type": "back", "seats": [2], "seconds": 5}, "a field too many"),
    ({"type": "back", "seats": ["2"]}, "a seat that is not a number"),
])
async def test_a_malformed_away_or_back_from_the_hub_ends_the_match_in_one_sentence(
        message: dict[str, object], why: str) -> None:
    """The hub's ``away``/``back`` (SPEC §11.7.1) are checked like every control message."""
    t = Table2(3)
    hub_end, seat_end = trio.testing.memory_stream_pair()
    joiner = Session(t.genesis, [t.seat(1)], [Link(FramedStream(seat_end, label="the host"),
                                                   frozenset({0, 2}))],
                     forward=False, reentry=Reentry(PATIENCE))
    hub = FramedStream(hub_end, label="seat 1")

    async def tell() -> None:
        await hub.send_message(message)
        await drain(hub)
    with pytest.raises(MatchFailure) as failure, one_failure():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(tell)
            await joiner.run()
    assert str(failure.value) == f"the host sent a malformed {message['type']!r} message", why


async def test_the_hub_s_away_and_back_are_told_as_sentences() -> None:
    t = Table2(3)
    hub_end, seat_end = trio.testing.memory_stream_pair()
    notices: list[str] = []
    joiner = Session(t.genesis, [t.seat(1)], [Link(FramedStream(seat_end, label="the host"),
                                                   frozenset({0, 2}))],
                     forward=False, reentry=Reentry(PATIENCE), notice=notices.append)
    hub = FramedStream(hub_end, label="seat 1")

    async def tell() -> None:
        await hub.send_message({"type": "away", "seats": [2], "seconds": 75})
        await hub.send_message({"type": "back", "seats": [2]})
        await hub.send_message({"type": "abort", "reason": "enough"})
        await drain(hub)
    with pytest.raises(MatchFailure, match="the host aborted the match: enough"), one_failure():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(tell)
            await joiner.run()
    assert notices[:2] == ["p2 [2] lost the connection to the host; the host waits 1:15 for "
                           "it to come back", "p2 [2] is back at the table"], notices
