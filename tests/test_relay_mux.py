"""Connections through a relay room (:mod:`p2pcards.net.relay_mux`) and the relay client's
sending under cancellation, against a real relay server on loopback in this process."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from test_relay_support import room_code, running_relay

from p2pcards.cli import UserError
from p2pcards.cli.play import parse_address
from p2pcards.net.errors import BadFrame, PeerGone
from p2pcards.net.relay_mux import CONN_ID_SIZE, HOST_SLOT, INBOX_FRAMES, RelayMux, open_relay_mux
from p2pcards.relay import connect
from p2pcards.seating.invite import Invite
from p2pcards.wire import IdentityKey, codec

DEADLINE = 30.0


@asynccontextmanager
async def pair(port: int, room: bytes) -> AsyncIterator[tuple[RelayMux, RelayMux]]:
    """A host mux (slot 0, accepting) and a joiner mux in ``room``."""
    async with open_relay_mux("127.0.0.1", port, room, IdentityKey.generate(),
                              accept=True) as host, \
            open_relay_mux("127.0.0.1", port, room, IdentityKey.generate(),
                           accept=False) as joiner:
        yield host, joiner


async def test_a_connection_carries_frames_both_ways_and_ends_cleanly() -> None:
    with trio.fail_after(DEADLINE):
        async with running_relay() as (_, port, _), pair(port, room_code("mux")) as (host, joiner):
            assert (host.slot, joiner.slot) == (0, 1)
            channel = joiner.open(HOST_SLOT, "the host")
            await channel.send_message({"type": "hello", "n": 1})
            accepted = await host.accept()
            assert accepted.slot == 1
            assert await accepted.receive_message() == {"type": "hello", "n": 1}
            for n in range(50):
                await accepted.send(b"frame %d" % n)
            assert [await channel.receive() for _ in range(50)] == [b"frame %d" % n
                                                                    for n in range(50)]
            await channel.aclose()
            assert await accepted.receive() is None
            with pytest.raises(PeerGone, match="already closed the connection"):
                await accepted.receive()


async def test_noise_in_the_room_is_ignored() -> None:
    room = room_code("noise")
    with trio.fail_after(DEADLINE):
        async with running_relay() as (_, port, _), pair(port, room) as (host, joiner):
            noise = await connect("127.0.0.1", port, room, IdentityKey.generate())
            for payload in [b"\xc1", codec.pack([0, b"short", b"x"]), codec.pack({"a": 1}),
                            codec.pack([0, os.urandom(CONN_ID_SIZE), None]),
                            codec.pack([1, os.urandom(CONN_ID_SIZE), b"to the joiner"]),
                            codec.pack([0, os.urandom(CONN_ID_SIZE), 7])]:
                await noise.send(payload)
            channel = joiner.open(HOST_SLOT, "the host")
            await channel.send(b"real")
            accepted = await host.accept()
            assert (accepted.slot, await accepted.receive()) == (1, b"real")
            await noise.aclose()


async def test_a_member_that_floods_a_connection_is_cut_off() -> None:
    with trio.fail_after(DEADLINE):
        async with running_relay() as (_, port, _), pair(port, room_code("flood")) as (host,
                                                                                       joiner):
            channel = joiner.open(HOST_SLOT, "the joiner's peer")
            for n in range(INBOX_FRAMES + 20):
                await channel.send(b"%d" % n)
            accepted = await host.accept()
            accepted.label = "seat 1"
            received = 0
            with pytest.raises(BadFrame, match=f"seat 1 sent more than {INBOX_FRAMES} frames"):
                while True:
                    assert await accepted.receive() == b"%d" % received
                    received += 1
            assert received == INBOX_FRAMES


async def test_a_relay_that_goes_away_ends_every_connection() -> None:
    with trio.fail_after(DEADLINE):
        async with running_relay() as (server, port, _), \
                pair(port, room_code("gone")) as (host, joiner):
            channel = joiner.open(HOST_SLOT, "the host")
            await channel.send(b"hi")
            accepted = await host.accept()
            assert await accepted.receive() == b"hi"
            server.request_shutdown()
            with pytest.raises(PeerGone, match=r"the relay at 127\.0\.0\.1:\d+ failed: "):
                await accepted.receive()
            with pytest.raises(PeerGone, match="the relay at"):
                await host.accept()


async def test_frames_sent_from_cancelled_tasks_arrive_once_and_in_order() -> None:
    """A sender cancelled in the middle of ``send`` (as the host's seating task is when the
    table fills) loses nothing and repeats nothing, while acks race with the writes."""
    room = room_code("cancel")
    total = 300
    with trio.fail_after(DEADLINE):
        async with running_relay() as (_, port, _):
            sender = await connect("127.0.0.1", port, room, IdentityKey.generate())
            receiver = await connect("127.0.0.1", port, room, IdentityKey.generate())
            got: list[bytes] = []
            async with trio.open_nursery() as nursery:
                async def drain_acks() -> None:
                    while True:
                        await sender.receive()

                async def collect() -> None:
                    while len(got) < total:
                        got.append((await receiver.receive()).payload)

                nursery.start_soon(drain_acks)
                nursery.start_soon(collect)
                for n in range(total):
                    with trio.CancelScope() as scope:
                        if n % 3 == 0:
                            scope.cancel()  # cancelled at its first checkpoint inside send
                        elif n % 3 == 1:
                            nursery.start_soon(_cancel_soon, scope)
                        await sender.send(b"%d" % n)
                    if n % 25 == 0:
                        await trio.sleep(0)
                await sender.send(b"last")  # writes whatever a cancelled send left queued
                with trio.fail_after(DEADLINE):
                    while len(got) < total:
                        await trio.sleep(0.01)
                nursery.cancel_scope.cancel()
            assert got == [b"%d" % n for n in range(total)]
            await sender.aclose()
            await receiver.aclose()


async def _cancel_soon(scope: trio.CancelScope) -> None:
    scope.cancel()


@settings(max_examples=60, deadline=None)
@given(host=st.sampled_from(["127.0.0.1", "relay.example.org", "::1"]),
       port=st.integers(1, 65535), nonce=st.binary(min_size=16, max_size=16),
       relay=st.booleans())
def test_invites_round_trip_with_and_without_a_relay(host: str, port: int, nonce: bytes,
                                                      relay: bool) -> None:
    fingerprint = IdentityKey.generate().public.fingerprint
    invite = Invite(host, port, nonce, fingerprint, relay=relay)
    text = str(invite)
    assert text.startswith("p2pcards+relay://" if relay else "p2pcards://")
    assert Invite.parse(text) == invite
    assert Invite.parse(f"p2pcards join {text}\n") == invite


@pytest.mark.parametrize(("text", "address"), [
    ("relay.example.org", ("relay.example.org", 7447)),
    ("relay.example.org:9000", ("relay.example.org", 9000)),
    ("203.0.113.5:1", ("203.0.113.5", 1)),
    ("[2001:db8::1]:7000", ("2001:db8::1", 7000)),
    ("[2001:db8::1]", ("2001:db8::1", 7447)),
    ("::1", ("::1", 7447)),
])
def test_relay_addresses_on_the_command_line(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text, "--relay") == address


@pytest.mark.parametrize("text", ["", "x:0", "x:65536", "x:", ":7447", "a b:1", "[::1]:port"])
def test_bad_relay_addresses_are_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(UserError, match=r"^--relay '.*' must be HOST or HOST:PORT, for example "):
        parse_address(text, "--relay")
