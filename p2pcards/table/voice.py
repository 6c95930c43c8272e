"""The local seat's voice: its secrets, the bodies of the messages it makes, and its seal.

A seated :class:`~.machine.Table` owns one :class:`Voice` (an observer has none). The voice holds
what only the local seat knows (its identity key, its X25519 private key, its randomness). It
makes the body of each automatic message of the seat (``key``, ``shuffle``,
``tokens``: SPEC §9.3-§9.5; ``recover``: §9.13; ``complain``: §9.13.4) and of its ``action``
(§9.4, §9.6), and seals the payloads the machine hands it (§9.1). It changes nothing in the
machine: the machine decides when the seat speaks and applies what it says.
"""

from __future__ import annotations

from typing import Any

from ..crypto import Randomness
from ..games.base import Action, CardUse
from ..seating.genesis import Genesis
from ..wire import Envelope, IdentityKey, Payload, seal
from . import card_use, complaint, deal, recovery
from .cycle import DeckCycle
from .keeper import Keeper

__all__ = ["Voice"]


class Voice:
    """Seat ``seat``'s secrets at ``genesis``'s table; :class:`ValueError` if they are not that
    seat's."""

    def __init__(self, genesis: Genesis, seat: int, identity: IdentityKey | None,
                 x25519_private: bytes | None, rng: Randomness | None) -> None:
        if not 0 <= seat < len(genesis.seats):
            raise ValueError(f"seat {seat} is not a seat of this table")
        if identity is None or rng is None or x25519_private is None:
            raise ValueError("a seated table needs its identity key, X25519 key and rng")
        if identity.public.to_bytes() != genesis.seats[seat].identity:
            raise ValueError(f"this identity key is not the key of seat {seat}")
        self.genesis = genesis
        self.seat = seat
        self.identity = identity
        self.x25519 = x25519_private
        self.rng = rng

    def x25519_of(self, seat: int) -> bytes:
        """Seat ``seat``'s public X25519 key (what a token sealed to it is sealed with)."""
        return self.genesis.seats[seat].x25519

    def seal(self, payload: Payload) -> Envelope:
        """``payload`` signed with the local seat's identity key."""
        return seal(payload, self.identity)

    def key_body(self, cycle: DeckCycle, keeper: Keeper | None) -> dict[str, Any]:
        """The ``key`` body: a new hand key (and inbox key), kept in ``keeper`` before their
        first use on the wire (SPEC §11.7.4)."""
        keep = None if keeper is None else keeper.keep
        return deal.key_body(cycle, self.seat, self.rng, keep)

    def shuffle_body(self, cycle: DeckCycle) -> dict[str, Any]:
        """The ``shuffle`` body (SPEC §9.3)."""
        return deal.shuffle_body(cycle, self.seat, self.rng)

    def tokens_body(self, cycle: DeckCycle) -> dict[str, Any]:
        """The ``tokens`` body (SPEC §9.5)."""
        return deal.tokens_body(cycle, self.seat, self.rng, self.x25519_of)

    def action_body(self, cycle: DeckCycle, action: Action, use: CardUse, *,
                    index: int) -> dict[str, Any]:
        """The ``action`` body proving the cards ``action`` uses (SPEC §9.4, §9.6)."""
        return card_use.prove(cycle, action, use, me=self.seat, rng=self.rng,
                              x25519_of=self.x25519_of, index=index,
                              players=len(self.genesis.seats))

    def recover_body(self, cycle: DeckCycle | None, dropped: int | None) -> dict[str, Any]:
        """The ``recover`` body about ``dropped``, the seat whose recovery has begun (SPEC
        §9.13)."""
        assert dropped is not None
        return recovery.body(cycle, me=self.seat, dropped=dropped,
                             policy=self.genesis.dropout, rng=self.rng)

    def complaint_body(self, cycle: DeckCycle) -> dict[str, Any]:
        """The ``complain`` body about the local seat's share of ``cycle.bad_box``'s key."""
        return complaint.body(cycle, self.seat, self.rng)

