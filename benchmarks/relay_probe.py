"""The relay under a probe: where each forwarded frame's time goes, for ``relay.py --anatomy``.

Runs ``p2pcards relay ARGS`` (the checkout on ``PYTHONPATH``) with timing hooks wrapped around
the relay's reading and fan-out, and writes what they measured as JSON to the file named by
``P2PCARDS_RELAY_PROBE`` when the relay exits. The benchmark's frames start with their send
time (monotonic nanoseconds, one clock for every process of the machine), so each frame's life
in the relay splits into:

- ``waiting``: from the generator's send to the relay's read of the socket (the kernel, and the
  relay not being scheduled or busy with other sockets);
- ``parsed``: from that read to the frame's append to the room (framing, limits, encoding);
- ``written``: from that read to the end of the frame's fan-out (every caught-up member's
  socket written).

Besides, per pass of Trio's run loop, the time spent running tasks (``batch``) and the number
of task steps, and every garbage collector pass (``gc``, by generation; ``gc_forwarding``: the
passes of any generation within 0.1 s of a frame read, that is while frames flow rather than
while the connections are made). Wall times in ms.

    P2PCARDS_RELAY_PROBE=out.json python benchmarks/relay_probe.py relay --listen ...
"""

from __future__ import annotations

import gc
import json
import os
import struct
import sys
import time
from array import array
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from p2pcards.cli import main
from p2pcards.relay import server as relay_server
from p2pcards.relay.rooms import Room, RoomRegistry

_SENT = struct.Struct(">q")
SAMPLES: dict[str, array[float]] = {name: array("d") for name in (
    "waiting", "parsed", "written", "batch", "steps", "gc0", "gc1", "gc2", "gc_forwarding")}
_last_read_ns = [0]
_append_ns = [0]


def _probe_reads() -> None:
    """Time each read: where the relay has an intake (relay/intake.py), at the start of
    feeding it a read's bytes; before it, at the end of the reader's receive."""
    try:
        from p2pcards.relay.intake import Intake
    except ImportError:
        _probe_own_reads()
        return
    original = Intake.feed

    def feed(self: Intake, data: bytes, now: float) -> float:
        _last_read_ns[0] = time.monotonic_ns()
        return original(self, data, now)

    Intake.feed = feed  # type: ignore[method-assign]


def _probe_own_reads() -> None:
    original = relay_server._raw_receiver

    def raw_receiver(stream: trio.SocketStream) -> Callable[[int], Awaitable[bytes]]:
        receive = original(stream)

        async def timed(max_bytes: int) -> bytes:
            data = await receive(max_bytes)
            _last_read_ns[0] = time.monotonic_ns()
            return data

        return timed

    relay_server._raw_receiver = raw_receiver  # type: ignore[assignment]


def _probe_appends() -> None:
    original = RoomRegistry.append

    def append(self: RoomRegistry, room: Room, slot: int, payload: bytes) -> int:
        now = time.monotonic_ns()
        read = _last_read_ns[0]
        if len(payload) >= _SENT.size:
            (sent,) = _SENT.unpack_from(payload)
            if 0 < read - sent < 60e9:
                SAMPLES["waiting"].append((read - sent) / 1e6)
        SAMPLES["parsed"].append((now - read) / 1e6)
        _append_ns[0] = read
        return original(self, room, slot, payload)

    RoomRegistry.append = append  # type: ignore[method-assign]


def _probe_fan_out() -> None:
    original = relay_server.RelayServer._fan_out

    def fan_out(self: relay_server.RelayServer, room: Room, index: int, sender: int) -> None:
        original(self, room, index, sender)
        SAMPLES["written"].append((time.monotonic_ns() - _append_ns[0]) / 1e6)

    relay_server.RelayServer._fan_out = fan_out  # type: ignore[method-assign]


class _Loop(trio.abc.Instrument):
    """Times each pass of the run loop from the end of one I/O wait to the start of the next."""

    def __init__(self) -> None:
        self.woke = 0.0
        self.steps = 0

    def after_io_wait(self, timeout: float) -> None:
        self.woke = time.perf_counter()
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self.steps += 1

    def before_io_wait(self, timeout: float) -> None:
        if self.woke and self.steps:
            SAMPLES["batch"].append((time.perf_counter() - self.woke) * 1e3)
            SAMPLES["steps"].append(self.steps)


def _probe_loop() -> None:
    original = relay_server.RelayServer.serve

    async def serve(self: relay_server.RelayServer, *args: Any, **kwargs: Any) -> None:
        trio.lowlevel.add_instrument(_Loop())
        await original(self, *args, **kwargs)

    relay_server.RelayServer.serve = serve  # type: ignore[method-assign]


def _probe_gc() -> None:
    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        pause = (time.perf_counter() - started[0]) * 1e3
        SAMPLES[f"gc{info['generation']}"].append(pause)
        if time.monotonic_ns() - _last_read_ns[0] < 100_000_000:
            SAMPLES["gc_forwarding"].append(pause)

    gc.callbacks.append(callback)


def run(argv: list[str]) -> int:
    _probe_reads()
    _probe_appends()
    _probe_fan_out()
    _probe_loop()
    _probe_gc()
    try:
        return main(argv)
    finally:
        with open(os.environ["P2PCARDS_RELAY_PROBE"], "w") as out:
            json.dump({name: list(values) for name, values in SAMPLES.items()}, out)


if __name__ == "__main__":
    raise SystemExit(run(sys.argv[1:]))
