"""The relay's write-through: frames handed straight to caught-up members' sockets arrive whole,
once and in order, also when a socket takes only part of one, and cost no writer wake-ups."""

from __future__ import annotations

import random

import pytest
import trio
from test_relay_support import raw_admitted, room_code, running_relay

from p2pcards.relay.messages import Delivery, decode_relay_message
from p2pcards.wire import IdentityKey
from p2pcards.wire.framing import FrameDecoder, encode_frame

_MAX = 4 * 1024 * 1024
_UNTHROTTLED = {"bytes_rate": 1e9, "bytes_burst": 1e9, "frames_rate": 1e6, "frames_burst": 1e6}


class _Member:
    """A hand-driven room member: its stream, its decoder and what it has been delivered."""

    def __init__(self, stream: trio.SocketStream, decoder: FrameDecoder,
                 early: list[bytes]) -> None:
        self.stream = stream
        self.decoder = decoder
        self.deliveries = [_delivery(frame) for frame in early]

    async def read_until(self, count: int, chunk: int = 65536) -> None:
        """Read until ``count`` deliveries are in, ``chunk`` bytes at most per read."""
        with trio.fail_after(60):
            while len(self.deliveries) < count:
                data = await self.stream.receive_some(chunk)
                assert data, "the relay closed the connection"
                self.deliveries.extend(_delivery(f) for f in self.decoder.feed(data))


def _delivery(frame: bytes) -> Delivery:
    message = decode_relay_message(frame, _MAX)
    assert isinstance(message, Delivery)
    return message


async def _member(port: int, room: bytes) -> _Member:
    return _Member(*await raw_admitted(port, room, IdentityKey.generate()))


def _payloads(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(rng.choice((1, 300, 4000, 30_000, 120_000))) for _ in range(count)]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_stalled_member_and_a_fast_one_both_get_every_frame_whole_in_order(
        seed: int) -> None:
    """One member reads at once, one reads nothing until the sender is done and then in small
    uneven pieces; the sender's frames (about 4 MB, far beyond the loopback buffers, so writes
    to the stalled member stop part way through frames) reach both intact and in order, and the
    sender gets one ack per frame."""
    payloads = _payloads(seed, 80)
    rng = random.Random(seed)
    async with running_relay(**_UNTHROTTLED, max_room_bytes=64 * 1024 * 1024,
                             max_total_bytes=64 * 1024 * 1024) as (server, port, _):
        room = room_code(f"through-{seed}")
        sender, fast, stalled = [await _member(port, room) for _ in range(3)]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fast.read_until, len(payloads))
            nursery.start_soon(sender.read_until, len(payloads))
            for payload in payloads:
                await sender.stream.send_all(encode_frame(payload))
                if rng.random() < 0.3:
                    await trio.sleep(0)
        while len(stalled.deliveries) < len(payloads):
            await stalled.read_until(len(stalled.deliveries) + 1, rng.choice((7, 1000, 65536)))
        slot = fast.deliveries[0].slot
        for member in (fast, stalled):
            assert [d.index for d in member.deliveries] == list(range(len(payloads)))
            assert [d.payload for d in member.deliveries] == payloads
            assert {d.slot for d in member.deliveries} == {slot}
        assert [(d.index, d.payload) for d in sender.deliveries] == [
            (i, None) for i in range(len(payloads))]
        assert server.stats.frames_out == 2 * len(payloads)
        for member in (sender, fast, stalled):
            await member.stream.aclose()


class _WriterSteps(trio.abc.Instrument):
    """Counts the steps run by the relay's writer tasks."""

    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        if task.name.endswith("._writer"):
            self.steps += 1


async def test_members_that_keep_up_are_sent_frames_without_waking_their_writers() -> None:
    rounds = 60
    async with running_relay(**_UNTHROTTLED) as (_, port, _lines):
        room = room_code("lockstep")
        members = [await _member(port, room) for _ in range(4)]
        await trio.sleep(0.1)  # every writer has started and parked
        counter = _WriterSteps()
        trio.lowlevel.add_instrument(counter)
        try:
            for n in range(1, rounds + 1):
                sender = members[n % 4]
                await sender.stream.send_all(encode_frame(b"card %d" % n))
                for member in members:
                    await member.read_until(n)
        finally:
            trio.lowlevel.remove_instrument(counter)
        for member in members:
            assert [d.index for d in member.deliveries] == list(range(rounds))
            await member.stream.aclose()
    # Each of the 240 deliveries went straight to a socket: a writer ran no step for them
    # (the old path woke all four writers for every frame).
    assert counter.steps == 0


async def test_a_member_that_joins_late_catches_up_through_its_writer() -> None:
    async with running_relay(**_UNTHROTTLED) as (_, port, _lines):
        room = room_code("latecomer")
        first = await _member(port, room)
        for n in range(5):
            await first.stream.send_all(encode_frame(b"early %d" % n))
        await first.read_until(5)
        late = await _member(port, room)
        await first.stream.send_all(encode_frame(b"later"))
        await late.read_until(6)
        assert [d.payload for d in late.deliveries] == [b"early %d" % n for n in range(5)] + [
            b"later"]
        await first.stream.aclose()
        await late.stream.aclose()
