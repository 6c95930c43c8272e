"""The seating handshake, joiner and host sides, over a :class:`~.framed.FrameChannel`.

Four messages seat a joiner (every one a canonical msgpack map, see :mod:`.framed`)::

    joiner -> host  hello      {version, nonce: table nonce of the invite, challenge: 32 bytes,
                                bot: bool}
    host -> joiner  challenge  {identity: host's Ed25519 key, proof: its signature of
                                [HOST_CONTEXT, table nonce, joiner's challenge],
                                challenge: 32 bytes, seat, game, preset, players}
    joiner -> host  join       {identity, x25519, nonce: seat nonce, name, proof: signature of
                                [JOINER_CONTEXT, table nonce, host's challenge, host key, seat,
                                 x25519, seat nonce, name]}
    host -> joiner  seated     {seat, missing: seats still empty}

and once every seat is taken::

    host -> joiner  genesis    {genesis: the encoded Genesis, bots: seats played by bots}

The host answers a wrong or stale table nonce, a full table, an unsupported version or an
identity already seated with ``refused {reason}`` and closes. The joiner checks that the host's
key has the invite's fingerprint and that its proof is valid, so nobody but the holder of that
key can seat it; the host checks the joiner's proof the same way. The seat index is told in the
``challenge`` so that a seat's secrets may depend on it (the seeded demo).

The joiner's checks of the genesis (:func:`receive_genesis`): it decodes (:class:`Genesis.decode`
checks everything), has the game, preset and player count the host announced, seat 0 is the
host's key, and the joiner's own seat entry is exactly what it sent.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from ..genesis import PROTOCOL_VERSION, Genesis, GenesisError, SeatInfo
from ..local import SeatSecrets
from ..wire import codec
from ..wire.errors import BadKey
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import HandshakeError
from .framed import FrameChannel
from .invite import Invite

__all__ = [
    "TableOffer",
    "HostWelcome",
    "SeatedJoiner",
    "SecretsFor",
    "join_table",
    "seat_joiner",
    "receive_hello",
    "JoinerHello",
    "confirm_seat",
    "refuse",
    "send_genesis",
    "receive_genesis",
    "HOST_CONTEXT",
    "JOINER_CONTEXT",
    "CHALLENGE_SIZE",
]

HOST_CONTEXT = "p2pcards/handshake/host/v1"
JOINER_CONTEXT = "p2pcards/handshake/joiner/v1"
CHALLENGE_SIZE = 32
MAX_NAME = 40


@dataclass(frozen=True)
class TableOffer:
    """What the host offers: the table nonce of its invite, the game, preset and seat count."""

    nonce: bytes
    game: str
    preset: str
    players: int


@dataclass(frozen=True)
class HostWelcome:
    """What a joiner learned from the host's ``challenge``."""

    seat: int
    host: PublicIdentity
    game: str
    preset: str
    players: int


@dataclass(frozen=True)
class SeatedJoiner:
    """What the host learned from a joiner: its seat, its public seat entry, whether it is a bot."""

    seat: int
    info: SeatInfo
    bot: bool


SecretsFor = Callable[[int], tuple[SeatSecrets, str]]
"""Given the seat index the host assigned, the joiner's seat secrets and its name."""


def _host_statement(nonce: bytes, challenge: bytes) -> bytes:
    return codec.pack([HOST_CONTEXT, nonce, challenge])


def _joiner_statement(nonce: bytes, challenge: bytes, host: bytes, seat: int,
                      info: SeatInfo) -> bytes:
    return codec.pack([JOINER_CONTEXT, nonce, challenge, host, seat, info.identity, info.x25519,
                       info.nonce, info.name])


def _field(message: dict[str, Any], name: str, kind: type, who: str) -> Any:
    value = message.get(name)
    if type(value) is not kind:
        raise HandshakeError(f"{who} sent a {message['type']!r} message whose {name!r} is not "
                             f"{kind.__name__}")
    return value


async def _expect(framed: FrameChannel, kind: str, fields: Collection[str]) -> dict[str, Any]:
    message = await framed.receive_message()
    if message is None:
        raise HandshakeError(f"{framed.label} closed the connection during the handshake")
    if message["type"] == "refused":
        reason = message.get("reason")
        text = reason if isinstance(reason, str) else "no reason given"
        raise HandshakeError(f"{framed.label} refused: {text}")
    expected = {"type", *fields}
    if message["type"] != kind or set(message) != expected:
        raise HandshakeError(f"{framed.label} sent {message['type']!r} with fields "
                             f"{sorted(message)} where a {kind!r} message was expected")
    return message


# --------------------------------------------------------------------------------- joiner


async def join_table(framed: FrameChannel, invite: Invite, secrets_for: SecretsFor, *,
                     bot: bool = False) -> tuple[HostWelcome, SeatSecrets, SeatInfo]:
    """Run the joiner side up to ``seated``; :class:`HandshakeError` on any failure."""
    challenge = os.urandom(CHALLENGE_SIZE)
    await framed.send_message({"type": "hello", "version": PROTOCOL_VERSION,
                               "nonce": invite.nonce, "challenge": challenge, "bot": bot})
    message = await _expect(framed, "challenge", ("identity", "proof", "challenge", "seat",
                                                  "game", "preset", "players"))
    who = framed.label
    raw_key = _field(message, "identity", bytes, who)
    try:
        host = PublicIdentity(raw_key)
    except BadKey as exc:
        raise HandshakeError(f"{who} sent an unusable identity key: {exc}") from None
    if host.fingerprint != invite.fingerprint:
        raise HandshakeError(
            f"{who} has key {host.fingerprint}, not the invite's {invite.fingerprint}: "
            "this is not the host who sent the invite"
        )
    if not host.verify(_field(message, "proof", bytes, who),
                       _host_statement(invite.nonce, challenge)):
        raise HandshakeError(f"{who} did not prove it holds the key {invite.fingerprint}")
    seat = _field(message, "seat", int, who)
    players = _field(message, "players", int, who)
    if not 1 <= seat < players:
        raise HandshakeError(f"{who} offered seat {seat} of a {players}-seat table")
    host_challenge = _field(message, "challenge", bytes, who)
    welcome = HostWelcome(seat, host, _field(message, "game", str, who),
                          _field(message, "preset", str, who), players)
    secrets, name = secrets_for(seat)
    info = secrets.info(name[:MAX_NAME])
    proof = secrets.identity.sign(
        _joiner_statement(invite.nonce, host_challenge, raw_key, seat, info))
    await framed.send_message({"type": "join", "identity": info.identity, "x25519": info.x25519,
                               "nonce": info.nonce, "name": info.name, "proof": proof})
    seated = await _expect(framed, "seated", ("seat", "missing"))
    if seated["seat"] != seat:
        raise HandshakeError(f"{who} seated us at seat {seated['seat']!r}, not the {seat} offered")
    return welcome, secrets, info


async def receive_genesis(framed: FrameChannel, welcome: HostWelcome,
                          info: SeatInfo) -> tuple[Genesis, frozenset[int]]:
    """Wait for the genesis and check it (see the module docstring); returns it and the bots."""
    who = framed.label
    message = await _expect(framed, "genesis", ("genesis", "bots"))
    try:
        genesis = Genesis.decode(_field(message, "genesis", bytes, who))
    except GenesisError as exc:
        raise HandshakeError(f"{who} sent an invalid genesis: {exc}") from None
    problems = []
    if (genesis.game, genesis.preset) != (welcome.game, welcome.preset):
        problems.append(f"it is {genesis.game}/{genesis.preset}, not the "
                        f"{welcome.game}/{welcome.preset} announced")
    if len(genesis.seats) != welcome.players:
        problems.append(f"it has {len(genesis.seats)} seats, not {welcome.players}")
    elif genesis.seats[welcome.seat] != info:
        problems.append(f"its seat {welcome.seat} is not the seat we asked for")
    if genesis.seats[0].identity != welcome.host.to_bytes():
        problems.append("its seat 0 is not the host's key")
    if problems:
        raise HandshakeError(f"{who} sent a genesis we refuse: {'; '.join(problems)}")
    bots = message["bots"]
    if not isinstance(bots, list) or not all(type(b) is int for b in bots):
        raise HandshakeError(f"{who} sent a genesis message whose bots are not seat numbers")
    return genesis, frozenset(bots)


# --------------------------------------------------------------------------------- host


async def refuse(framed: FrameChannel, reason: str) -> None:
    """Tell the other side why it is refused (best effort)."""
    await framed.send_message({"type": "refused", "reason": reason})


@dataclass(frozen=True)
class JoinerHello:
    """A joiner's checked ``hello``: its challenge and whether a bot plays its seat."""

    challenge: bytes
    bot: bool


async def receive_hello(framed: FrameChannel, offer: TableOffer) -> JoinerHello:
    """Read and check a joiner's ``hello``; refuse and raise :class:`HandshakeError` if it has
    another protocol version or the nonce of another table.

    The host reads it before it gives the connection a seat, so that a connection that never
    says hello (a port scan, garbage) does not hold up the others.
    """
    who = framed.label
    hello = await _expect(framed, "hello", ("version", "nonce", "challenge", "bot"))
    if hello["version"] != PROTOCOL_VERSION:
        reason = (f"this host speaks protocol version {PROTOCOL_VERSION}, "
                  f"not {hello['version']!r}")
        await refuse(framed, reason)
        raise HandshakeError(f"{who} was refused: {reason}")
    if hello["nonce"] != offer.nonce:
        reason = ("this host is not hosting the table of that invite "
                  "(the invite is wrong or stale; ask the host for a fresh one)")
        await refuse(framed, reason)
        raise HandshakeError(f"{who} was refused: it presented a wrong or stale invite")
    challenge = _field(hello, "challenge", bytes, who)
    bot = _field(hello, "bot", bool, who)
    if len(challenge) != CHALLENGE_SIZE:
        raise HandshakeError(f"{who} sent a challenge of {len(challenge)} bytes, "
                             f"not {CHALLENGE_SIZE}")
    return JoinerHello(challenge, bot)


async def seat_joiner(framed: FrameChannel, offer: TableOffer, host_key: IdentityKey, seat: int,
                      taken: Collection[bytes], hello: JoinerHello | None = None
                      ) -> SeatedJoiner:
    """Run the host side for a joiner who would get ``seat``; refuse and raise on any failure.

    ``taken`` holds the identity keys already seated (the host's included). ``hello`` is the
    joiner's hello if :func:`receive_hello` already read it.
    """
    who = framed.label
    if hello is None:
        hello = await receive_hello(framed, offer)
    challenge, bot = hello.challenge, hello.bot
    my_challenge = os.urandom(CHALLENGE_SIZE)
    await framed.send_message({
        "type": "challenge", "identity": host_key.public.to_bytes(),
        "proof": host_key.sign(_host_statement(offer.nonce, challenge)),
        "challenge": my_challenge, "seat": seat, "game": offer.game, "preset": offer.preset,
        "players": offer.players,
    })
    join = await _expect(framed, "join", ("identity", "x25519", "nonce", "name", "proof"))
    try:
        info = SeatInfo.from_wire({k: join[k] for k in ("identity", "x25519", "nonce", "name")},
                                  seat)
        identity = PublicIdentity(info.identity)
    except (GenesisError, BadKey) as exc:
        await refuse(framed, f"bad seat entry: {exc}")
        raise HandshakeError(f"{who} sent a bad seat entry: {exc}") from None
    statement = _joiner_statement(offer.nonce, my_challenge, host_key.public.to_bytes(), seat,
                                  info)
    if not identity.verify(_field(join, "proof", bytes, who), statement):
        await refuse(framed, "the proof of your identity key is not valid")
        raise HandshakeError(f"{who} did not prove it holds the key {identity.fingerprint}")
    if info.identity in taken:
        await refuse(framed, "that identity key already has a seat at this table")
        raise HandshakeError(f"{who} has the key {identity.fingerprint}, which is already seated")
    return SeatedJoiner(seat, info, bot)


async def send_genesis(framed: FrameChannel, genesis: Genesis, bots: Collection[int]) -> None:
    """Send the genesis to a seated joiner."""
    await framed.send_message({"type": "genesis", "genesis": genesis.encode(),
                               "bots": sorted(bots)})


async def confirm_seat(framed: FrameChannel, seat: int, missing: int) -> None:
    """Tell a joiner it is seated and how many seats are still empty."""
    await framed.send_message({"type": "seated", "seat": seat, "missing": missing})
