"""Relay capacity: how many 4-seat tables one relay process holds with low latency and no loss.

The relay runs as ``python -m p2pcards relay`` in its own process (one core: it is a single
Trio thread); this process is the load generator. For each level of the ladder it opens
``tables x 4`` connections (one room per table, each peer proving a fresh identity), measures the
relay's resident memory, then every peer sends ``--rate`` frames per second for ``--seconds``
seconds, a match-like mix: 95 % of ~300-byte frames, 5 % of ~10 KiB frames (shuffles). Every
peer receives every other seat's frames; the payload carries its send time, so the generator
measures forwarding latency end to end (relay plus both sockets plus the generator's own delay:
an upper bound on the relay's share). A level passes if every frame reached every other seat
and the 99th percentile latency is under 50 ms.

Printed per level: connections, frames forwarded per second, p50/p99/max latency, lost frames,
relay RSS per connection (idle, after connecting), and at the end the largest passing level.
Nothing here asserts a time; a lost or corrupted frame is reported as a failure of the level.

    python benchmarks/relay.py [--quick] [--levels 50,150,250] [--rate 4] [--seconds 5]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import trio

# Benchmark the checkout this file is in, whatever copy of the package is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2pcards.relay.handshake import ClientHandshake  # noqa: E402
from p2pcards.wire import IdentityKey  # noqa: E402
from p2pcards.wire.framing import FrameDecoder, encode_frame  # noqa: E402

SMALL, LARGE = 300, 10 * 1024
SEATS = 4
_STAMP = struct.Struct(">qII")  # send time (ns), sender peer id, sequence


@dataclass
class Level:
    tables: int
    connections: int = 0
    sent: int = 0
    delivered: int = 0
    expected: int = 0
    corrupted: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    rss_per_conn: float = 0.0
    rss_after_kib: int = 0
    relay_cpu: float = 0.0  # relay CPU seconds per wall second while sending


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) if match else 0


class Peer:
    """A minimal relay member: raw frames, no strict decoding (the generator must be cheap)."""

    def __init__(self, stream: trio.SocketStream, pid: int, level: Level) -> None:
        self.stream = stream
        self.pid = pid
        self.level = level
        self.decoder = FrameDecoder(2 * 1024 * 1024)

    @classmethod
    async def join(cls, port: int, room: bytes, pid: int, level: Level) -> Peer:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        hs = ClientHandshake(room, IdentityKey.generate())
        peer = cls(stream, pid, level)
        await stream.send_all(encode_frame(hs.hello()))
        await stream.send_all(encode_frame(hs.on_challenge(await peer._one())))
        hs.on_welcome(await peer._one())
        return peer

    async def _one(self) -> bytes:
        frames: list[bytes] = []
        while not frames:
            data = await self.stream.receive_some(65536)
            if not data:
                raise ConnectionError("relay closed during the handshake")
            frames = self.decoder.feed(data)
        if len(frames) != 1:
            raise ConnectionError("the relay sent more than the handshake expected")
        return frames[0]

    async def send_loop(self, count: int, rate: float, start: float) -> None:
        for seq in range(count):
            target = start + (seq + (self.pid % 97) / 97) / rate
            delay = target - trio.current_time()
            if delay > 0:
                await trio.sleep(delay)
            size = LARGE if (seq * 7 + self.pid) % 20 == 0 else SMALL
            head = _STAMP.pack(time.perf_counter_ns(), self.pid, seq)
            await self.stream.send_all(encode_frame(head + bytes(size - len(head))))
            self.level.sent += 1

    async def receive_loop(self, expected: int, done: trio.Event) -> None:
        got = 0
        level = self.level
        while got < expected:
            data = await self.stream.receive_some(256 * 1024)
            if not data:
                break
            now = time.perf_counter_ns()
            for frame in self.decoder.feed(data):
                message = msgpack.unpackb(frame, raw=False)
                if message["t"] != "frame":
                    continue  # an ack of our own frame
                payload = message["d"]
                sent_ns, _sender, _seq = _STAMP.unpack_from(payload)
                if len(payload) not in (SMALL, LARGE):
                    level.corrupted += 1
                level.latencies.append((now - sent_ns) / 1e6)
                got += 1
        level.delivered += got
        if got >= expected:
            done.set()


async def run_level(port: int, relay_pid: int, tables: int, rate: float,
                    seconds: float) -> Level:
    level = Level(tables)
    peers: list[Peer] = []
    base = rss_kib(relay_pid)
    limiter = trio.CapacityLimiter(200)

    async def join(room: bytes, pid: int) -> None:
        async with limiter:
            peers.append(await Peer.join(port, room, pid, level))

    run = os.urandom(4).hex()
    async with trio.open_nursery() as nursery:
        for t in range(tables):
            room = f"bench-{run}-{t}".encode().ljust(16, b".")
            for s in range(SEATS):
                nursery.start_soon(join, room, t * SEATS + s)
    peers.sort(key=lambda p: p.pid)
    level.connections = len(peers)
    await trio.sleep(0.3)
    level.rss_per_conn = (rss_kib(relay_pid) - base) * 1024 / max(1, len(peers))
    count = max(1, int(rate * seconds))
    level.expected = count * (SEATS - 1) * len(peers)
    start = trio.current_time() + 0.2
    began = time.perf_counter()
    cpu_before = cpu_seconds(relay_pid)
    with trio.move_on_after(seconds + 30):
        async with trio.open_nursery() as nursery:
            for peer in peers:
                nursery.start_soon(peer.send_loop, count, rate, start)
                nursery.start_soon(peer.receive_loop, count * (SEATS - 1), trio.Event())
    level.seconds = time.perf_counter() - began - 0.2
    level.relay_cpu = (cpu_seconds(relay_pid) - cpu_before) / (level.seconds + 0.2)
    level.rss_after_kib = rss_kib(relay_pid)
    for peer in peers:
        await peer.stream.aclose()
    await trio.sleep(0.5)
    return level


def report(level: Level) -> bool:
    lat = sorted(level.latencies)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[int(len(lat) * 0.99) - 1] if lat else float("nan")
    lost = level.expected - level.delivered
    ok = lost == 0 and level.corrupted == 0 and p99 < 50.0
    rate = level.delivered / level.seconds if level.seconds > 0 else 0.0
    print(f"{level.tables:>6} {level.connections:>6} {rate:>12,.0f} {p50:>8.1f} {p99:>8.1f} "
          f"{(lat[-1] if lat else float('nan')):>8.1f} {lost:>6} "
          f"{level.rss_per_conn / 1024:>9.1f} {level.rss_after_kib / 1024:>9.1f} "
          f"{level.relay_cpu:>9.0%}  "
          f"{'ok' if ok else 'FAIL'}", flush=True)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="three short levels (~30 s)")
    parser.add_argument("--levels", help="comma-separated table counts")
    parser.add_argument("--rate", type=float, default=4.0, help="frames/s sent per peer")
    parser.add_argument("--seconds", type=float, help="sending time per level")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")] if args.levels else (
        [50, 150, 250] if args.quick else [50, 150, 250, 400, 600])
    seconds = args.seconds or (4.0 if args.quick else 8.0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    with tempfile.TemporaryFile() as log:
        relay = subprocess.Popen(
            [sys.executable, "-m", "p2pcards", "relay", "--listen", "127.0.0.1:0",
             "--max-rooms", "5000", "--max-connections", "20000", "--stats-interval", "3600",
             "--total-bytes", str(4 * 1024**3)],
            stderr=log, stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
        port = 0
        for _ in range(400):
            log.seek(0)
            found = re.search(rb"event=listening address=[^ ]*:(\d+)", log.read())
            if found:
                port = int(found.group(1))
                break
            time.sleep(0.025)
        if not port:
            relay.kill()
            print("the relay did not start", file=sys.stderr)
            return 1
        print(f"relay pid {relay.pid} on port {port}; {SEATS} seats per table, {args.rate:g} "
              f"frames/s per peer for {seconds:g} s, 5 % of frames {LARGE} B, the rest {SMALL} B")
        print(f"{'tables':>6} {'conns':>6} {'fwd frames/s':>12} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'max ms':>8} {'lost':>6} {'KiB/conn':>9} {'RSS MiB':>9} {'relay CPU':>9}")
        best = 0
        best_rate = 0.0
        try:
            for tables in levels:
                level = trio.run(run_level, port, relay.pid, tables, args.rate, seconds)
                if report(level):
                    best = max(best, tables)
                    best_rate = max(best_rate, level.delivered / level.seconds)
        finally:
            relay.send_signal(signal.SIGTERM)
            relay.wait(timeout=10)
        print(f"most tables with p99 < 50 ms and no loss: {best} ({best * SEATS} connections); "
              f"best forwarding rate at a passing level: {best_rate:,.0f} frames/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
