"""The session's side of forks and evidence, in memory: a real :class:`Session` (seat 2 of a
3-seat table) on one end of a memory stream, and on the other a hub driven by the test that runs
seats 0 and 1 with real tables and alters what it shows seat 2."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from attacks import cycle_of, identity_of, keys_of

from p2pcards.crypto import SystemRandomness
from p2pcards.net.errors import MatchFailure
from p2pcards.net.framed import FramedStream
from p2pcards.net.seats import bot_player
from p2pcards.net.session import Link, LocalSeat, Session
from p2pcards.offline.memory import make_tables
from p2pcards.records.transcript import TranscriptWriter, read_transcript
from p2pcards.table import Table
from p2pcards.verify import verify_transcript
from p2pcards.wire import Payload, codec, envelope_hash, open_envelope, seal


def other_key_version(table: Table, data: bytes) -> bytes:
    """Seat ``table.seat``'s key envelope ``data`` with a fresh proof of the same key."""
    _, payload = open_envelope(data, keys_of(table.genesis))
    key = cycle_of(table).my_key
    assert key is not None
    context = cycle_of(table).ctx(payload.seat, "key")
    body = {"share": key.share(context, SystemRandomness()).to_wire()}
    forged = Payload(payload.table_id, payload.seq, payload.prev, payload.seat, payload.kind,
                     body)
    return seal(forged, identity_of(table)).encode()


async def run_against_hub(tmp_path: Path, answer: bool, step: int = 60
                          ) -> tuple[MatchFailure, Path, list[dict[str, Any]]]:
    """Seat 2's session against a hub that shows it another version of seat 0's key envelope;
    the hub answers the probe from seat 0's chain when ``answer``. Returns the session's
    failure, its transcript and every message the hub received after the fork. The session
    waits ``step`` seconds for an answer (its genesis timeouts; the tables keep theirs)."""
    genesis, tables = make_tables("briscola", "italian", 3, seed=5)
    waits = dataclasses.replace(genesis, timeouts={"step": step, "action": 60})
    hub_end, seat_end = trio.testing.memory_stream_pair()
    hub = FramedStream(hub_end, label="seat 2")
    writer = TranscriptWriter.create(tmp_path / "seat2.p2pt", genesis.encode(), fsync=False)
    session = Session(waits, [LocalSeat.of(tables[2], bot_player("briscola", 2, 5))],
                      [Link(FramedStream(seat_end, label="the hub"), frozenset({0, 1}))],
                      forward=False, writer=writer)
    failure: list[MatchFailure] = []
    after: list[dict[str, Any]] = []

    async def seat() -> None:
        try:
            await session.run()
        except MatchFailure as exc:
            failure.append(exc)
        finally:
            writer.close()

    async def drive() -> None:
        queue = [(i, data) for i in (0, 1) for data in tables[i].start().outgoing]
        altered = forked = False
        while not forked:
            while queue and not forked:
                sender, data = queue.pop(0)
                other = 1 - sender
                queue.extend((other, out) for out in tables[other].receive(data).outgoing)
                payload = open_envelope(data, keys_of(tables[0].genesis))[1]
                if sender == 0 and payload.kind == "key" and not altered:
                    altered = True
                    data = other_key_version(tables[0], data)
                await hub.send_message({"type": "envelope", "data": data})
                forked = sender == 1 and payload.kind == "key"
            if forked:
                break
            message = await next_message(hub)  # seat 2 must speak
            assert message is not None and message["type"] == "envelope"
            for i in (0, 1):
                queue.extend((i, out) for out in tables[i].receive(message["data"]).outgoing)
        while True:
            message = await next_message(hub)
            if message is None:
                return
            after.append(message)
            if message["type"] == "need" and answer:
                position = tables[0].chain.position_of(message["hash"])
                data = None if position is None else tables[0].frames[position]
                await hub.send_message({"type": "have", "hash": message["hash"], "data": data})

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(seat)
            nursery.start_soon(drive)
    assert failure
    return failure[0], tmp_path / "seat2.p2pt", after


async def test_a_settled_fork_names_the_equivocator_and_keeps_both_records(
        tmp_path: Path) -> None:
    failure, path, after = await run_against_hub(tmp_path, answer=True)
    assert failure.status == 1
    assert "seat0 is proven at fault (equivocation)" in str(failure)  # seat 0 by its name
    assert "seat 1" not in str(failure).split("(equivocation)")[0]
    assert [m["type"] for m in after] == ["need", "abort"]
    found = read_transcript(path)
    assert len(found.evidence) == 2
    report = verify_transcript(path)
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat) == ("equivocation", 0)


async def test_an_unanswered_fork_names_nobody(tmp_path: Path) -> None:
    failure, path, after = await run_against_hub(tmp_path, answer=False, step=1)
    assert failure.status == 1
    assert "[fork]" in str(failure) and "the hub, seat 0 or seat 1 is at fault" in str(failure)
    assert "did not produce the envelope it linked to" in str(failure)
    assert after[0]["type"] == "need"
    report = verify_transcript(path)  # the fork record alone proves nothing: the chain decides
    assert (report.status, report.violation) == ("incomplete", None)
    assert (report.evidence[0].claimed_rule, report.evidence[0].verdict,
            report.evidence[0].suspects) == ("fork", "not-proven", (0, 1))


async def next_message(channel: FramedStream) -> dict[str, Any] | None:
    """The next message but the link-level keepalives (``alive``)."""
    while True:
        message = await channel.receive_message()
        if message is None or message["type"] != "alive":
            return message


async def test_a_peer_answers_need_from_its_chain() -> None:
    genesis, tables = make_tables("briscola", "italian", 2, seed=6)
    hub_end, seat_end = trio.testing.memory_stream_pair()
    hub = FramedStream(hub_end, label="seat 1")
    session = Session(genesis, [LocalSeat.of(tables[0], bot_player("briscola", 0, 6))],
                      [Link(FramedStream(seat_end, label="seat 1"), frozenset({1}))],
                      forward=False)
    answers: list[dict[str, Any]] = []

    async def drive() -> None:
        first = await next_message(hub)  # seat 0's accept
        assert first is not None and first["type"] == "envelope"
        digest = envelope_hash(open_envelope(first["data"], keys_of(tables[0].genesis))[0])
        for wanted in (digest, bytes(32)):
            await hub.send_message({"type": "need", "hash": wanted})
            while True:
                message = await next_message(hub)
                assert message is not None
                if message["type"] == "have":
                    answers.append(message)
                    break
        await hub.send_message({"type": "abort", "reason": "enough"})

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(drive)
            with pytest.raises(MatchFailure, match="aborted the match: enough"):
                await session.run()
    assert answers[0]["data"] == tables[0].frames[0]
    assert answers[1]["data"] is None
    assert codec.pack(answers[1])  # a well-formed message
