"""Re-entry's signed ``resume`` (SPEC §11.7.2, §11.7.3): sans-IO checks of the bond that a
proven connection leaves to both sides, and the sessions that use it over in-memory streams.

A ``resume`` is the other side's word on how far its chain goes; it decides whom a mismatch
blames, so it is signed on both challenges of the connection that carries it. Nobody on the path
can alter it or bring one from another connection, and a ``resume`` the other side's key did not
sign ends the match blaming nobody."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing
from hypothesis import given
from hypothesis import strategies as st
from test_resume_session import PATIENCE, Table2, proven

from p2pcards.net.comeback import Door, dialler
from p2pcards.net.errors import EXIT_NETWORK, EXIT_VIOLATION, MatchFailure
from p2pcards.net.framed import FrameChannel, FramedStream
from p2pcards.net.nursery import one_failure
from p2pcards.net.session import Absent, Link, Reentry, Session, seat_label
from p2pcards.seating.errors import HandshakeError
from p2pcards.seating.reentry import Bond, HostReentry, Refused, Resume, SeatReentry, Unproven
from p2pcards.wire import ZERO_HASH, codec
from p2pcards.wire.identity import PublicIdentity

TABLE = Table2()
HOST_BOND, SEAT_BOND = proven(TABLE, 1)
HEAD = bytes(range(32))


def test_each_side_takes_the_other_side_s_resume_as_signed() -> None:
    assert SEAT_BOND.check_resume(HOST_BOND.resume(7, HEAD)) == Resume(7, HEAD)
    assert HOST_BOND.check_resume(SEAT_BOND.resume(0, ZERO_HASH)) == Resume(0, ZERO_HASH)


def test_a_side_does_not_take_its_own_resume_back() -> None:
    """The host's and the seat's ``resume`` are signed by different keys as different
    signers: one reflected back to its sender is not the other side's word."""
    with pytest.raises(Unproven, match="did not sign on this connection"):
        HOST_BOND.check_resume(HOST_BOND.resume(7, HEAD))
    with pytest.raises(Unproven, match="did not sign on this connection"):
        SEAT_BOND.check_resume(SEAT_BOND.resume(7, HEAD))


def test_a_resume_from_another_connection_is_not_taken() -> None:
    """Fresh challenges on each connection: a ``resume`` recorded on one, replayed on another
    of the same seat, does not verify."""
    other_host, other_seat = proven(TABLE, 1)
    with pytest.raises(Unproven, match="did not sign on this connection"):
        SEAT_BOND.check_resume(other_host.resume(7, HEAD))
    with pytest.raises(Unproven, match="did not sign on this connection"):
        HOST_BOND.check_resume(other_seat.resume(7, HEAD))


@given(count=st.integers(0, 10_000), head=st.binary(min_size=32, max_size=32),
       new_count=st.integers(0, 10_000), new_head=st.binary(min_size=32, max_size=32))
def test_any_change_to_a_signed_resume_is_found(count: int, head: bytes, new_count: int,
                                               new_head: bytes) -> None:
    signed = HOST_BOND.resume(count, head)
    changed = dict(signed, count=new_count, head=new_head)
    if (new_count, new_head) == (count, head):
        assert SEAT_BOND.check_resume(changed) == Resume(count, head)
    else:
        with pytest.raises(Unproven):
            SEAT_BOND.check_resume(changed)


@pytest.mark.parametrize("message", [
    {"type": "resume", "count": 3, "head": HEAD},
    {"type": "resume", "count": 3, "head": HEAD, "proof": b"x" * 64, "more": 1},
    {"type": "resume", "count": -1, "head": HEAD, "proof": b"x" * 64},
    {"type": "resume", "count": 3, "head": HEAD[:31], "proof": b"x" * 64},
    {"type": "resume", "count": "3", "head": HEAD, "proof": b"x" * 64},
    {"type": "resume", "count": 3, "head": HEAD, "proof": "signature"},
    {"type": "envelope", "data": b"x"},
])
def test_a_malformed_resume_is_unproven_with_one_sentence(message: dict[str, Any]) -> None:
    with pytest.raises(Unproven) as caught:
        SEAT_BOND.check_resume(message)
    assert "\n" not in str(caught.value)


def test_an_abort_on_a_proven_connection_is_taken_only_as_signed_there() -> None:
    assert SEAT_BOND.check_abort(HOST_BOND.abort("enough")) == "enough"
    assert HOST_BOND.check_abort(SEAT_BOND.abort("enough")) == "enough"
    other_host, _ = proven(TABLE, 1)
    for forged in ({"type": "abort", "reason": "enough"}, dict(HOST_BOND.abort("enough"),
                                                               reason="seat 2 cheated"),
                   other_host.abort("enough"), SEAT_BOND.abort("enough")):
        with pytest.raises(Unproven, match=r"^an 'abort' arrived that the key .* did not sign "
                                           r"on this connection \(it said: "):
            SEAT_BOND.check_abort(forged)


# --------------------------------------------------------------------- sessions


async def _hub_ending(hub: Session) -> MatchFailure:
    with pytest.raises(MatchFailure) as failure, one_failure():
        await hub.run()
    return failure.value


async def _resumed_hub(t: Table2, bond: Bond, answer: dict[str, Any]) -> tuple[MatchFailure,
                                                                                dict[str, Any]]:
    """A hub whose seat 1 comes back through its door on ``bond``'s connection and answers
    with ``answer``: the hub's failure and the ``resume`` it sent."""
    hub = Session(t.genesis, [t.seat(0)], [Link(Absent(seat_label(t.genesis, 1)),
                                                 frozenset({1}))],
                  forward=True, reentry=Reentry(PATIENCE))
    here, there = trio.testing.memory_stream_pair()
    seat_end = FramedStream(there, label="the host")
    sent: list[dict[str, Any]] = []
    failure: list[MatchFailure] = []

    async def host() -> None:
        failure.append(await _hub_ending(hub))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host)
        await hub.rejoin(bond, FramedStream(here, label="a joiner from 127.0.0.1:53296"))
        while True:
            message = await seat_end.receive_message()
            assert message is not None
            if message["type"] == "resume":
                sent.append(message)
                break
        await seat_end.send_message(answer)
        while await seat_end.receive_message() is not None:
            pass
    return failure[0], sent[0]


def key_of(t: Table2, seat: int) -> str:
    """The fingerprint of ``seat``'s genesis key."""
    return PublicIdentity(t.genesis.seats[seat].identity).fingerprint


async def test_a_resume_the_seat_did_not_sign_ends_the_match_blaming_nobody() -> None:
    t = Table2()
    at_host, at_seat = proven(t, 1)
    honest = at_seat.resume(0, ZERO_HASH)
    failure, sent = await _resumed_hub(t, at_host, dict(honest, head=HEAD))
    assert at_seat.check_resume(sent).count >= 0  # the hub's own resume is signed
    assert failure.status == EXIT_NETWORK
    label = seat_label(t.genesis, 1)
    assert str(failure) == (
        f"the connection to {label} was tampered with: a 'resume' arrived that the key "
        f"{key_of(t, 1)} of seat 1 did not sign on this connection; its seat is not blamed, "
        "and the match ends")
    assert "127.0.0.1" not in str(failure)


async def test_an_abort_the_seat_did_not_sign_ends_the_match_blaming_nobody() -> None:
    t = Table2()
    at_host, at_seat = proven(t, 1)
    failure, _ = await _resumed_hub(t, at_host, {"type": "abort",
                                                 "reason": "protocol violation: seat 0 cheated"})
    label = seat_label(t.genesis, 1)
    assert failure.status == EXIT_NETWORK
    assert str(failure) == (
        f"the connection to {label} was tampered with: an 'abort' arrived that the key "
        f"{key_of(t, 1)} of seat 1 did not sign on this connection (it said: "
        "protocol violation: seat 0 cheated); its seat is not blamed, and the match ends")


async def test_a_signed_abort_is_the_seat_s_word() -> None:
    t = Table2()
    at_host, at_seat = proven(t, 1)
    failure, _ = await _resumed_hub(t, at_host, at_seat.abort("I have to go"))
    assert str(failure) == f"{seat_label(t.genesis, 1)} aborted the match: I have to go"


async def test_a_signed_resume_with_another_chain_names_the_proven_seat() -> None:
    """The seat signed a head the hub does not hold: a protocol violation, named by the seat's
    label and fingerprint (not the address its new connection came from)."""
    t = Table2()
    at_host, at_seat = proven(t, 1)
    failure, _ = await _resumed_hub(t, at_host, at_seat.resume(1, HEAD))
    assert failure.status == EXIT_VIOLATION
    assert str(failure) == (
        f"protocol violation: {seat_label(t.genesis, 1)} came back with a chain of 1 "
        f"envelopes whose last one ({HEAD[:8].hex()}...) is not the envelope this peer holds "
        "at that place (its 'resume' signed on this connection says so)")


async def test_of_two_proven_connections_of_one_seat_the_later_takes_over() -> None:
    """Two rejoins of seat 1 handed to the hub before it handles either: the first connection
    is closed; the second is caught up and named by its seat.
    (A second connection was once dropped without a word: its process waited on a syncing link
    and at last blamed another seat's timeout.)"""
    t = Table2()
    hub = Session(t.genesis, [t.seat(0)], [Link(Absent(seat_label(t.genesis, 1)),
                                                 frozenset({1}))],
                  forward=True, reentry=Reentry(PATIENCE))
    ends: list[tuple[FramedStream, Bond]] = []
    for _ in range(2):
        at_host, at_seat = proven(t, 1)
        here, there = trio.testing.memory_stream_pair()
        await hub.rejoin(at_host, FramedStream(here, label="a joiner from 127.0.0.1:53296"))
        ends.append((FramedStream(there, label="the host"), at_seat))
    failure: list[MatchFailure] = []

    async def host() -> None:
        failure.append(await _hub_ending(hub))

    with trio.fail_after(60):  # a hang guard: a dropped connection never hears anything
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host)
            await _take_over(*ends[0], *ends[1])
    assert str(failure[0]) == f"{seat_label(t.genesis, 1)} aborted the match: enough"


async def _take_over(first: FramedStream, first_bond: Bond, second: FramedStream,
                     second_bond: Bond) -> None:
    """The first connection ends (after the hub's signed resume, if it was sent in time); the
    second gets the hub's signed resume and aborts."""
    while (message := await first.receive_message()) is not None:
        if message["type"] == "resume":
            first_bond.check_resume(message)
    while True:
        message = await second.receive_message()
        assert message is not None
        if message["type"] == "resume":
            second_bond.check_resume(message)
            break
    await second.send_message(second_bond.abort("enough"))
    while await second.receive_message() is not None:
        pass


async def test_a_joiner_whose_new_connection_never_catches_up_blames_no_seat() -> None:
    """The host proves its key on the new connection, then sends keepalives and nothing else:
    the joiner ends the match in the connection's name when the return wait runs out, never
    with another seat's timeout."""
    t = Table2(3)
    patience = 1.0

    async def reconnect() -> tuple[FramedStream, Bond]:
        at_host, at_seat = proven(t, 1)
        here, there = trio.testing.memory_stream_pair()
        host_end = FramedStream(here, label="seat 1")
        nursery.start_soon(keep_alive_only, host_end)
        return FramedStream(there, label="the host"), at_seat

    async def keep_alive_only(host_end: FramedStream) -> None:
        with trio.move_on_after(30):
            while True:
                await host_end.send_message({"type": "alive"})
                await trio.sleep(0.2)

    joiner = Session(t.genesis, [t.seat(1)], [Link(Absent("the host"), frozenset({0, 2}))],
                     forward=False, grace=0.0, reentry=Reentry(patience, reconnect),
                     replay=[])
    with pytest.raises(MatchFailure) as failure, one_failure():
        async with trio.open_nursery() as nursery:
            await joiner.run()
            nursery.cancel_scope.cancel()
    assert str(failure.value) == ("the host came back on a new connection but did not catch "
                                  "up within 1 seconds")


# --------------------------------------------------------------------- refusals


def _asked(t: Table2, seat: int) -> tuple[HostReentry, SeatReentry, dict[str, Any]]:
    """A host that may take back no seat, and the refusal it signs for ``seat``'s rejoin."""
    host = HostReentry(t.genesis, t.secrets[0].identity, ())
    joiner = SeatReentry(t.genesis, seat, t.secrets[seat].identity)
    with pytest.raises(HandshakeError) as caught:
        host.receive(joiner.hello())
    return host, joiner, host.refusal(str(caught.value))


def test_a_refusal_signed_by_the_host_on_this_rejoin_is_its_word() -> None:
    _, joiner, refusal = _asked(TABLE, 1)
    assert set(refusal) == {"type", "reason", "proof"}
    with pytest.raises(Refused, match="^the host refused: seat 1 is not a seat that can come "
                                      "back to this table$"):
        joiner.receive(refusal)


@pytest.mark.parametrize("change", ["reason", "unsigned", "another rejoin", "malformed"])
def test_a_refusal_the_host_did_not_sign_here_is_only_a_failed_attempt(change: str) -> None:
    _, joiner, refusal = _asked(TABLE, 1)
    if change == "reason":
        refusal = dict(refusal, reason="the host gives up this match")
    elif change == "unsigned":
        refusal = {"type": "refused", "reason": refusal["reason"]}
    elif change == "another rejoin":
        joiner = _asked(TABLE, 1)[1]  # the same seat, another challenge
    else:
        refusal = dict(refusal, proof="signature")
    with pytest.raises(HandshakeError) as caught:
        joiner.receive(refusal)
    assert not isinstance(caught.value, Refused)
    assert "did not sign" in str(caught.value) and "tries again" in str(caught.value)


def test_a_rejoin_too_malformed_to_bind_is_refused_unsigned() -> None:
    host = HostReentry(TABLE.genesis, TABLE.secrets[0].identity, {1})
    with pytest.raises(HandshakeError):
        host.receive({"type": "rejoin", "version": 1, "table": TABLE.genesis.table_id,
                      "seat": 1, "challenge": b"short"})
    assert host.refusal("no") == {"type": "refused", "reason": "no"}


async def test_the_dialler_tries_again_after_a_forged_refusal_and_stops_at_a_signed_one(
        ) -> None:
    """The first connection answers with a refusal nobody signed (a party on the path), which
    is told once and tried past; the second reaches the host's door, which signs its refusal
    (no seat may come back to it), and that ends the attempts with the host's reason."""
    t = Table2()
    door = Door(t.genesis, t.secrets[0].identity)
    hub = Session(t.genesis, [t.seat(0)], [Link(Absent("seat 1"), frozenset({1}))],
                  forward=True, reentry=Reentry(PATIENCE))
    door.open(t.genesis, (), hub)
    attempts: list[int] = []
    notices: list[str] = []

    async def forger(framed: FramedStream) -> None:
        await framed.receive_message()
        await framed.send_message({"type": "refused", "reason": "the host gives up"})
        await framed.aclose()

    async def connect() -> FrameChannel:
        here, there = trio.testing.memory_stream_pair()
        serve = forger if not attempts else door.welcome
        attempts.append(1)
        nursery.start_soon(serve, FramedStream(here, label="a joiner"))
        return FramedStream(there, label="the host")

    reconnect = dialler(t.genesis, 1, t.secrets[1].identity, connect, notice=notices.append)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            with pytest.raises(MatchFailure) as failure:
                await reconnect()
    assert str(failure.value) == ("the host would not take this seat back: the host refused: "
                                  "seat 1 is not a seat that can come back to this table")
    assert len(attempts) == 2
    assert len(notices) == 1 and notices[0].endswith("(it proves nothing, so this seat tries "
                                                      "again): the host gives up"), notices


# --------------------------------------------------------------------- the SPEC's statements


def test_each_signature_is_over_the_statement_spec_11_7_gives_byte_for_byte() -> None:
    """The statements are built here from SPEC §11.7.2/§11.7.3 as written, with fixed
    challenges; the bond's and the host's signatures must verify over exactly those bytes."""
    t = TABLE
    table_id, seat = t.genesis.table_id, 1
    host_challenge, seat_challenge = bytes([1]) * 32, bytes([2]) * 32
    host_key = PublicIdentity(t.genesis.seats[0].identity)
    seat_key = PublicIdentity(t.genesis.seats[seat].identity)
    at_host = Bond(t.genesis, seat, host_challenge, seat_challenge, t.secrets[0].identity,
                   at_host=True)
    at_seat = Bond(t.genesis, seat, host_challenge, seat_challenge, t.secrets[seat].identity,
                   at_host=False)
    for bond, key, signer in ((at_host, host_key, 0), (at_seat, seat_key, seat)):
        resume = bond.resume(5, HEAD)
        assert key.verify(resume["proof"], codec.pack([
            "p2pcards/reentry/resume/v1", table_id, seat, signer, host_challenge,
            seat_challenge, 5, HEAD]))
        abort = bond.abort("enough")
        assert key.verify(abort["proof"], codec.pack([
            "p2pcards/reentry/abort/v1", table_id, seat, signer, host_challenge,
            seat_challenge, "enough"]))
    host = HostReentry(t.genesis, t.secrets[0].identity, ())
    with pytest.raises(HandshakeError) as caught:
        host.receive({"type": "rejoin", "version": 1, "table": table_id, "seat": seat,
                      "challenge": seat_challenge})
    refusal = host.refusal(str(caught.value))
    assert host_key.verify(refusal["proof"], codec.pack([
        "p2pcards/reentry/refused/v1", table_id, seat, seat_challenge, str(caught.value)]))
