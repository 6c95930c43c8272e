"""The joiner's race over candidates (SPEC §11.9), with attempts that fail, hang or win on
in-memory streams and Trio's virtual clock: staggered starts, the next one at once after a
failure, losers cancelled, and the most telling failure when all fail; and the same order for
the ways back of re-entry (:func:`connect_first`: the direct address, then the relay room)."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from p2pcards.net.errors import HandshakeError, MatchFailure
from p2pcards.net.framed import FrameChannel, FramedStream
from p2pcards.net.race import (
    RELAY_DELAY,
    STAGGER,
    Claim,
    Connect,
    Reached,
    Way,
    connect_first,
    race,
)
from p2pcards.seating.candidates import Candidate
from p2pcards.seating.handshake import JoinerSeating
from p2pcards.seating.invite import Invite

INVITE = Invite("10.0.0.1", 7000, bytes(16), "JAJX-SQVL-PT7R-BAEY")
LAN = Candidate("lan", "10.0.0.1", 7000)
SIX = Candidate("ipv6", "2001:db8:1::2", 7000)
RELAY = Candidate("relay", "203.0.113.1", 7447)


def reached(candidate: Candidate) -> Reached:
    ours, _ = trio.testing.memory_stream_pair()
    offer: Any = None

    async def again() -> FramedStream:
        raise MatchFailure("not dialled in this test")
    return Reached(candidate, FramedStream(ours), JoinerSeating(INVITE), offer, again)


def winning(candidate: Candidate, log: list[tuple[str, float]], after: float = 0.0) -> Way:
    async def way(claim: Claim) -> None:
        log.append((f"start {candidate.kind}", trio.current_time()))
        await trio.sleep(after)
        mine = reached(candidate)
        if claim(mine):
            await mine.released.wait()
    return way


def failing(candidate: Candidate, error: Exception, log: list[tuple[str, float]],
            after: float = 0.0) -> Way:
    async def way(claim: Claim) -> None:
        log.append((f"start {candidate.kind}", trio.current_time()))
        await trio.sleep(after)
        raise error
    return way


def hanging(candidate: Candidate, log: list[tuple[str, float]]) -> Way:
    async def way(claim: Claim) -> None:
        log.append((f"start {candidate.kind}", trio.current_time()))
        try:
            await trio.sleep_forever()
        finally:
            log.append((f"cancelled {candidate.kind}", trio.current_time()))
    return way


async def test_a_hanging_candidate_costs_one_stagger_and_is_cancelled(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    async with trio.open_nursery() as nursery:
        start = trio.current_time()
        won = await race([(LAN, hanging(LAN, log)), (SIX, winning(SIX, log, after=0.1))],
                         nursery)
        assert won.candidate is SIX
        assert won.passed_over == [(LAN, "no answer in time")]
        await won.release()
    assert [(what, round(at - start, 3)) for what, at in log] == [
        ("start lan", 0.0), ("start ipv6", STAGGER), ("cancelled lan", STAGGER + 0.1)]


async def test_a_failed_candidate_starts_the_next_at_once_and_the_relay_waits_longer(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    async with trio.open_nursery() as nursery:
        start = trio.current_time()
        won = await race([(LAN, failing(LAN, MatchFailure("refused"), log, after=0.05)),
                          (SIX, hanging(SIX, log)), (RELAY, winning(RELAY, log))], nursery)
        assert won.candidate is RELAY
        assert won.passed_over == [(LAN, "refused"), (SIX, "no answer in time")]
        await won.release()
    starts = [(what, round(at - start, 3)) for what, at in log if what.startswith("start")]
    assert starts == [("start lan", 0.0), ("start ipv6", 0.05),
                      ("start relay", 0.05 + RELAY_DELAY)]


@pytest.mark.parametrize(("errors", "told"), [
    ([MatchFailure("could not connect"), HandshakeError("wrong key"),
      MatchFailure("nobody is hosting")], "wrong key"),
    ([MatchFailure("could not connect"), MatchFailure("timed out"),
      MatchFailure("nobody is hosting")], "nobody is hosting"),
    ([MatchFailure("could not connect"), MatchFailure("timed out")], "could not connect"),
])
async def test_when_all_fail_the_most_telling_failure_is_raised(
        autojump_clock: trio.testing.MockClock, errors: list[Exception], told: str) -> None:
    log: list[tuple[str, float]] = []
    candidates = [LAN, SIX, RELAY][:len(errors)]
    ways = [(c, failing(c, e, log, after=0.01)) for c, e in zip(candidates, errors, strict=True)]
    async with trio.open_nursery() as nursery:
        with pytest.raises(MatchFailure, match=told):
            await race(ways, nursery)


async def test_of_two_claims_at_one_moment_only_the_first_wins(
        autojump_clock: trio.testing.MockClock) -> None:
    claims: list[tuple[Candidate, bool]] = []

    def claiming_at(moment: float, candidate: Candidate) -> Way:
        async def way(claim: Claim) -> None:
            with trio.CancelScope(shield=True):  # claims even when cancelled meanwhile
                await trio.sleep_until(moment)
            mine = reached(candidate)
            claims.append((candidate, claim(mine)))
            if claims[-1][1]:
                await mine.released.wait()
            else:
                await mine.decline()
        return way

    async with trio.open_nursery() as nursery:
        moment = trio.current_time() + 0.3  # both attempts are under way by then
        won = await race([(LAN, claiming_at(moment, LAN)), (SIX, claiming_at(moment, SIX))],
                         nursery, stagger=0.1)
        await won.release()
    assert [ok for _, ok in claims] == [True, False]
    assert won.candidate is claims[0][0]


class Dialled(FramedStream):
    """An in-memory connection that remembers being closed."""

    def __init__(self, name: str) -> None:
        super().__init__(trio.testing.memory_stream_pair()[0], label=name)
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True
        await super().aclose()


def dialling(name: str, log: list[tuple[str, float]], *, after: float = 0.0,
             error: str | None = None, made: list[Dialled] | None = None) -> Connect:
    """A way back that connects (or fails with ``error``) ``after`` seconds, logging when it
    starts, ends and is cancelled."""
    async def connect() -> FrameChannel:
        log.append((f"start {name}", trio.current_time()))
        try:
            await trio.sleep(after)
        except trio.Cancelled:
            log.append((f"cancelled {name}", trio.current_time()))
            raise
        if error is not None:
            raise MatchFailure(error)
        channel = Dialled(name)
        if made is not None:
            made.append(channel)
        return channel
    return connect


async def test_a_cut_direct_address_costs_the_relay_delay_and_is_cancelled(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    start = trio.current_time()
    channel = await connect_first([dialling("direct", log, after=15.0),
                                   dialling("relay", log, after=0.2)])
    assert channel.label == "relay"
    assert [(what, round(at - start, 3)) for what, at in log] == [
        ("start direct", 0.0), ("start relay", RELAY_DELAY),
        ("cancelled direct", RELAY_DELAY + 0.2)]


async def test_a_refused_direct_address_starts_the_relay_at_once(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    start = trio.current_time()
    channel = await connect_first([dialling("direct", log, after=0.05, error="refused"),
                                   dialling("relay", log)])
    assert channel.label == "relay"
    assert [(what, round(at - start, 3)) for what, at in log] == [
        ("start direct", 0.0), ("start relay", 0.05)]


async def test_a_live_direct_address_wins_before_the_relay_starts(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    channel = await connect_first([dialling("direct", log, after=0.1),
                                   dialling("relay", log)])
    assert channel.label == "direct"
    assert [what for what, _ in log] == ["start direct"]


async def test_of_two_ways_that_both_connect_the_second_to_return_is_closed(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    made: list[Dialled] = []

    def both_at(moment: float, name: str) -> Connect:
        async def connect() -> FrameChannel:
            with trio.CancelScope(shield=True):  # connects even when cancelled meanwhile
                await trio.sleep_until(moment)
            channel = Dialled(name)
            made.append(channel)
            return channel
        return connect

    moment = trio.current_time() + 1.0  # both under way by then
    channel = await connect_first([both_at(moment, "direct"), both_at(moment, "relay")])
    assert sorted(c.label for c in made) == ["direct", "relay"]
    assert channel is made[0] and not made[0].closed and made[1].closed
    assert log == []


async def test_when_every_way_back_fails_the_first_failure_is_raised(
        autojump_clock: trio.testing.MockClock) -> None:
    log: list[tuple[str, float]] = []
    with pytest.raises(MatchFailure, match="could not connect to the host"):
        await connect_first([dialling("direct", log, error="could not connect to the host"),
                             dialling("relay", log, after=1.0, error="nobody is hosting")])
