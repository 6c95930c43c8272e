"""A seat's long-term secrets for one table: its Ed25519 identity, its X25519 key and its nonce
(SPEC §4), made fresh or from a given randomness; the public part goes into the genesis."""

from __future__ import annotations

from dataclasses import dataclass

from ..crypto import Randomness, SystemRandomness, x25519_keypair
from ..wire import IdentityKey
from .genesis import SeatInfo

__all__ = ["SeatSecrets", "new_seat"]


@dataclass(frozen=True)
class SeatSecrets:
    """A seat's long-term secrets: its Ed25519 identity and its X25519 key (private, public)."""

    identity: IdentityKey
    x25519_private: bytes
    x25519_public: bytes
    nonce: bytes

    def info(self, name: str = "") -> SeatInfo:
        """The public part, for the genesis."""
        return SeatInfo(self.identity.public.to_bytes(), self.x25519_public, self.nonce, name)


def new_seat(rng: Randomness | None = None, identity: IdentityKey | None = None) -> SeatSecrets:
    """Fresh per-table secrets (the identity may be the user's long-term key)."""
    rng = rng or SystemRandomness()
    if identity is None:
        identity = IdentityKey.from_bytes(rng.bytes(32))
    private, public = x25519_keypair(rng)
    return SeatSecrets(identity, private, public, rng.bytes(16))
