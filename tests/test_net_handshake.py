"""The seating handshake and the genesis checks, over trio.testing.memory_stream_pair."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import trio
import trio.testing

from p2pcards.genesis import SeatInfo
from p2pcards.local import SeatSecrets, make_genesis, new_seat
from p2pcards.net.errors import HandshakeError
from p2pcards.net.framed import FramedStream
from p2pcards.net.handshake import (
    HostWelcome,
    SeatedJoiner,
    TableOffer,
    confirm_seat,
    join_table,
    receive_genesis,
    seat_joiner,
    send_genesis,
)
from p2pcards.net.invite import Invite, InviteError
from p2pcards.wire.identity import IdentityKey

NONCE = bytes(range(16))
OFFER = TableOffer(NONCE, "briscola", "classic", 3)


def invite_for(key: IdentityKey, nonce: bytes = NONCE) -> Invite:
    return Invite("127.0.0.1", 7000, nonce, key.public.fingerprint)


async def handshake(invite: Invite, host_key: IdentityKey, joiner: SeatSecrets,
                    taken: frozenset[bytes] = frozenset()) -> tuple[Any, Any]:
    """Both sides over a memory stream pair; returns (joiner outcome, host outcome)."""
    left, right = trio.testing.memory_stream_pair()
    j_stream = FramedStream(left, label="the host")
    h_stream = FramedStream(right, label="a joiner")
    out: dict[str, Any] = {}

    async def joiner_side() -> None:
        try:
            out["joiner"] = await join_table(j_stream, invite, lambda seat: (joiner, "ann"),
                                             bot=True)
        except HandshakeError as exc:
            out["joiner"] = exc
        await j_stream.aclose()

    async def host_side() -> None:
        try:
            seated = await seat_joiner(h_stream, OFFER, host_key, 1,
                                       {host_key.public.to_bytes(), *taken})
            await confirm_seat(h_stream, 1, 1)
            out["host"] = seated
        except HandshakeError as exc:
            out["host"] = exc

    async with trio.open_nursery() as nursery:
        nursery.start_soon(joiner_side)
        nursery.start_soon(host_side)
    return out["joiner"], out["host"]


async def test_both_sides_prove_their_keys_and_agree_on_the_seat() -> None:
    host_key = IdentityKey.generate()
    joiner = new_seat()
    (welcome, secrets, info), seated = await handshake(invite_for(host_key), host_key, joiner)
    assert welcome == HostWelcome(1, host_key.public, "briscola", "classic", 3)
    assert secrets is joiner and info == joiner.info("ann")
    assert seated == SeatedJoiner(1, joiner.info("ann"), True)


async def test_wrong_or_stale_nonce_is_refused_with_a_clear_message() -> None:
    host_key = IdentityKey.generate()
    joiner_error, host_error = await handshake(invite_for(host_key, bytes(16)), host_key,
                                               new_seat())
    assert isinstance(joiner_error, HandshakeError)
    assert "not hosting the table of that invite" in str(joiner_error)
    assert "wrong or stale" in str(joiner_error)
    assert isinstance(host_error, HandshakeError) and "wrong or stale invite" in str(host_error)


async def test_a_host_without_the_invite_key_is_not_trusted() -> None:
    host_key, other = IdentityKey.generate(), IdentityKey.generate()
    joiner_error, _ = await handshake(invite_for(other), host_key, new_seat())
    assert isinstance(joiner_error, HandshakeError)
    assert f"not the invite's {other.public.fingerprint}" in str(joiner_error)


async def test_an_identity_already_seated_is_refused() -> None:
    host_key = IdentityKey.generate()
    joiner = new_seat()
    joiner_error, host_error = await handshake(invite_for(host_key), host_key, joiner,
                                               frozenset({joiner.identity.public.to_bytes()}))
    assert "already has a seat" in str(joiner_error)
    assert "already seated" in str(host_error)


async def test_a_forged_host_proof_is_detected() -> None:
    host_key = IdentityKey.generate()
    left, right = trio.testing.memory_stream_pair()
    joiner = FramedStream(left, label="the host")
    fake = FramedStream(right)

    async def fake_host() -> None:
        await fake.receive_message()
        await fake.send_message({"type": "challenge", "identity": host_key.public.to_bytes(),
                                 "proof": bytes(64), "challenge": bytes(32), "seat": 1,
                                 "game": "scopa", "preset": "classic", "players": 2})

    async with trio.open_nursery() as nursery:
        nursery.start_soon(fake_host)
        with pytest.raises(HandshakeError, match="did not prove it holds the key"):
            await join_table(joiner, invite_for(host_key), lambda s: (new_seat(), "x"))


async def test_a_forged_joiner_proof_is_refused() -> None:
    host_key = IdentityKey.generate()
    left, right = trio.testing.memory_stream_pair()
    host = FramedStream(right, label="a joiner")
    fake = FramedStream(left)
    seat = new_seat()

    async def fake_joiner() -> None:
        await fake.send_message({"type": "hello", "version": 1, "nonce": NONCE,
                                 "challenge": bytes(32), "bot": False})
        await fake.receive_message()
        info = seat.info("eve").to_wire()
        await fake.send_message({"type": "join", **info, "proof": bytes(64)})
        assert (await fake.receive_message() or {})["type"] == "refused"

    async with trio.open_nursery() as nursery:
        nursery.start_soon(fake_joiner)
        with pytest.raises(HandshakeError, match="did not prove it holds the key"):
            await seat_joiner(host, OFFER, host_key, 1, set())


async def genesis_exchange(genesis_seats: list[SeatInfo], welcome: HostWelcome,
                           mine: SeatInfo) -> Any:
    left, right = trio.testing.memory_stream_pair()
    genesis = make_genesis("briscola", "classic", genesis_seats)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(send_genesis, FramedStream(right), genesis, [2])
        try:
            return await receive_genesis(FramedStream(left, label="the host"), welcome, mine)
        except HandshakeError as exc:
            return exc


async def test_the_joiner_checks_its_seat_entry_and_the_game_in_the_genesis() -> None:
    host, me, bot = new_seat(), new_seat(), new_seat()
    seats = [host.info("h"), me.info("me"), bot.info("b")]
    welcome = HostWelcome(1, host.identity.public, "briscola", "classic", 3)
    genesis, bots = await genesis_exchange(seats, welcome, me.info("me"))
    assert genesis.seats == tuple(seats) and bots == frozenset({2})

    swapped = await genesis_exchange([host.info("h"), new_seat().info("me"), bot.info("b")],
                                     welcome, me.info("me"))
    assert isinstance(swapped, HandshakeError) and "seat 1 is not the seat we asked" in str(swapped)
    other_game = dataclasses.replace(welcome, game="scopa")
    wrong = await genesis_exchange(seats, other_game, me.info("me"))
    assert isinstance(wrong, HandshakeError) and "not the scopa/classic announced" in str(wrong)
    not_host = await genesis_exchange([bot.info("b"), me.info("me"), host.info("h")], welcome,
                                      me.info("me"))
    assert isinstance(not_host, HandshakeError) and "seat 0 is not the host's key" in str(not_host)


# ----------------------------------------------------------------------------- invites


def test_invite_round_trip_and_printed_line() -> None:
    key = IdentityKey.generate()
    invite = Invite("192.168.1.20", 40123, NONCE, key.public.fingerprint)
    text = str(invite)
    assert text == f"p2pcards://192.168.1.20:40123/{NONCE.hex()}#{key.public.fingerprint}"
    assert Invite.parse(text) == invite
    assert Invite.parse(f"  p2pcards join {text}\n") == invite
    six = Invite("::1", 7, NONCE, key.public.fingerprint)
    assert str(six).startswith("p2pcards://[::1]:7/") and Invite.parse(str(six)) == six


@pytest.mark.parametrize(("text", "message"), [
    ("http://x:1/00#AAAA-AAAA-AAAA-AAAA", "starts with p2pcards://"),
    ("p2pcards://x/" + "00" * 16 + "#AAAA-AAAA-AAAA-AAAA", "is not of the form"),
    ("p2pcards://x:1/" + "00" * 15 + "#AAAA-AAAA-AAAA-AAAA", "32 hex digits, not 30"),
    ("p2pcards://x:70000/" + "00" * 16 + "#AAAA-AAAA-AAAA-AAAA", "port 70000"),
    ("p2pcards://x:1/" + "00" * 16 + "#AAAA-AAAA-AAAA", "XXXX-XXXX-XXXX-XXXX"),
])
def test_bad_invites_name_the_part_at_fault(text: str, message: str) -> None:
    with pytest.raises(InviteError, match=message):
        Invite.parse(text)
