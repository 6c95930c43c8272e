"""Every relay limit enforced over real loopback TCP, with its rejection reason counted."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from test_relay_support import raw_admitted, read_frames, room_code, running_relay

from p2pcards.relay import RelayLimits, RelayRejected, RelayServer, connect
from p2pcards.relay.messages import decode_relay_message
from p2pcards.wire import IdentityKey
from p2pcards.wire.framing import FrameDecoder, encode_frame


async def _error_of(stream: trio.SocketStream, decoder: FrameDecoder | None = None) -> str:
    """The reason of the relay's closing ``error`` message (frames before it are skipped)."""
    decoder = decoder or FrameDecoder(4 * 1024 * 1024)
    with trio.fail_after(10):
        while True:
            frames = await read_frames(stream, decoder, 1)
            assert frames, "the relay closed without an error message"
            for frame in frames:
                try:
                    decode_relay_message(frame, 4 * 1024 * 1024)
                except RelayRejected as exc:
                    return exc.reason


async def _settle(condition: object, rounds: int = 500) -> None:
    for _ in range(rounds):
        if condition():  # type: ignore[operator]
            return
        await trio.sleep(0.01)


@pytest.mark.parametrize(("data", "reason"), [
    (b"", "handshake-timeout"),
    (b"\xff\xff\xff\xff", "frame-too-large"),
    (encode_frame(b"hello, relay"), "bad-message"),
    (encode_frame(b"\x81\xa1t\xa5proof"), "bad-message"),
])
async def test_bad_handshakes_are_rejected_and_counted(data: bytes, reason: str) -> None:
    async with running_relay(handshake_timeout=0.3) as (server, port, lines):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(data)
        assert await _error_of(stream) == reason
        await stream.aclose()
        assert server.stats.rejections[reason] == 1
        assert any(f"reason={reason}" in line for line in lines)


async def test_oversized_frame_after_welcome() -> None:
    async with running_relay(max_payload=1000, bytes_burst=1000) as (server, port, _):
        stream, decoder, _ = await raw_admitted(port, room_code("big"), IdentityKey.generate())
        await stream.send_all((1001).to_bytes(4, "big"))
        assert await _error_of(stream, decoder) == "frame-too-large"
        # exactly at the limit is fine and forwarded (acked to the sender)
        ok = await connect("127.0.0.1", port, room_code("big2"), IdentityKey.generate(),
                           max_payload=1000)
        await ok.send(b"x" * 1000)
        other = await connect("127.0.0.1", port, room_code("big2"), IdentityKey.generate(),
                              max_payload=1000)
        assert (await other.receive()).payload == b"x" * 1000
        await ok.aclose()
        await other.aclose()
        await stream.aclose()


async def test_room_and_connection_counts() -> None:
    async with running_relay(max_rooms=2, max_rooms_per_address=1, max_peers_per_room=2,
                             max_connections=3, max_connections_per_address=2) as (
            server, port, _):
        a = await connect("127.0.0.1", port, room_code("one"), IdentityKey.generate())
        b = await connect("127.0.0.1", port, room_code("one"), IdentityKey.generate(),
                          local_address="127.0.0.2")
        for room, address, reason in [(room_code("one"), "127.0.0.3", "room-full"),
                                      (room_code("two"), "127.0.0.1", "rooms-per-address")]:
            with pytest.raises(RelayRejected) as info:
                await connect("127.0.0.1", port, room, IdentityKey.generate(),
                              local_address=address)
            assert info.value.reason == reason
        c = await connect("127.0.0.1", port, room_code("two"), IdentityKey.generate(),
                          local_address="127.0.0.3")
        await c.aclose()
        with pytest.raises(RelayRejected) as info:
            await connect("127.0.0.1", port, room_code("three"), IdentityKey.generate(),
                          local_address="127.0.0.4")
        assert info.value.reason == "rooms-full"
        with pytest.raises(RelayRejected) as info:
            await connect("127.0.0.1", port, room_code("four"), IdentityKey.generate(), since=3,
                          local_address="127.0.0.4")
        assert info.value.reason == "room-unknown"
        second = await trio.open_tcp_stream("127.0.0.1", port)  # the second of 127.0.0.1
        await _settle(lambda: server.stats.connections == 3)
        third = await trio.open_tcp_stream("127.0.0.1", port)
        assert await _error_of(third) == "connections-full"
        await b.aclose()
        await _settle(lambda: server.stats.connections == 2)
        third = await trio.open_tcp_stream("127.0.0.1", port)
        assert await _error_of(third) == "connections-per-address"
        for s in (second, third):
            await s.aclose()
        await a.aclose()
        assert {r: server.stats.rejections[r] for r in
                ("room-full", "rooms-full", "room-unknown", "connections-full",
                 "rooms-per-address", "connections-per-address")} == {
                    "room-full": 1, "rooms-full": 1, "room-unknown": 1, "connections-full": 1,
                    "rooms-per-address": 1, "connections-per-address": 1}


async def test_one_address_at_its_caps_keeps_no_other_address_out() -> None:
    """From 127.0.0.2 a client opens rooms under fresh keys until the relay refuses it, keeps
    them alive, and opens bare connections until refused too; a host at 127.0.0.3 still makes
    its room, its joiner at 127.0.0.4 gets in, and a match is played through it."""
    async with running_relay(max_rooms=6, max_rooms_per_address=2, max_connections=12,
                             max_connections_per_address=4) as (server, port, lines):
        taken = []
        for n in range(3):
            try:
                taken.append(await connect("127.0.0.1", port, room_code(f"squat{n}"),
                                           IdentityKey.generate(), local_address="127.0.0.2"))
            except RelayRejected as exc:
                assert (n, exc.reason) == (2, "rooms-per-address")
        assert len(taken) == 2
        bare = [await trio.open_tcp_stream("127.0.0.1", port, local_address="127.0.0.2")
                for _ in range(2)]
        await _settle(lambda: server.stats.connections == 4)
        refused = await trio.open_tcp_stream("127.0.0.1", port, local_address="127.0.0.2")
        assert await _error_of(refused) == "connections-per-address"
        await refused.aclose()
        host = await connect("127.0.0.1", port, room_code("table"), IdentityKey.generate(),
                             local_address="127.0.0.3")
        joiner = await connect("127.0.0.1", port, room_code("table"), IdentityKey.generate(),
                               local_address="127.0.0.4")
        assert (host.slot, joiner.slot) == (0, 1)
        await host.send(b"your move")
        assert (await joiner.receive()).payload == b"your move"
        assert any("reason=rooms-per-address" in line and "peer=127.0.0.2:" in line
                   for line in lines)
        for conn in (*taken, host, joiner):
            await conn.aclose()
        for stream in bare:
            await stream.aclose()


async def test_idle_timeout_and_keepalive() -> None:
    async with running_relay(idle_timeout=0.3) as (server, port, _):
        idle = await connect("127.0.0.1", port, room_code("idle"), IdentityKey.generate())
        alive = await connect("127.0.0.1", port, room_code("idle"), IdentityKey.generate(),
                              keepalive=0.05)
        got: list[bytes | None] = []

        async def listen() -> None:  # keepalives are sent while receive() waits
            got.append((await alive.receive()).payload)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(listen)
            with pytest.raises(RelayRejected) as info:
                await idle.receive()
            assert info.value.reason == "idle-timeout"
            await trio.sleep(0.6)  # two more idle timeouts pass for the silent-but-alive client
            late = await connect("127.0.0.1", port, room_code("idle"), IdentityKey.generate())
            await late.send(b"still here")
        assert got == [b"still here"]
        assert server.stats.rejections["idle-timeout"] == 1
        for c in (alive, late):
            await c.aclose()


async def test_room_lifetime_and_replaced_connection() -> None:
    async with running_relay(room_lifetime=0.5) as (server, port, lines):
        key = IdentityKey.generate()
        first = await connect("127.0.0.1", port, room_code("life"), key)
        second = await connect("127.0.0.1", port, room_code("life"), key)
        assert first.slot == second.slot == 0
        with pytest.raises(RelayRejected) as info:
            await first.receive()
        assert info.value.reason == "replaced"
        with pytest.raises(RelayRejected) as info:
            await second.receive()
        assert info.value.reason == "room-expired"
        assert any("event=room-dropped" in line and "reason=room-expired" in line
                   for line in lines)


async def test_room_buffer_budget_drops_the_room() -> None:
    limit = 64 * 1024
    async with running_relay(max_room_bytes=limit, max_payload=8 * 1024,
                             bytes_burst=8 * 1024) as (server, port, lines):
        sender = await connect("127.0.0.1", port, room_code("fat"), IdentityKey.generate())
        other = await connect("127.0.0.1", port, room_code("thin"), IdentityKey.generate())
        for _ in range(100):
            await sender.send(b"y" * 1024)
        with pytest.raises(RelayRejected) as info:
            while True:
                await sender.receive()
        assert info.value.reason == "room-buffer"
        assert server.registry.buffered == 0  # the dropped room released its buffer
        assert room_code("thin") in server.registry.rooms  # the other room is untouched
        assert any("event=room-dropped" in line and "reason=room-buffer" in line
                   for line in lines)
        await other.aclose()


async def test_partial_frames_cannot_exceed_the_inflight_budget() -> None:
    limit = 250_000
    async with running_relay(max_payload=100_000, bytes_burst=100_000,
                             max_inflight_bytes=limit) as (server, port, _):
        streams = []
        seen: list[int] = []
        for i in range(3):
            stream, decoder, _ = await raw_admitted(port, room_code("slow"),
                                                    IdentityKey.generate())
            streams.append((stream, decoder))
            await stream.send_all((100_000).to_bytes(4, "big") + b"z" * 90_000)
            if i < 2:
                await _settle(lambda i=i: server.stats.inflight_bytes == (i + 1) * 90_004)
            seen.append(server.stats.inflight_bytes)
        assert await _error_of(*streams[2]) == "inflight-budget"
        seen.append(server.stats.inflight_bytes)
        assert max(seen) <= limit
        assert server.stats.rejections["inflight-budget"] == 1
        for stream, _ in streams:
            await stream.aclose()
        await _settle(lambda: server.stats.connections == 0)
        assert server.stats.inflight_bytes == 0


async def test_slow_reader_is_cut_and_memory_stays_bounded() -> None:
    room_limit = 24 * 1024 * 1024
    async with running_relay(write_timeout=0.3, bytes_rate=1e9, bytes_burst=1e9,
                             frames_rate=1e6, frames_burst=1e6, max_room_bytes=room_limit,
                             max_total_bytes=room_limit) as (server, port, _):
        code = room_code("sloth")
        sloth, decoder, _ = await raw_admitted(port, code, IdentityKey.generate())  # never reads
        sender = await connect("127.0.0.1", port, code, IdentityKey.generate())
        payload = b"s" * 100_000
        for _ in range(200):  # 20 MB: far more than the loopback socket buffers hold
            await sender.send(payload)
            assert server.registry.buffered <= room_limit
        await _settle(lambda: server.stats.rejections["slow-reader"] == 1)
        assert server.stats.rejections["slow-reader"] == 1
        assert server.registry.buffered <= room_limit
        await sender.aclose()
        await sloth.aclose()


async def test_stats_line_reports_rejections() -> None:
    async with running_relay(stats_interval=0.1, handshake_timeout=0.1) as (server, port, lines):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        assert await _error_of(stream) == "handshake-timeout"
        await stream.aclose()
        await _settle(lambda: any("rejected_handshake_timeout=1" in line for line in lines))
        stats = [line for line in lines if line.startswith("event=stats")]
        assert stats and "rooms=0" in stats[-1] and "rejected_handshake_timeout=1" in stats[-1]


async def test_an_ipv6_client_counts_by_its_64() -> None:
    """Two clients in one IPv6 /64 share its connection cap; a client of the next /64 does not.
    (Loopback has one IPv6 address, so the server is handed in-memory streams and the peers'
    addresses, as its listener would.)"""
    server = RelayServer(RelayLimits(max_connections_per_address=1), log=lambda line: None)
    async with trio.open_nursery() as nursery:
        clients = []
        for peer in ("[2001:db8:7:1::1]:4000", "[2001:db8:7:1:ffff::2]:4001",
                     "[2001:db8:7:2::1]:4002"):
            client, relay_side = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle, relay_side, peer)  # type: ignore[arg-type]
            clients.append(client)
            await trio.testing.wait_all_tasks_blocked()
        assert server.stats.connections == 2
        decoder = FrameDecoder(4096)
        frames = decoder.feed(await clients[1].receive_some(4096))
        with pytest.raises(RelayRejected) as info:
            decode_relay_message(frames[0], 4096)
        assert info.value.reason == "connections-per-address"
        assert str(info.value).endswith("your address already holds 1 connections to this "
                                        "relay [connections-per-address]")
        nursery.cancel_scope.cancel()
