"""The genesis record of a table and its table id.

The genesis fixes everything a table's peers agree on before the first card: protocol version,
game, preset and full variant config, the seats in playing order with their Ed25519 identity keys,
X25519 keys (for cards shown to one seat only) and nonces, and the timeouts. Its canonical msgpack
encoding is the first record of a transcript; ``table_id = SHA-256(encoding)``. Every seat signs it
by sending its ``accept`` envelope, whose payload carries the table id.

Sans-IO: this module only encodes, decodes and checks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games import get_game
from ..games.base import GameError, GameSpec
from ..wire import codec
from ..wire.errors import ProtocolError
from ..wire.identity import PublicIdentity

__all__ = ["Genesis", "GenesisError", "SeatInfo", "PROTOCOL_VERSION", "DEFAULT_TIMEOUTS",
           "DROPOUT_POLICIES"]

PROTOCOL_VERSION = 1
MAX_GENESIS_BYTES = 16 * 1024
DEFAULT_TIMEOUTS: Mapping[str, int] = {"step": 60, "action": 600}
"""Seconds a seat may take: ``step`` for automatic messages (keys, shuffles, tokens, results),
``action`` for a person's decision."""


DROPOUT_POLICIES = ("forfeit", "bot")
"""What a table of three or more seats does when a seat drops out (SPEC §9.13): the others
rebuild its hand key of the deck in play from their shares; with ``forfeit`` they audit the hand
and the match ends with the dropper forfeiting, with ``bot`` the match goes on to its end with
the public bot of SPEC §9.13.7 in that seat, its cards shown to every seat. A genesis without
the ``dropout`` key shares no keys and ends at a dropout, as version 1 always did."""


class GenesisError(ProtocolError):
    """A genesis record that is malformed or names an unknown game, preset or flag."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat: its long-term identity key, its X25519 key for private shows, its nonce, a name."""

    identity: bytes
    x25519: bytes
    nonce: bytes
    name: str = ""

    def to_wire(self) -> dict[str, Any]:
        return {"identity": self.identity, "x25519": self.x25519, "nonce": self.nonce,
                "name": self.name}

    @classmethod
    def from_wire(cls, data: object, index: int) -> SeatInfo:
        where = f"genesis seat {index}"
        if not isinstance(data, dict) or set(data) != {"identity", "x25519", "nonce", "name"}:
            raise GenesisError(f"{where} must be a map of identity, x25519, nonce and name")
        for key in ("identity", "x25519"):
            if not isinstance(data[key], bytes) or len(data[key]) != 32:
                raise GenesisError(f"{where}: {key} must be 32 bytes")
        if not isinstance(data["nonce"], bytes) or not 16 <= len(data["nonce"]) <= 64:
            raise GenesisError(f"{where}: nonce must be 16 to 64 bytes")
        if not isinstance(data["name"], str) or len(data["name"]) > 40:
            raise GenesisError(f"{where}: name must be text of at most 40 characters")
        return cls(data["identity"], data["x25519"], data["nonce"], data["name"])


@dataclass(frozen=True)
class Genesis:
    """The agreed table. ``config`` is the game config's wire form (all flags explicit)."""

    game: str
    preset: str
    config: Mapping[str, Any]
    seats: tuple[SeatInfo, ...]
    timeouts: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))
    version: int = PROTOCOL_VERSION
    dropout: str | None = None
    """One of :data:`DROPOUT_POLICIES`, or ``None`` (no key sharing; the key is then absent
    from the encoding, which is byte for byte that of a genesis before key sharing)."""

    @property
    def shares_keys(self) -> bool:
        """Whether the seats share their hand keys (a ``dropout`` policy is set)."""
        return self.dropout is not None

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    def game_config(self) -> Any:
        """The frozen config object of the game (checked)."""
        try:
            return self.spec.config_from_wire(self.config)
        except GameError as exc:
            raise GenesisError(f"genesis config: {exc}") from None

    def to_wire(self) -> dict[str, Any]:
        out = {
            "version": self.version,
            "game": self.game,
            "preset": self.preset,
            "config": dict(self.config),
            "seats": [s.to_wire() for s in self.seats],
            "timeouts": dict(self.timeouts),
        }
        if self.dropout is not None:
            out["dropout"] = self.dropout
        return out

    def encode(self) -> bytes:
        """The canonical encoding, first record of the transcript."""
        return codec.pack(self.to_wire())

    @property
    def table_id(self) -> bytes:
        return hashlib.sha256(self.encode()).digest()

    @classmethod
    def decode(cls, data: bytes) -> Genesis:
        """Parse and check a genesis record; :class:`GenesisError` names the field at fault."""
        try:
            obj = codec.unpack(data, max_size=MAX_GENESIS_BYTES)
        except ProtocolError as exc:
            raise GenesisError(f"genesis record is not valid canonical msgpack: {exc}") from None
        expected = {"version", "game", "preset", "config", "seats", "timeouts"}
        if not isinstance(obj, dict) or set(obj) - {"dropout"} != expected:
            raise GenesisError("genesis record must be a map of " + ", ".join(sorted(expected))
                               + " (and optionally dropout)")
        if obj["version"] != PROTOCOL_VERSION:
            raise GenesisError(
                f"genesis protocol version {obj['version']!r} is not supported "
                f"(this peer speaks {PROTOCOL_VERSION})"
            )
        for key in ("game", "preset"):
            if not isinstance(obj[key], str):
                raise GenesisError(f"genesis {key} must be text")
        seats_raw = obj["seats"]
        if not isinstance(seats_raw, list) or not 2 <= len(seats_raw) <= 8:
            raise GenesisError("genesis seats must be a list of 2 to 8 seats")
        seats = tuple(SeatInfo.from_wire(s, i) for i, s in enumerate(seats_raw))
        if len({s.identity for s in seats}) != len(seats):
            raise GenesisError("genesis seats must have distinct identity keys")
        timeouts = obj["timeouts"]
        if not isinstance(timeouts, dict) or set(timeouts) != set(DEFAULT_TIMEOUTS) or not all(
            isinstance(v, int) and 1 <= v <= 86400 for v in timeouts.values()
        ):
            raise GenesisError("genesis timeouts must give step and action in seconds (1..86400)")
        if not all(type(v) is int for v in timeouts.values()):
            raise GenesisError("genesis timeouts must be integers")
        dropout = obj.get("dropout")
        if "dropout" in obj and dropout not in DROPOUT_POLICIES:
            raise GenesisError("genesis dropout must be one of "
                               + ", ".join(DROPOUT_POLICIES))
        if dropout is not None and len(seats) < 3:
            raise GenesisError("genesis dropout is for tables of three or more seats")
        genesis = cls(obj["game"], obj["preset"], obj["config"], seats, timeouts,
                      dropout=dropout)
        try:
            spec = genesis.spec
            allowed = spec.preset_players(genesis.preset)
        except GameError as exc:
            raise GenesisError(f"genesis: {exc}") from None
        if spec.name != genesis.game:
            raise GenesisError(f"genesis game must be spelled {spec.name!r}")
        if len(seats) not in allowed:
            raise GenesisError(
                f"genesis preset {genesis.preset!r} of {spec.name} is not for {len(seats)} seats"
            )
        for i, seat in enumerate(seats):
            try:
                PublicIdentity.from_bytes(seat.identity)
            except ProtocolError as exc:
                raise GenesisError(f"genesis seat {i}: identity key: {exc}") from None
        config = genesis.game_config()
        if config.players != len(seats):
            raise GenesisError(
                f"genesis has {len(seats)} seats but its config is for {config.players} players"
            )
        if genesis.encode() != data:
            raise GenesisError("genesis record is not in canonical form")
        return genesis
