"""Helpers for the relay tests: relay processes and servers, table drivers, raw clients."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio
from starter import start

from p2pcards.bots import make_bot
from p2pcards.relay import RelayConnection, RelayLimits, RelayServer, connect
from p2pcards.relay.handshake import ClientHandshake
from p2pcards.table import Table
from p2pcards.wire import IdentityKey
from p2pcards.wire.framing import FrameDecoder, encode_frame

Tamper = Callable[[list[bytes]], list[bytes]]


LOOPBACK_CAPS = ("--max-rooms-per-address", "999", "--max-connections-per-address", "4000")
"""Per-address caps for a relay whose every client is a test's process at 127.0.0.1: a module's
relay sees more tables from that one address than a public relay lets one address hold."""


DEADLINE = 300.0
"""A hang guard only, as in the other process tests: never a measure of speed."""


class RelayProcess:
    """``p2pcards relay`` in a process of its own (:func:`starter.start`) on a free loopback
    port; logs in a file. Unless
    ``args`` say otherwise (the last value of an option counts), the per-address caps are
    :data:`LOOPBACK_CAPS`."""

    def __init__(self, log_path: Path, *args: str) -> None:
        self.log_path = log_path
        self._log = log_path.open("wb")
        self.proc = start(["relay", "--listen", "127.0.0.1:0", *LOOPBACK_CAPS, *args],
                          env=os.environ, stdout=subprocess.DEVNULL, stderr=self._log)
        self.port = self._wait_port()

    def _wait_port(self) -> int:
        """The port of the ``event=listening`` line (waits for it: a loaded machine may take
        many seconds to start a Python process); a relay that exits or never listens fails
        the test with its log, killed first."""
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            for line in self.log_path.read_text().splitlines():
                if line.startswith("event=listening"):
                    return int(line.split("address=")[1].split()[0].rsplit(":", 1)[1])
            if self.proc.poll() is not None:
                raise RuntimeError(f"relay exited: {self.log_path.read_text()}")
            time.sleep(0.025)
        self.proc.kill()
        self.proc.wait(DEADLINE)
        raise RuntimeError(f"relay did not listen within {DEADLINE:.0f} s: {self.log()}")

    def log(self) -> str:
        return self.log_path.read_text()

    def stop(self, signum: int = signal.SIGTERM) -> int:
        """Send ``signum`` and return the exit status; a relay still running after
        :data:`DEADLINE` is killed and the test fails with its log."""
        self.proc.send_signal(signum)
        try:
            return self.proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(DEADLINE)
            raise AssertionError(f"the relay did not exit within {DEADLINE:.0f} s of signal "
                                 f"{signum}; its log:\n{self.log()}") from None
        finally:
            self._log.close()


@asynccontextmanager
async def running_relay(stats_interval: float = 60.0,
                        **limits: Any) -> AsyncIterator[tuple[RelayServer, int, list[str]]]:
    """An in-process relay with the given limits; yields (server, port, log lines)."""
    lines: list[str] = []
    server = RelayServer(RelayLimits(**limits), log=lines.append, stats_interval=stats_interval)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve, "127.0.0.1", 0)
        yield server, port, lines
        server.request_shutdown()


def room_code(name: str) -> bytes:
    return f"room-{name}".encode().ljust(16, b".")


async def drive(conn: RelayConnection, table: Table, seed: int, game: str,
                tamper: Tamper | None = None, abort_after: int | None = None) -> None:
    """Play ``table`` to the end through ``conn``: its outgoing frames are sent, every received
    payload (after ``tamper``, which maps a batch of received payloads to what is delivered) goes
    to ``table.receive``, and a bot decides. ``abort_after`` drops the TCP connection once that
    many frames were received (the connection then reconnects and catches up)."""
    bot = make_bot(game, "random", seed)
    received = 0
    step = table.start()
    for out in step.outgoing:
        await conn.send(out)
    while not table.finished:
        if table.needs_decision:
            step = table.decide(bot.choose(table.observation(), table.legal_actions()))
            for out in step.outgoing:
                await conn.send(out)
            continue
        delivery = await conn.receive()
        received += 1
        if abort_after is not None and received == abort_after:
            await conn.abort()
        assert delivery.payload is not None
        batch = [delivery.payload]
        if tamper is not None:
            batch = tamper(batch)
        for payload in batch:
            step = table.receive(payload)
            for out in step.outgoing:
                await conn.send(out)


async def play_match(port: int, room: bytes, tables: list[Table], game: str,
                     tampers: dict[int, Tamper] | None = None,
                     abort_after: dict[int, int] | None = None) -> list[RelayConnection]:
    """Every table through its own relay connection, concurrently, to the end of the match."""
    conns = [await connect("127.0.0.1", port, room, IdentityKey.generate(), keepalive=5.0)
             for _ in tables]
    async with trio.open_nursery() as nursery:
        for i, (conn, table) in enumerate(zip(conns, tables, strict=True)):
            nursery.start_soon(drive, conn, table, 100 + i, game, (tampers or {}).get(i),
                               (abort_after or {}).get(i))
    for conn in conns:
        await conn.aclose()
    return conns


async def raw_admitted(port: int, room: bytes, key: IdentityKey,
                       since: int = -1) -> tuple[trio.SocketStream, FrameDecoder, list[bytes]]:
    """A hand-driven admitted connection: (stream, decoder, frames read after the welcome)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    hs = ClientHandshake(room, key, since)
    decoder = FrameDecoder(2 * 1024 * 1024)
    await stream.send_all(encode_frame(hs.hello()))
    frames = await read_frames(stream, decoder, 1)
    await stream.send_all(encode_frame(hs.on_challenge(frames[0])))
    frames = await read_frames(stream, decoder, 1)
    hs.on_welcome(frames[0])
    return stream, decoder, frames[1:]


async def read_frames(stream: trio.SocketStream, decoder: FrameDecoder, n: int) -> list[bytes]:
    """At least ``n`` frames (all frames completed by the reads), or fewer at end of stream."""
    frames: list[bytes] = []
    while len(frames) < n:
        data = await stream.receive_some(65536)
        if not data:
            break
        frames.extend(decoder.feed(data))
    return frames
