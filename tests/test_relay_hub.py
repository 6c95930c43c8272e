"""The relay's shared reading task (relay/hub.py) against each connection reading its own socket,
over loopback TCP: the same deliveries, throttling and endings either way, and with the hub the
connections' own tasks do not wake for a frame."""

from __future__ import annotations

import os
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio
from test_relay_support import raw_admitted, read_frames, room_code

from p2pcards.relay import RelayLimits, RelayServer
from p2pcards.relay.messages import Delivery, decode_relay_message
from p2pcards.wire import IdentityKey
from p2pcards.wire.framing import FrameDecoder, encode_frame

_UNTHROTTLED = {"bytes_rate": 1e9, "bytes_burst": 1e9, "frames_rate": 1e6, "frames_burst": 1e6}
_MAX = 4 * 1024 * 1024
READERS = pytest.mark.parametrize("shared_reader", [True, False], ids=["hub", "own-task"])


@asynccontextmanager
async def _relay(shared_reader: bool, **limits: Any) -> AsyncIterator[tuple[RelayServer, int]]:
    server = RelayServer(RelayLimits(**limits), log=lambda line: None,
                         shared_reader=shared_reader)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve, "127.0.0.1", 0)
        yield server, port
        server.request_shutdown()


class _Member:
    def __init__(self, stream: trio.SocketStream, decoder: FrameDecoder,
                 early: list[bytes]) -> None:
        self.stream = stream
        self.decoder = decoder
        self.got = [_delivery(frame) for frame in early]

    async def read_until(self, count: int) -> None:
        with trio.fail_after(60):
            while len(self.got) < count:
                frames = await read_frames(self.stream, self.decoder, 1)
                assert frames, "the relay closed the connection"
                self.got.extend(_delivery(frame) for frame in frames)


def _delivery(frame: bytes) -> Delivery:
    message = decode_relay_message(frame, _MAX)
    assert isinstance(message, Delivery)
    return message


async def _members(port: int, room: bytes, count: int) -> list[_Member]:
    return [_Member(*await raw_admitted(port, room, IdentityKey.generate()))
            for _ in range(count)]


class _ReaderSteps(trio.abc.Instrument):
    """Counts the steps of the connections' own tasks (where a connection reads when the
    relay has no hub)."""

    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        if task.name.endswith("serve_listeners._run_handler"):
            self.steps += 1


@READERS
async def test_members_in_lockstep_get_every_frame_and_only_the_hub_spares_their_tasks(
        shared_reader: bool) -> None:
    rounds = 40
    async with _relay(shared_reader, **_UNTHROTTLED) as (_, port):
        members = await _members(port, room_code("hub-lockstep"), 4)
        await trio.sleep(0.1)  # every connection is waiting for its first frame
        counter = _ReaderSteps()
        trio.lowlevel.add_instrument(counter)
        try:
            for n in range(1, rounds + 1):
                await members[n % 4].stream.send_all(encode_frame(b"card %d" % n))
                for member in members:
                    await member.read_until(n)
        finally:
            trio.lowlevel.remove_instrument(counter)
        for seat, member in enumerate(members):
            assert [d.index for d in member.got] == list(range(rounds))
            assert [d.payload for d in member.got] == [
                None if n % 4 == seat else b"card %d" % n for n in range(1, rounds + 1)]
            await member.stream.aclose()
    if shared_reader:
        assert counter.steps == 0  # the hub read every frame; no connection's task woke
    else:
        assert counter.steps >= rounds  # each frame woke its sender's task


@READERS
async def test_a_throttled_flood_arrives_whole_and_in_order(shared_reader: bool) -> None:
    count = 60
    async with _relay(shared_reader, frames_rate=200.0, frames_burst=5.0) as (server, port):
        sender, receiver = await _members(port, room_code("hub-flood"), 2)
        payloads = [b"frame %03d " % n * (1 + n % 7) for n in range(count)]
        await sender.stream.send_all(b"".join(encode_frame(p) for p in payloads))
        await receiver.read_until(count)
        await sender.read_until(count)
        assert [d.payload for d in receiver.got] == payloads
        assert [d.index for d in sender.got] == list(range(count))  # one ack per frame
        assert server.stats.rejections["throttled-frames"] > 0
        assert server.stats.inflight_bytes == 0


@READERS
async def test_a_reset_and_a_close_end_only_their_own_connections(shared_reader: bool) -> None:
    async with _relay(shared_reader, **_UNTHROTTLED) as (server, port):
        stays, resets, closes = await _members(port, room_code("hub-endings"), 3)
        await resets.stream.send_all(encode_frame(b"before the reset") + b"\x00\x00")
        await stays.read_until(1)
        resets.stream.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await resets.stream.aclose()  # RST, with half a frame left in the relay's decoder
        await closes.stream.aclose()
        with trio.fail_after(60):
            while server.stats.connections > 1:
                await trio.sleep(0.01)
        assert server.stats.inflight_bytes == 0
        await stays.stream.send_all(encode_frame(b"still here"))
        await stays.read_until(2)
        assert [d.payload for d in stays.got] == [b"before the reset", None]
        await stays.stream.aclose()


@READERS
async def test_an_oversized_frame_is_refused_with_its_reason(shared_reader: bool) -> None:
    async with _relay(shared_reader, max_payload=1000, bytes_burst=1000) as (server, port):
        (member,) = await _members(port, room_code("hub-oversized"), 1)
        await member.stream.send_all(struct.pack(">I", 5000))
        frames = await read_frames(member.stream, member.decoder, 1)
        assert b"frame-too-large" in frames[0]
        assert server.stats.rejections["frame-too-large"] == 1
        await member.stream.aclose()


@READERS
async def test_what_one_pass_of_the_hub_has_for_a_member_goes_out_in_one_write(
        shared_reader: bool) -> None:
    """Three members' frames are all in the relay's sockets before it runs again (written with
    no checkpoint between them): the hub reads them in one pass and writes each of the four
    members once (the fourth its three frames, each sender its ack and the two others' frames);
    connections that read their own sockets write each frame and ack apart."""
    async with _relay(shared_reader, **_UNTHROTTLED) as (server, port):
        members = await _members(port, room_code("hub-coalesce"), 4)
        await trio.sleep(0.1)  # every writer is parked
        writes, frames = server.stats.writes_out, server.stats.frames_out
        for seat in range(3):
            os.write(members[seat].stream.socket.fileno(), encode_frame(b"seat %d" % seat))
        for member in members:
            await member.read_until(3)
        assert server.stats.frames_out - frames == 9
        assert server.stats.writes_out - writes == (4 if shared_reader else 12)
        order = [d.payload for d in members[3].got]  # the room's order of the three frames
        assert sorted(order) == [b"seat 0", b"seat 1", b"seat 2"]  # type: ignore[type-var]
        for seat in range(3):
            assert [d.payload for d in members[seat].got] == [
                None if payload == b"seat %d" % seat else payload for payload in order]
        for member in members:
            await member.stream.aclose()
