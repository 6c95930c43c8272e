"""A relay that flips a byte, drops or reorders a frame is caught by the tables."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import trio
from test_relay_support import Tamper, drive, room_code, running_relay

from p2pcards.offline.memory import make_tables
from p2pcards.relay import connect
from p2pcards.table import Violation
from p2pcards.wire import IdentityKey

GAME, PRESET = "briscola", "italian"
AT = 12  # the received frame tampered with (seat 1's 12th delivery, a frame of seat 0)
REORDER_AT = 9  # with these seeds seat 0 sends chain envelopes 17 and 18 (an action, then its
# tokens) back to back: seat 1's 9th and 10th deliveries, which the reordering relay swaps


def flip(batch: list[bytes], n: int, held: list[bytes]) -> list[bytes]:
    if n != AT:
        return batch
    data = bytearray(batch[0])
    data[len(data) // 2] ^= 0x01
    return [bytes(data)]


def drop(batch: list[bytes], n: int, held: list[bytes]) -> list[bytes]:
    return [] if n == AT else batch


def reorder(batch: list[bytes], n: int, held: list[bytes]) -> list[bytes]:
    if n == REORDER_AT:
        held.extend(batch)
        return []
    if n == REORDER_AT + 1:
        return batch + held
    return batch


def counting(fn: Callable[[list[bytes], int, list[bytes]], list[bytes]]) -> Tamper:
    count = [0]
    held: list[bytes] = []

    def tamper(batch: list[bytes]) -> list[bytes]:
        count[0] += 1
        return fn(batch, count[0], held)

    return tamper


@pytest.mark.parametrize(("kind", "rules"), [
    (flip, {"bad-signature"}),
    (drop, {"wrong-sequence", "stall"}),
    (reorder, {"wrong-sequence"}),
])
async def test_tampering_is_detected(kind: Callable[[list[bytes], int, list[bytes]],
                                                    list[bytes]], rules: set[str]) -> None:
    genesis, tables = make_tables(GAME, PRESET, 2, seed=7)
    caught: list[Violation] = []
    async with running_relay() as (server, port, lines):
        conns = [await connect("127.0.0.1", port, room_code(kind.__name__),
                               IdentityKey.generate()) for _ in tables]

        async def tampered() -> None:
            try:
                await drive(conns[1], tables[1], 1, GAME, tamper=counting(kind))
            except Violation as exc:
                caught.append(exc)
                nursery.cancel_scope.cancel()

        with trio.move_on_after(5):  # a stall: nobody can make progress
            async with trio.open_nursery() as nursery:
                nursery.start_soon(drive, conns[0], tables[0], 0, GAME)
                nursery.start_soon(tampered)
        for conn in conns:
            await conn.aclose()
    assert not tables[1].finished
    if caught:
        violation = caught[0]
        assert violation.rule in rules
        assert violation.index == len(tables[1].frames)  # the next chain position
        assert violation.seat in (0, None)
    else:
        assert "stall" in rules
        # the dropped envelope's sender is the one the table is still waiting for
        assert tables[1].expected is not None and tables[1].expected[0] == 0
