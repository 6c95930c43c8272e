"""The match record: what a peer needs to come back into its unfinished match after a crash.

Kept in the secret store (:mod:`.secret_store`, ``secrets/<table id hex>-seat<S>.match`` where
``S`` is the lowest seat the peer plays, mode 0600),
written once the genesis is known and before this peer's first envelope, and deleted when the
match is over. With the transcript (which holds the chain) and the seats' kept hand keys it is
everything ``p2pcards resume`` needs: the peer's role and how it reaches the table (the invite;
for a host also the address it listened on), the local seats with their table-level secrets
(X25519 key, and the identity key unless it is the user's stored one) and who plays them, the
seats played by bots (they have the automatic-step timeout for their moves), and the relay
identity and patience.

Encoding: one canonical msgpack map (:mod:`p2pcards.wire.codec`) with ``version`` 1. Sans-IO.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..wire import codec
from ..wire.errors import DecodeError

__all__ = ["MatchRecord", "RecordedSeat", "RecordError", "HOST", "JOINER"]

VERSION = 1
HOST = "host"
JOINER = "joiner"
MAX_RECORD = 64 * 1024


class RecordError(ValueError):
    """A match record that cannot be decoded; the message says what is wrong."""


@dataclass(frozen=True)
class RecordedSeat:
    """A seat played in the recorded process.

    ``identity`` is the seed of its Ed25519 key, or ``None`` when the seat plays with the user's
    stored identity (``identity.key``, never copied here). ``player`` is ``person`` or
    ``bot:KIND`` (a bot of :mod:`p2pcards.bots.loader`).
    """

    seat: int
    x25519: bytes
    player: str
    identity: bytes | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "x25519": self.x25519, "player": self.player,
                "identity": self.identity}

    @classmethod
    def from_wire(cls, data: object) -> RecordedSeat:
        if not isinstance(data, dict) or set(data) != {"seat", "x25519", "player", "identity"}:
            raise RecordError("a recorded seat is a map of seat, x25519, player and identity")
        seat, x25519, player, identity = (data["seat"], data["x25519"], data["player"],
                                          data["identity"])
        if type(seat) is not int or seat < 0:
            raise RecordError("a recorded seat number is a non-negative integer")
        if not isinstance(x25519, bytes) or len(x25519) != 32:
            raise RecordError(f"the X25519 key of recorded seat {seat} is not 32 bytes")
        if not isinstance(player, str) or not (player == "person" or player.startswith("bot:")):
            raise RecordError(f"the player of recorded seat {seat} is not 'person' or 'bot:KIND'")
        if identity is not None and (not isinstance(identity, bytes) or len(identity) != 32):
            raise RecordError(f"the identity key of recorded seat {seat} is not 32 bytes")
        return cls(seat, x25519, player, identity)


@dataclass(frozen=True)
class MatchRecord:
    """See the module docstring. ``listen`` is the direct host's bound ``[host, port]``;
    ``relay_identity`` the seed of the key a joiner proves to a relay (a fresh key, never its
    seat's identity key, so that the relay gives it a slot of its own; a joiner records it
    whatever its invite, and uses it only with a relay invite); ``None`` in a host's record, as
    a host proves its seat's identity key to get slot 0 (a joiner's record without one comes
    back with a fresh key); ``seed`` the ``--seed`` of a
    reproducible match (bots' seeds derive from it)."""

    role: str
    table_id: bytes
    transcript: str
    invite: str
    seats: tuple[RecordedSeat, ...]
    bots: tuple[int, ...] = ()
    listen: tuple[str, int] | None = None
    relay_identity: bytes | None = None
    relay_patience: int = 90
    seed: int | None = None

    @property
    def own_seat(self) -> int:
        """The lowest recorded seat: the seat that names the record and its lock in the secret
        store (:meth:`~p2pcards.records.secret_store.SecretStore.record_path`)."""
        return min(s.seat for s in self.seats)

    def encode(self) -> bytes:
        return codec.pack({
            "version": VERSION, "role": self.role, "table": self.table_id,
            "transcript": self.transcript, "invite": self.invite,
            "seats": [s.to_wire() for s in self.seats], "bots": list(self.bots),
            "listen": None if self.listen is None else list(self.listen),
            "relay-identity": self.relay_identity, "relay-patience": self.relay_patience,
            "seed": self.seed})

    @classmethod
    def decode(cls, data: bytes) -> MatchRecord:
        try:
            raw = codec.unpack(data, max_size=MAX_RECORD)
        except DecodeError as exc:
            raise RecordError(f"the match record is not canonical msgpack: {exc}") from None
        keys = {"version", "role", "table", "transcript", "invite", "seats", "bots", "listen",
                "relay-identity", "relay-patience", "seed"}
        if not isinstance(raw, dict) or set(raw) != keys:
            raise RecordError("the match record does not have the fields of version 1")
        if raw["version"] != VERSION:
            raise RecordError(f"match record version {raw['version']!r} is not supported")
        if raw["role"] not in (HOST, JOINER):
            raise RecordError(f"the recorded role {raw['role']!r} is not host or joiner")
        table, transcript, invite = raw["table"], raw["transcript"], raw["invite"]
        if not isinstance(table, bytes) or len(table) != 32:
            raise RecordError("the recorded table id is not 32 bytes")
        if not isinstance(transcript, str) or not isinstance(invite, str):
            raise RecordError("the recorded transcript path and invite are text")
        if not isinstance(raw["seats"], list) or not raw["seats"]:
            raise RecordError("the match record names no seat")
        seats = tuple(RecordedSeat.from_wire(s) for s in raw["seats"])
        bots = raw["bots"]
        if not isinstance(bots, list) or not all(type(b) is int for b in bots):
            raise RecordError("the recorded bot seats are not seat numbers")
        listen = raw["listen"]
        if listen is not None and not (isinstance(listen, list) and len(listen) == 2
                                       and isinstance(listen[0], str)
                                       and type(listen[1]) is int):
            raise RecordError("the recorded listening address is not [host, port]")
        relay_identity = raw["relay-identity"]
        if relay_identity is not None and (not isinstance(relay_identity, bytes)
                                           or len(relay_identity) != 32):
            raise RecordError("the recorded relay identity is not 32 bytes")
        patience, seed = raw["relay-patience"], raw["seed"]
        if type(patience) is not int or patience < 1:
            raise RecordError("the recorded relay patience is not a positive integer")
        if seed is not None and type(seed) is not int:
            raise RecordError("the recorded seed is not an integer")
        return cls(raw["role"], table, transcript, invite, seats, tuple(bots),
                   None if listen is None else (listen[0], listen[1]), relay_identity,
                   patience, seed)
