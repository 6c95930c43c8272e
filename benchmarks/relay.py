"""Relay capacity: how many 4-seat tables one relay process holds with low latency and no loss.

The relay runs as ``python -m p2pcards relay`` in its own process (one core: it is a single
Trio thread). The load comes from ``--generators`` other processes; each owns whole tables (all
four seats of a table are in one generator, so a latency is always measured by one process
against one clock), and this process only starts them, measures the relay and gathers their
results (one JSON line each on their standard output).

For each level of the ladder the generators open ``tables x 4`` connections (one room per table,
each peer proving a fresh identity), the relay's resident memory is measured, then every peer
sends ``--rate`` frames per second for ``--seconds`` seconds on a fixed schedule, a match-like
mix: 95 % of 300-byte frames, 5 % of 10 KiB frames (shuffles). Every peer must receive every
other seat's frames. The payload carries its send time, sender and sequence number, so the
receiver measures forwarding latency end to end (relay plus both sockets plus the generator's own
delay in noticing the frame: an upper bound on the relay's share) and checks that each sender's
frames arrive complete, unaltered and in order. A level passes if every frame reached every other
seat intact and the 99th percentile latency is under 50 ms.

A generator is a plain ``epoll`` loop over non-blocking sockets (no task per peer, one receive
per readable socket, frames parsed in place), so that it costs far less than the relay it
measures; its CPU share is printed next to the relay's to show it.

Printed per level: connections, frames forwarded per second, p50/p99/max latency, lost and bad
frames, relay RSS per connection (idle, after connecting) and in total, the CPU used during the
sending window (seconds per second, so 100 % is one core) by the relay, by the generators and by
everything else on the machine (other load disturbs the figures: rerun), and at the end the
largest passing level. Nothing here asserts a time; a lost or corrupted frame fails the level.

The target (issue 29) is 250 tables, 1,000 connections, at p99 <= 50 ms with one other busy
process on the machine: ``--busy`` starts that process (a Python loop) for the whole run, and
the last lines say whether the 250-table level met it. ``--compare CHECKOUT`` runs the relay of
another checkout too (``git worktree add /tmp/relay-old <commit>``), each level against both
relays in turns, so that old and new are measured under the same load. Each row also gives the
p90, the relay's CPU time per forwarded frame and the generators' own loop lag (99th percentile
of one pass of their loop: their share of the measured latency). ``--anatomy`` runs each relay
under ``benchmarks/relay_probe.py`` and prints, at the end, where its frames' time went: waiting
for the relay to read them, inside the relay up to the last member's socket, the run loop's
passes and the collector's pauses.

    python benchmarks/relay.py [--quick] [--levels 100,250,300] [--rate 4] [--seconds 8]
                               [--generators 2] [--busy] [--compare CHECKOUT] [--anatomy]
"""

from __future__ import annotations

import argparse
import base64
import gc
import json
import os
import re
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

# Benchmark the checkout this file is in, whatever copy of the package is installed.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2pcards.relay.handshake import ClientHandshake  # noqa: E402
from p2pcards.wire import IdentityKey  # noqa: E402
from p2pcards.wire.framing import FrameDecoder, encode_frame  # noqa: E402

SMALL, LARGE = 300, 10 * 1024
SEATS = 4
P99_LIMIT_MS = 50.0
_STAMP = struct.Struct(">qII")  # send time (monotonic ns), sender peer id, sequence number
_PREFIX = struct.Struct(">I")
# A forwarded frame as the relay sends it: the canonical msgpack map {"d", "i", "s", "t"}, so it
# starts with fixmap(4), "d", bin16 and the payload length (both sizes here need bin16), and it
# ends with "t": "frame". An ack is fixmap(2) {"i", "t"}.
_FRAME_HEAD = b"\x84\xa1d\xc5"
_FRAME_TAIL = b"\xa1t\xa5frame"
_ACK_HEAD = 0x82
_PADDING = {SMALL: bytes(SMALL - _STAMP.size), LARGE: bytes(LARGE - _STAMP.size)}
_CONNECT_BATCH = 200


# ---------------------------------------------------------------------------- generator process


class _Peer:
    """One synthetic seat in a generator: its socket, its receive buffer and what it checked."""

    __slots__ = ("sock", "pid", "buf", "out", "next_seq", "got")

    def __init__(self, sock: socket.socket, pid: int) -> None:
        self.sock = sock
        self.pid = pid
        self.buf = bytearray()
        self.out = bytearray()  # bytes not yet accepted by the socket
        self.next_seq = [0] * SEATS  # next sequence number expected from each seat of the table
        self.got = 0


def _read_frame(peer: _Peer) -> bytes:
    """One whole frame from a blocking socket during the handshake (extra bytes are kept)."""
    decoder = FrameDecoder(4096)
    frames = decoder.feed(bytes(peer.buf))
    while not frames:
        data = peer.sock.recv(4096)
        if not data:
            raise ConnectionError(f"the relay closed peer {peer.pid}'s connection in the handshake")
        frames = decoder.feed(data)
    if len(frames) != 1 or decoder.pending:
        raise ConnectionError("the relay sent more than the handshake expected")
    peer.buf.clear()
    return frames[0]


def _connect(port: int, tables: list[int], run: str) -> list[_Peer]:
    """Open and admit every seat of ``tables``, in pipelined batches of blocking sockets."""
    peers: list[_Peer] = []
    seats = [(t, s) for t in tables for s in range(SEATS)]
    for first in range(0, len(seats), _CONNECT_BATCH):
        batch: list[tuple[_Peer, ClientHandshake]] = []
        for t, s in seats[first:first + _CONNECT_BATCH]:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            room = f"bench-{run}-{t}".encode().ljust(16, b".")
            hs = ClientHandshake(room, IdentityKey.generate())
            sock.sendall(encode_frame(hs.hello()))
            batch.append((_Peer(sock, t * SEATS + s), hs))
        for peer, hs in batch:
            peer.sock.sendall(encode_frame(hs.on_challenge(_read_frame(peer))))
        for peer, hs in batch:
            hs.on_welcome(_read_frame(peer))
            peer.sock.setblocking(False)
            peers.append(peer)
    return peers


def _schedule(peers: list[_Peer], count: int, rate: float, start: float) -> list[tuple[float,
                                                                                       int, int]]:
    """Every send as ``(time, peer index, sequence)``, in time order. Peer ``pid`` sends its
    ``seq``-th frame at ``start + (seq + phase) / rate``, the phase spreading peers over the
    period; one frame in twenty (staggered by peer) is a large one."""
    events = [(start + (seq + (peer.pid % 97) / 97) / rate, index, seq)
              for index, peer in enumerate(peers) for seq in range(count)]
    events.sort()
    return events


class _Tally:
    """What one generator measured while sending."""

    def __init__(self) -> None:
        self.sent = 0
        self.delivered = 0
        self.acks = 0
        self.bad = 0  # corrupted, misrouted, duplicated or out-of-order frames
        self.latencies = array("d")  # milliseconds
        self.last_receive = 0.0
        self.lags = array("d")  # milliseconds each loop pass took, from poll's return on


def _receive(peer: _Peer, tally: _Tally, now_ns: int) -> None:
    """Parse every complete relay message in ``peer.buf``; check and time each frame."""
    buf = peer.buf
    size = len(buf)
    off = 0
    table = peer.pid // SEATS
    latencies = tally.latencies
    while size - off >= 4:
        (length,) = _PREFIX.unpack_from(buf, off)
        end = off + 4 + length
        if end > size:
            break
        m = off + 4
        if buf[m:m + 4] == _FRAME_HEAD:
            (plen,) = struct.unpack_from(">H", buf, m + 4)
            sent_ns, sender, seq = _STAMP.unpack_from(buf, m + 6)
            stamp_end = m + 6 + _STAMP.size
            seat = sender - table * SEATS
            if (plen not in _PADDING or buf[stamp_end:m + 6 + plen] != _PADDING[plen]
                    or buf[end - len(_FRAME_TAIL):end] != _FRAME_TAIL
                    or not 0 <= seat < SEATS or sender == peer.pid
                    or peer.next_seq[seat] != seq):
                tally.bad += 1
            else:
                peer.next_seq[seat] = seq + 1
                peer.got += 1
                latencies.append((now_ns - sent_ns) / 1e6)
        elif length and buf[m] == _ACK_HEAD:
            tally.acks += 1
        else:
            tally.bad += 1
        off = end
    if off:
        del buf[:off]


def _flush(peer: _Peer, poller: select.epoll) -> None:
    """Write what the socket accepts of ``peer.out``; watch for writability while any remains."""
    try:
        sent = peer.sock.send(peer.out)
    except BlockingIOError:
        sent = 0
    del peer.out[:sent]
    mask = select.EPOLLIN | (select.EPOLLOUT if peer.out else 0)
    poller.modify(peer.sock.fileno(), mask)


def _drive(peers: list[_Peer], count: int, rate: float, seconds: float,
           start: float) -> _Tally:
    """Send on schedule and receive until every frame is in or ``seconds + 15`` s have
    passed."""
    tally = _Tally()
    events = _schedule(peers, count, rate, start)
    by_fd = {peer.sock.fileno(): peer for peer in peers}
    expected_each = count * (SEATS - 1)
    waiting = len(peers)  # peers still missing frames
    poller = select.epoll()
    for fd in by_fd:
        poller.register(fd, select.EPOLLIN)
    deadline = start + seconds + 15.0
    headers = {n: _PREFIX.pack(n) for n in _PADDING}
    pos = 0
    total = len(events)
    delay = start - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    gc.disable()  # nothing cyclic is made while sending; keep collector pauses out of the timings
    try:
        while waiting or pos < total:
            now = time.monotonic()
            if now >= deadline:
                break
            timeout = events[pos][0] - now if pos < total else deadline - now
            ready = poller.poll(max(0.0, timeout))
            woke = time.monotonic()
            if ready:
                now_ns = time.monotonic_ns()
                for fd, mask in ready:
                    peer = by_fd[fd]
                    if mask & select.EPOLLOUT:
                        _flush(peer, poller)
                    if mask & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR):
                        try:
                            data = peer.sock.recv(1 << 18)
                        except BlockingIOError:
                            continue
                        if not data:
                            poller.unregister(fd)
                            del by_fd[fd]
                            if peer.got < expected_each:
                                waiting -= 1
                            continue
                        had = peer.got
                        peer.buf += data
                        _receive(peer, tally, now_ns)
                        if peer.got > had:
                            tally.last_receive = now_ns / 1e9
                            if had < expected_each <= peer.got:
                                waiting -= 1
                now = time.monotonic()
            while pos < total and events[pos][0] <= now:
                _when, index, seq = events[pos]
                pos += 1
                peer = peers[index]
                plen = LARGE if (seq * 7 + peer.pid) % 20 == 0 else SMALL
                frame = b"".join((headers[plen], _STAMP.pack(time.monotonic_ns(), peer.pid, seq),
                                  _PADDING[plen]))
                tally.sent += 1
                if peer.out:
                    peer.out += frame
                    continue
                try:
                    done = peer.sock.send(frame)
                except BlockingIOError:
                    done = 0
                if done < len(frame):
                    peer.out += frame[done:]
                    poller.modify(peer.sock.fileno(), select.EPOLLIN | select.EPOLLOUT)
            tally.lags.append((time.monotonic() - woke) * 1e3)
    finally:
        gc.enable()
        poller.close()
    tally.delivered = sum(peer.got for peer in peers)
    return tally


def generator_main(spec: dict[str, Any]) -> int:
    """A generator process: connect, say ``ready``, wait for ``start``, run, print the result.

    ``spec`` holds ``port``, ``tables`` (table numbers), ``rate``, ``seconds`` and ``run``.
    Messages are single JSON lines: ``{"ready": connections}`` and ``{"result": {...}}`` on
    standard output, ``{"start": monotonic seconds}`` on standard input.
    """
    _raise_fd_limit()
    peers = _connect(spec["port"], spec["tables"], spec["run"])
    _say({"ready": len(peers)})
    order = json.loads(sys.stdin.readline())
    count = max(1, int(spec["rate"] * spec["seconds"]))
    tally = _drive(peers, count, spec["rate"], spec["seconds"], order["start"])
    for peer in peers:
        peer.sock.close()
    _say({"result": {
        "connections": len(peers), "sent": tally.sent, "delivered": tally.delivered,
        "expected": count * (SEATS - 1) * len(peers), "acks": tally.acks, "bad": tally.bad,
        "last_receive": tally.last_receive,
        "latencies": base64.b64encode(tally.latencies.tobytes()).decode(),
        "lags": base64.b64encode(tally.lags.tobytes()).decode()}})
    return 0


def _say(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---------------------------------------------------------------------------- coordinator


@dataclass
class Level:
    """One level's figures, summed over the generators."""

    tables: int
    connections: int = 0
    sent: int = 0
    delivered: int = 0
    expected: int = 0
    acks: int = 0
    bad: int = 0
    latencies: array[float] = field(default_factory=lambda: array("d"))
    lags: array[float] = field(default_factory=lambda: array("d"))  # generator loop passes, ms
    seconds: float = 0.0  # from the first scheduled send to the last frame received
    rss_per_conn: float = 0.0
    rss_after_kib: int = 0
    relay_cpu: float = 0.0  # relay CPU seconds per wall second during the sending window
    relay_us_per_frame: float = 0.0  # relay CPU per forwarded frame, start to last receipt
    generator_cpu: float = 0.0  # all generators' CPU seconds per wall second, same window
    other_cpu: float = 0.0  # every other process on the machine, same window

    @property
    def lost(self) -> int:
        return self.expected - self.delivered

    def percentile(self, q: float) -> float:
        return _percentile(self.latencies, q)

    @property
    def passed(self) -> bool:
        return self.lost == 0 and self.bad == 0 and self.percentile(0.99) < P99_LIMIT_MS

    @property
    def forwarded_per_second(self) -> float:
        return self.delivered / self.seconds if self.seconds > 0 else 0.0


def _percentile(values: array[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(0, min(len(ordered) - 1, int(len(ordered) * q + 0.999999) - 1))]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU seconds all CPUs of the machine spent busy since boot (everything but idle and
    iowait, from ``/proc/stat``)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) if match else 0


def _read_json(proc: subprocess.Popen[str], key: str) -> Any:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"generator {proc.pid} exited (status {proc.wait()}) before '{key}'")
    return json.loads(line)[key]


def run_level(port: int, relay_pid: int, tables: int, rate: float, seconds: float,
              generators: int, pin: list[int] | None) -> Level:
    """Run one level with ``generators`` processes sharing the tables round-robin."""
    level = Level(tables)
    run = os.urandom(4).hex()
    base = rss_kib(relay_pid)
    procs: list[subprocess.Popen[str]] = []
    shares = [list(range(g, tables, generators)) for g in range(min(generators, tables))]
    try:
        for share in shares:
            spec = {"port": port, "tables": share, "rate": rate, "seconds": seconds, "run": run}
            proc = subprocess.Popen([sys.executable, __file__, "--generator", json.dumps(spec)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            if pin is not None:
                os.sched_setaffinity(proc.pid, pin)
            procs.append(proc)
        level.connections = sum(_read_json(proc, "ready") for proc in procs)
        time.sleep(0.3)
        level.rss_per_conn = (rss_kib(relay_pid) - base) * 1024 / max(1, level.connections)
        start = time.monotonic() + 0.3
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps({"start": start}) + "\n")
            proc.stdin.flush()
        time.sleep(max(0.0, start - time.monotonic()))
        relay_before = relay_start = cpu_seconds(relay_pid)
        gen_before = sum(cpu_seconds(proc.pid) for proc in procs)
        busy_before = machine_busy_seconds()
        time.sleep(seconds)
        level.relay_cpu = (cpu_seconds(relay_pid) - relay_before) / seconds
        level.generator_cpu = (sum(cpu_seconds(proc.pid) for proc in procs) - gen_before) / seconds
        level.other_cpu = max(0.0, (machine_busy_seconds() - busy_before) / seconds
                              - level.relay_cpu - level.generator_cpu)
        level.rss_after_kib = rss_kib(relay_pid)
        last = start
        for proc in procs:
            result = _read_json(proc, "result")
            level.sent += result["sent"]
            level.delivered += result["delivered"]
            level.expected += result["expected"]
            level.acks += result["acks"]
            level.bad += result["bad"]
            level.latencies.frombytes(base64.b64decode(result["latencies"]))
            level.lags.frombytes(base64.b64decode(result["lags"]))
            last = max(last, result["last_receive"])
        level.seconds = last - start
        level.relay_us_per_frame = ((cpu_seconds(relay_pid) - relay_start) * 1e6
                                    / max(1, level.delivered))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    time.sleep(0.5)
    return level


HEADER = (f"{'tables':>6} {'conns':>6} {'fwd frames/s':>12} {'p50 ms':>7} {'p90 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>7} {'lost':>5} {'bad':>4} {'KiB/conn':>8} {'RSS MiB':>7} "
          f"{'relay CPU':>9} {'us/frame':>8} {'gen CPU':>7} {'gen lag':>7} {'other':>5}")


def report(level: Level, out: IO[str], label: str = "") -> None:
    """One row of :data:`HEADER` (after ``label``, when old and new relays are compared).

    ``us/frame`` is the relay's CPU time per forwarded frame, from the first send to the last
    receipt (so it holds when the relay falls behind, where the CPU share saturates).
    ``gen lag`` is the 99th percentile of one pass of a generator's loop (from ``poll``'s
    return to the next ``poll``, wall time): how long a frame that has arrived can wait for a
    generator to read it, the generators' own share of the measured latency.
    """
    lat_max = max(level.latencies) if level.latencies else float("nan")
    print(f"{label}{level.tables:>6} {level.connections:>6} {level.forwarded_per_second:>12,.0f} "
          f"{level.percentile(0.5):>7.1f} {level.percentile(0.9):>7.1f} "
          f"{level.percentile(0.99):>7.1f} {lat_max:>7.1f} "
          f"{level.lost:>5} {level.bad:>4} {level.rss_per_conn / 1024:>8.1f} "
          f"{level.rss_after_kib / 1024:>7.1f} {level.relay_cpu:>9.0%} "
          f"{level.relay_us_per_frame:>8.1f} {level.generator_cpu:>7.0%} "
          f"{_percentile(level.lags, 0.99):>7.1f} "
          f"{level.other_cpu:>5.0%}  {'ok' if level.passed else 'FAIL'}", file=out, flush=True)


def start_relay(log: IO[bytes], pin: list[int] | None, profile: str | None,
                root: Path = ROOT, probe: str | None = None
                ) -> tuple[subprocess.Popen[bytes], int]:
    """Start the relay of the checkout ``root`` on a free loopback port; return the process and
    the port (0: failed). With ``profile``, the relay runs under cProfile and writes its
    statistics there on exit; with ``probe``, under :mod:`relay_probe`, which writes where each
    frame's time went to that file on exit."""
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    command = [str(Path(__file__).with_name("relay_probe.py"))] if probe else ["-m", "p2pcards"]
    probe_env = {"P2PCARDS_RELAY_PROBE": probe} if probe else {}
    relay = subprocess.Popen(
        [sys.executable, *profiler, *command, "relay", "--listen", "127.0.0.1:0",
         "--max-rooms", "5000", "--max-connections", "20000", "--stats-interval", "3600",
         # every generator connects from 127.0.0.1: the per-address caps must not apply
         "--max-rooms-per-address", "4999", "--max-connections-per-address", "19999",
         "--total-bytes", str(4 * 1024**3)],
        stderr=log, stdout=subprocess.DEVNULL, cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), **probe_env})
    if pin is not None:
        os.sched_setaffinity(relay.pid, pin)
    deadline = time.monotonic() + 120  # a loaded machine can take long to start Python
    while time.monotonic() < deadline and relay.poll() is None:
        log.seek(0)
        found = re.search(rb"event=listening address=[^ ]*:(\d+)", log.read())
        if found:
            return relay, int(found.group(1))
        time.sleep(0.025)
    relay.kill()
    return relay, 0


TARGET_TABLES = 250
"""The capacity target: 250 four-seat tables (1,000 connections) at p99 <= 50 ms with one busy
process beside the relay."""


def start_busy() -> subprocess.Popen[bytes]:
    """One process that keeps a CPU busy (a Python loop) until it is killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


@dataclass
class Relay:
    """A relay process under test: which checkout it runs, its process, port and log."""

    name: str
    root: Path
    proc: subprocess.Popen[bytes]
    port: int
    log: IO[bytes]
    levels: list[Level] = field(default_factory=list)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _target_line(relay: Relay, busy: bool) -> str:
    """Whether the target level passed for ``relay``, in one line."""
    at_target = [level for level in relay.levels if level.tables == TARGET_TABLES]
    if not at_target:
        return (f"{relay.name}: target not measured (no level of {TARGET_TABLES} tables was "
                "run)")
    worst = max(at_target, key=lambda level: level.percentile(0.99))
    met = "met" if all(level.passed for level in at_target) else "NOT met"
    beside = "one busy process beside it" if busy else "no --busy process (the target wants one)"
    # RSS per connection means something on the first level only (later ones reuse memory)
    rss = relay.levels[0].rss_per_conn / 1024
    return (f"{relay.name}: target {TARGET_TABLES} tables ({worst.connections} connections) at "
            f"p99 <= {P99_LIMIT_MS:g} ms, {beside}: {met} (worst p99 "
            f"{worst.percentile(0.99):.1f} ms in {len(at_target)} run(s), "
            f"{sum(level.lost for level in at_target)} lost, "
            f"{sum(level.bad for level in at_target)} bad; {rss:.1f} KiB of relay RSS per idle "
            f"connection, first level)")


ANATOMY = {
    "waiting": "send to relay's read",
    "parsed": "read to appended",
    "written": "read to fanned out",
    "batch": "one run-loop pass",
    "gc0": "gc young",
    "gc1": "gc middle",
    "gc2": "gc full",
    "gc_forwarding": "gc while frames flow",
}


def print_anatomy(name: str, path: Path, out: IO[str]) -> None:
    """Percentiles of each stage :mod:`relay_probe` timed in relay ``name`` (ms), the task
    steps per run-loop pass, and the garbage collector's passes."""
    if not path.exists():
        print(f"{name}: the probe wrote nothing (did the relay exit cleanly?)", file=out)
        return
    samples = {key: array("d", values) for key, values in json.loads(path.read_text()).items()}
    print(f"{name}: where the time went (ms)      count      p50      p90      p99      max   "
          "total s", file=out)
    for key, label in ANATOMY.items():
        values = samples.get(key, array("d"))
        if not values:
            continue
        print(f"  {label:<28} {len(values):>10} {_percentile(values, 0.5):>8.2f} "
              f"{_percentile(values, 0.9):>8.2f} {_percentile(values, 0.99):>8.2f} "
              f"{max(values):>8.2f} {sum(values) / 1e3:>9.2f}", file=out)
    steps = samples.get("steps", array("d"))
    if steps:
        print(f"  task steps per pass: p50 {_percentile(steps, 0.5):.0f}, p99 "
              f"{_percentile(steps, 0.99):.0f}, max {max(steps):.0f}", file=out, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="three short levels (~30 s)")
    parser.add_argument("--levels", help="comma-separated table counts")
    parser.add_argument("--rate", type=float, default=4.0, help="frames/s sent per peer")
    parser.add_argument("--seconds", type=float, help="sending time per level")
    parser.add_argument("--generators", type=int, default=2,
                        help="load generator processes (tables are split among them)")
    parser.add_argument("--busy", action="store_true",
                        help="run one CPU-busy process beside the relay for the whole run")
    parser.add_argument("--compare", metavar="CHECKOUT", type=Path,
                        help="also run the relay of another checkout (e.g. a git worktree of "
                             "an earlier commit), each level against both, in turns")
    parser.add_argument("--pin", action="store_true",
                        help="pin the relay to CPU 0 and the generators to the other CPUs")
    parser.add_argument("--profile", metavar="FILE",
                        help="run the relay under cProfile, writing its statistics to FILE")
    parser.add_argument("--anatomy", action="store_true",
                        help="run the relays under benchmarks/relay_probe.py and print where "
                             "each frame's time went (all levels together)")
    parser.add_argument("--generator", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generator:
        return generator_main(json.loads(args.generator))
    levels = [int(x) for x in args.levels.split(",")] if args.levels else (
        [100, 250, 350] if args.quick else [100, 250, 300, 350, 400, 500])
    seconds = args.seconds or (4.0 if args.quick else 8.0)
    cpus = sorted(os.sched_getaffinity(0))
    relay_pin = cpus[:1] if args.pin and len(cpus) > 1 else None
    generator_pin = cpus[1:] if relay_pin else None
    _raise_fd_limit()
    checkouts = [("this", ROOT)]
    if args.compare is not None:
        if not (args.compare / "p2pcards" / "relay").is_dir():
            print(f"--compare {args.compare}: not a p2pcards checkout", file=sys.stderr)
            return 2
        checkouts.insert(0, ("old", args.compare.resolve()))

    relays: list[Relay] = []
    busy = start_busy() if args.busy else None
    with tempfile.TemporaryFile() as this_log, tempfile.TemporaryFile() as old_log, \
            tempfile.TemporaryDirectory() as probes:
        logs = {"this": this_log, "old": old_log}
        try:
            for name, root in checkouts:
                probe = f"{probes}/{name}.json" if args.anatomy else None
                proc, port = start_relay(logs[name], relay_pin,
                                         args.profile if name == "this" else None, root, probe)
                relays.append(Relay(name, root, proc, port, logs[name]))
                if not port:
                    print(f"the relay of {root} did not start", file=sys.stderr)
                    return 1
            for relay in relays:
                print(f"{relay.name} relay: {relay.root} (pid {relay.proc.pid}, port {relay.port})")
            print(f"{len(cpus)} CPUs, {args.generators} generator processes"
                  f"{', relay pinned to one CPU' if relay_pin else ''}"
                  f"{', one busy process beside' if busy else ''}; {SEATS} seats per table, "
                  f"{args.rate:g} frames/s per peer for {seconds:g} s, 5 % of frames {LARGE} B, "
                  f"the rest {SMALL} B")
            labelled = len(relays) > 1
            print(f"{'relay ' if labelled else ''}{HEADER}")
            for number, tables in enumerate(levels):
                # in turns, so that neither relay always runs right after the other
                for relay in relays if number % 2 == 0 else relays[::-1]:
                    level = run_level(relay.port, relay.proc.pid, tables, args.rate, seconds,
                                      args.generators, generator_pin)
                    relay.levels.append(level)
                    report(level, sys.stdout, f"{relay.name:<5} " if labelled else "")
        finally:
            for relay in relays:
                relay.stop()
            if busy is not None:
                busy.kill()
                busy.wait()
        if args.anatomy:
            for relay in relays:
                print_anatomy(relay.name, Path(probes, f"{relay.name}.json"), sys.stdout)
    for relay in relays:
        passing = [level for level in relay.levels if level.passed]
        if not passing:
            print(f"{relay.name}: no level passed (p99 < {P99_LIMIT_MS:g} ms, no frame lost or "
                  "bad)")
        else:
            best = max(passing, key=lambda level: level.tables)
            print(f"{relay.name}: most tables with p99 < {P99_LIMIT_MS:g} ms and no loss: "
                  f"{best.tables} ({best.connections} connections), forwarding "
                  f"{best.forwarded_per_second:,.0f} frames/s")
        print(_target_line(relay, busy is not None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
