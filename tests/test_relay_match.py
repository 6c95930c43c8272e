"""Whole matches through a real relay process: plain, with a reconnect, with a flooder."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from test_relay_support import RelayProcess, play_match, raw_admitted, room_code, running_relay

from p2pcards.offline.memory import make_tables
from p2pcards.relay import RelayRejected, connect
from p2pcards.wire import IdentityKey
from p2pcards.wire.framing import encode_frame

GAME, PRESET = "briscola", "italian"


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RelayProcess]:
    process = RelayProcess(tmp_path_factory.mktemp("relay") / "relay.log",
                           "--stats-interval", "0.5")
    yield process
    assert process.stop(signal.SIGTERM) == 0
    log = process.log()
    assert "event=signal signal=SIGTERM" in log and "event=shutdown" in log


async def test_match_through_relay_process(relay: RelayProcess) -> None:
    genesis, tables = make_tables(GAME, PRESET, 2, seed=1)
    conns = await play_match(relay.port, room_code("match"), tables, GAME)
    assert all(t.finished for t in tables)
    assert tables[0].frames == tables[1].frames
    assert tables[0].engine.match_scores == tables[1].engine.match_scores
    # every envelope got one room index (the sender of the last one may leave before its ack)
    assert max(c.last_index for c in conns) == len(tables[0].frames) - 1
    assert [c.slot for c in conns] == [0, 1]


async def test_reconnect_mid_hand_catches_up(relay: RelayProcess) -> None:
    genesis, tables = make_tables(GAME, PRESET, 2, seed=2)
    conns = await play_match(relay.port, room_code("reconnect"), tables, GAME,
                             abort_after={1: 30, 0: 55})
    assert [c.reconnects for c in conns] == [1, 1]
    assert all(t.finished for t in tables)
    assert tables[0].frames == tables[1].frames
    assert tables[0].engine.match_scores == tables[1].engine.match_scores


async def test_flooder_is_throttled_while_another_room_plays(tmp_path: Path) -> None:
    async with running_relay(frames_rate=200, frames_burst=300) as (server, port, lines):
        flood_stream, _, _ = await raw_admitted(port, room_code("flood"), IdentityKey.generate())
        sink = await connect("127.0.0.1", port, room_code("flood"), IdentityKey.generate())

        async def flood() -> None:
            frame = encode_frame(b"x" * 200)
            while True:
                await flood_stream.send_all(frame * 50)

        async def drain() -> None:
            while True:
                await sink.receive()

        genesis, tables = make_tables(GAME, PRESET, 2, seed=3)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(flood)
            nursery.start_soon(drain)
            await play_match(port, room_code("victim"), tables, GAME)
            nursery.cancel_scope.cancel()
        assert all(t.finished for t in tables)
        assert tables[0].frames == tables[1].frames
        assert server.stats.rejections["throttled-frames"] > 0
        await flood_stream.aclose()
        await sink.aclose()


async def test_shutdown_on_sigint_tells_clients(tmp_path: Path) -> None:
    process = RelayProcess(tmp_path / "relay.log")
    conn = await connect("127.0.0.1", process.port, room_code("bye"), IdentityKey.generate())
    await conn.send(b"hello")
    with trio.fail_after(10):
        await trio.to_thread.run_sync(process.stop, signal.SIGINT)
        with pytest.raises(RelayRejected) as info:
            await conn.receive()
    assert info.value.reason == "shutdown"
    assert process.proc.returncode == 0
    assert "event=signal signal=SIGINT" in process.log()
