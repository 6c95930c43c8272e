"""The joiner's race over candidates (SPEC §11.9), with attempts that fail, hang or win on
in-memory streams and Trio's virtual clock: staggered starts, the next one at once after a
failure, losers cancelled, and the most telling failure when all fail."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from p2pcards.net.errors import HandshakeError, MatchFailure
from p2pcards.net.framed import FramedStream
from p2pcards.net.race import RELAY_DELAY, STAGGER, Claim, Reached, Way, race
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
