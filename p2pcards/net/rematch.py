"""Another match at the same table: the rematch exchange (SPEC §11.8).

When a match is over, the same connections carry, outside any chain::

    each peer -> hub  again {seat, entry: the seat's next genesis entry, or nil to decline,
                             proof: the seat's genesis key's signature of
                                    [AGAIN_CONTEXT, finished table id, seat, entry or nil]}
    hub -> joiners    again {...} of a seat that declined (the hub's own, or a joiner's), or
    hub -> joiners    genesis {genesis, bots}     (everyone said yes)

An entry keeps the seat's identity key and name and brings a fresh X25519 key and a fresh seat
nonce, so the next genesis has a new table id and its chain starts from nothing; its rules are
those of the finished match. Every joiner checks the next genesis (:func:`next_genesis_problems`)
before it signs it with its ``accept``, as at seating. A decline is signed, so each peer names
who declined from that seat's own key, not the hub's word.

The functions here make and check the messages, and :func:`next_again` reads the next one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..i18n import pgettext
from ..seating.genesis import Genesis, GenesisError, SeatInfo
from ..wire import codec
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import NetError
from .framed import FrameChannel

__all__ = ["AGAIN_CONTEXT", "again_message", "check_again", "next_genesis_problems",
           "Series", "declined_sentence", "side_names", "next_again"]

AGAIN_CONTEXT = "p2pcards/rematch/v1"


def _statement(previous: Genesis, seat: int, entry: dict[str, Any] | None) -> bytes:
    return codec.pack([AGAIN_CONTEXT, previous.table_id, seat, entry])


def again_message(previous: Genesis, seat: int, key: IdentityKey, entry: SeatInfo | None
                  ) -> dict[str, Any]:
    """The seat's answer after ``previous``: its next entry (yes) or ``None`` (no), signed."""
    if key.public.to_bytes() != previous.seats[seat].identity:
        raise ValueError(f"this key is not the genesis key of seat {seat}")
    wire = None if entry is None else entry.to_wire()
    return {"type": "again", "seat": seat, "entry": wire,
            "proof": key.sign(_statement(previous, seat, wire))}


def check_again(previous: Genesis, message: dict[str, Any], allowed: Collection[int]
                ) -> tuple[int, SeatInfo | None] | None:
    """The seat and entry (``None``: it declines) of a well-formed ``again`` from one of
    ``allowed``, signed by that seat's key in ``previous``, whose entry keeps the seat's key and
    name; ``None`` for anything else."""
    seat, wire, proof = message.get("seat"), message.get("entry"), message.get("proof")
    if (set(message) != {"type", "seat", "entry", "proof"} or type(seat) is not int
            or seat not in allowed or not 0 <= seat < len(previous.seats)
            or not isinstance(proof, bytes) or not (wire is None or isinstance(wire, dict))):
        return None
    old = previous.seats[seat]
    if not PublicIdentity.from_bytes(old.identity).verify(proof,
                                                          _statement(previous, seat, wire)):
        return None
    if wire is None:
        return seat, None
    try:
        entry = SeatInfo.from_wire(wire, seat)
    except GenesisError:
        return None
    if (entry.identity, entry.name) != (old.identity, old.name) or entry.nonce == old.nonce:
        return None
    return seat, entry


def next_genesis_problems(previous: Genesis, genesis: Genesis, seat: int, mine: SeatInfo
                          ) -> list[str]:
    """Every way ``genesis`` is not the rematch of ``previous`` that seat ``seat`` agreed to
    with ``mine``, one phrase each."""
    problems: list[str] = []
    if (genesis.game, genesis.preset, dict(genesis.config), dict(genesis.timeouts),
            genesis.dropout) != (previous.game, previous.preset, dict(previous.config),
                                 dict(previous.timeouts), previous.dropout):
        problems.append("its rules are not those of the match just played")
    if len(genesis.seats) != len(previous.seats):
        return problems + ["it has another number of seats"]
    for number, (new, old) in enumerate(zip(genesis.seats, previous.seats, strict=True)):
        if (new.identity, new.name) != (old.identity, old.name):
            problems.append(f"its seat {number} is not the same player")
        elif new.nonce == old.nonce:
            problems.append(f"its seat {number} keeps its old nonce")
    if genesis.seats[seat] != mine:
        problems.append(f"its seat {seat} is not the entry this seat sent")
    return problems


def side_names(genesis: Genesis) -> list[str]:
    """The scoring sides' names, ``Alba [0] + Bruno [2]``, one per side (one per seat in a game
    without partnerships)."""
    engine = genesis.spec.new_match(genesis.game_config())
    players = range(len(genesis.seats))
    side_of = [engine.side_of(seat) for seat in players]
    return [" + ".join(f"{genesis.seats[s].name or 'seat'} [{s}]" for s in players
                       if side_of[s] == side) for side in range(max(side_of) + 1)]


async def next_again(framed: FrameChannel) -> dict[str, Any] | None:
    """The next rematch message on ``framed`` (keepalives skipped): an ``again``, a
    ``genesis`` or an ``abort``; ``None`` when the connection ends, breaks or carries anything
    else."""
    while True:
        try:
            message = await framed.receive_message()
        except NetError:
            return None
        if message is None:
            return None
        if message["type"] == "alive":
            continue
        return message if message["type"] in ("again", "genesis", "abort") else None


def declined_sentence(previous: Genesis, seat: int) -> str:
    """``Bruno declined another match``."""
    name = previous.seats[seat].name or pgettext("network", "seat {seat}").format(seat=seat)
    return pgettext("network", "{name} declined another match").format(name=name)


@dataclass
class Series:
    """The running tally of the matches played in a row at one table: matches won per side
    (a drawn match counts for nobody)."""

    side_names: Sequence[str]
    wins: list[int] = field(default_factory=list)
    played: int = 0

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * len(self.side_names)

    def record(self, winner: int | None) -> None:
        """One more match, won by side ``winner`` (``None``: a draw)."""
        self.played += 1
        if winner is not None and 0 <= winner < len(self.wins):
            self.wins[winner] += 1

    def line(self) -> str:
        """``series after 2 matches: Alba [0] 2 · Bruno [1] 0``."""
        tally = " · ".join(f"{name} {won}" for name, won in zip(self.side_names, self.wins,
                                                                strict=True))
        if self.played == 1:
            return pgettext("network", "series after 1 match: {tally}").format(tally=tally)
        return pgettext("network", "series after {count} matches: {tally}").format(
            count=self.played, tally=tally)
